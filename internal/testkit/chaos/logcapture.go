package chaos

import (
	"bytes"
	"log/slog"
	"slices"
	"strings"
	"sync"
)

// logStore keeps every record the client logs, at every level, as slog's
// text handler writes them: one a line, values quoted where needed. The
// secrets searched for (the API key, passwords: letters, digits and
// hyphens) are never escaped by that quoting, so they are found as they
// are.
type logStore struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// handler returns a debug-level handler that writes into s.
func (s *logStore) handler() slog.Handler {
	return slog.NewTextHandler(s, &slog.HandlerOptions{Level: slog.LevelDebug})
}

// Write takes a record; the handler writes each in one call.
func (s *logStore) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

// snapshot returns the records so far, one per line.
func (s *logStore) snapshot() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Collect(strings.Lines(s.buf.String()))
}
