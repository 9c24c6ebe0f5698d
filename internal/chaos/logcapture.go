package chaos

import (
	"context"
	"log/slog"
	"strings"
	"sync"
)

// logStore keeps every record logged through its handlers, rendered in
// full and unescaped (message, level, every attribute, resolved), so that a
// secret anywhere in a record is found as it is.
type logStore struct {
	mu      sync.Mutex
	records []string
}

// snapshot returns the rendered records so far.
func (s *logStore) snapshot() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.records...)
}

// handler returns a debug-level slog.Handler that stores into s.
func (s *logStore) handler() slog.Handler { return &captureHandler{store: s} }

type captureHandler struct {
	store  *logStore
	prefix string // attributes added by WithAttrs, rendered
	group  string // the open group, with a trailing dot
}

// Enabled is true at every level: the soak captures debug records too.
func (h *captureHandler) Enabled(context.Context, slog.Level) bool { return true }

// Handle keeps the record, rendered whole.
func (h *captureHandler) Handle(_ context.Context, r slog.Record) error {
	var b strings.Builder
	b.WriteString(r.Level.String())
	b.WriteByte(' ')
	b.WriteString(r.Message)
	b.WriteString(h.prefix)
	r.Attrs(func(a slog.Attr) bool {
		writeAttr(&b, h.group, a)
		return true
	})
	h.store.mu.Lock()
	h.store.records = append(h.store.records, b.String())
	h.store.mu.Unlock()
	return nil
}

// WithAttrs returns a handler that adds attrs to every record.
func (h *captureHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	var b strings.Builder
	b.WriteString(h.prefix)
	for _, a := range attrs {
		writeAttr(&b, h.group, a)
	}
	return &captureHandler{store: h.store, prefix: b.String(), group: h.group}
}

// WithGroup returns a handler that puts later attributes in the group.
func (h *captureHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	return &captureHandler{store: h.store, prefix: h.prefix, group: h.group + name + "."}
}

// writeAttr renders " key=value", a group as its members with dotted keys.
func writeAttr(b *strings.Builder, group string, a slog.Attr) {
	v := a.Value.Resolve()
	if v.Kind() == slog.KindGroup {
		inner := group
		if a.Key != "" {
			inner += a.Key + "."
		}
		for _, m := range v.Group() {
			writeAttr(b, inner, m)
		}
		return
	}
	b.WriteByte(' ')
	b.WriteString(group)
	b.WriteString(a.Key)
	b.WriteByte('=')
	b.WriteString(v.String())
}
