package dbcloud

import (
	"encoding/json"
	"fmt"
	"log/slog"
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
	// A plain quoted string, the usual case, needs no second decoder: one
	// without an escape, a quote or a control character inside.
	n := len(b)
	plain := n >= 2 && b[0] == '"' && b[n-1] == '"' && utf8.Valid(b)
	for i := 1; plain && i < n-1; i++ {
		plain = b[i] != '\\' && b[i] != '"' && b[i] >= ' '
	}
	if plain {
		*s = Secret(b[1 : n-1])
		return nil
	}
	return json.Unmarshal(b, (*string)(s))
}
