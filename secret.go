package dbcloud

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"slices"
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
func (api *caller) scrub(s string, x *exchange) string {
	for _, secret := range api.key().secrets() {
		s = redact(s, secret)
	}
	if x == nil {
		return s // a text of no request: only the credentials to remove
	}
	return redact(s, x.scrub)
}

func redact(s, secret string) string {
	if secret != "" && strings.Contains(s, secret) {
		return strings.ReplaceAll(s, secret, redacted)
	}
	return s
}

// scrubError keeps the secrets out of an error's text even if a lower layer
// (a proxy's error, a custom transport) echoed one. It keeps the error, and
// what it wraps, when there is nothing to scrub; otherwise it returns an
// error with the scrubbed text that keeps the original's identity (see
// scrubbedError).
func (api *caller) scrubError(err error, x *exchange) error {
	if msg := err.Error(); api.scrub(msg, x) != msg {
		secrets := api.key().secrets()
		if x != nil && x.scrub != "" {
			secrets = append(slices.Clip(secrets), x.scrub)
		}
		return &scrubbedError{msg: api.scrub(msg, x), err: err, secrets: secrets}
	}
	return err
}

// scrubbedError is an error whose text had a secret removed. It matches
// what the original matched with errors.Is (a sentinel is a value the
// caller already holds: nothing leaks), and with errors.As when the value
// found carries no secret in its own text, so that ErrRepeatedCursor, a
// context's end or an *APIError keep their identity. It has no Unwrap:
// the original, whose text holds the secret, is never handed out.
type scrubbedError struct {
	msg     string
	err     error
	secrets []string // what was scrubbed out, to keep out of As
}

func (e *scrubbedError) Error() string { return e.msg }

// Is reports whether the original error matches target.
func (e *scrubbedError) Is(target error) bool { return errors.Is(e.err, target) }

// As finds target in the original error, unless the error found would
// show a secret in its text.
func (e *scrubbedError) As(target any) bool {
	if !errors.As(e.err, target) {
		return false
	}
	v := reflect.ValueOf(target).Elem()
	if found, ok := v.Interface().(error); ok && found != nil {
		for _, secret := range e.secrets {
			if secret != "" && strings.Contains(found.Error(), secret) {
				v.SetZero()
				return false
			}
		}
	}
	return true
}
