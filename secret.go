package dbcloud

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"unicode/utf8"
)

const redacted = "[redacted]"

// Secret is a sensitive string, such as a service's initial password. Every
// way of printing, logging or encoding it gives "[redacted]", so a Service
// can be logged or dumped safely; string(s) is the only way to read it.
type Secret string

// String returns "[redacted]".
func (s Secret) String() string { return redacted }

// GoString returns "[redacted]", for %#v.
func (s Secret) GoString() string { return redacted }

// Format writes "[redacted]" for every verb, so no verb (%s, %x, %q, %v...)
// can reach the underlying bytes.
func (s Secret) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprintf(f, "%q", redacted)
		return
	}
	_, _ = f.Write([]byte(redacted))
}

// LogValue returns "[redacted]" to log/slog.
func (s Secret) LogValue() slog.Value { return slog.StringValue(redacted) }

// MarshalJSON encodes "[redacted]": a Service written out as JSON does not
// carry the password.
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

// UnmarshalJSON keeps the real value, so the password the API sends once can
// be read with string(s).
func (s *Secret) UnmarshalJSON(b []byte) error {
	// A plain quoted string, the usual case, needs no second decoder.
	if n := len(b); n >= 2 && b[0] == '"' && b[n-1] == '"' && utf8.Valid(b) &&
		!bytes.ContainsFunc(b[1:n-1], func(r rune) bool { return r == '\\' || r == '"' || r < ' ' }) {
		*s = Secret(b[1 : n-1])
		return nil
	}
	return json.Unmarshal(b, (*string)(s))
}

// scrub replaces the client's credentials and the call's own secret,
// wherever a server echoed them (a message, a header), with "[redacted]".
// r is nil for a text of no request: only the credentials are removed.
func (api *caller) scrub(s string, r *request) string {
	for _, secret := range api.pipe.Secrets() {
		s = redact(s, secret)
	}
	if r == nil {
		return s
	}
	return redact(s, r.scrub)
}

func redact(s, secret string) string {
	if secret != "" && strings.Contains(s, secret) {
		return strings.ReplaceAll(s, secret, redacted)
	}
	return s
}

// scrubError keeps the secrets out of an error's text even if a lower layer
// (a proxy's error, a custom transport) echoed one. It keeps the error, and
// what it wraps, when there is nothing to scrub.
func (api *caller) scrubError(err error, r *request) error {
	if msg := err.Error(); api.scrub(msg, r) != msg {
		return errors.New(api.scrub(msg, r))
	}
	return err
}
