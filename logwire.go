package dbcloud

import (
	"encoding/json"
	"fmt"
)

// MaxLogPage is the most entries the API puts on one logs page. A page with
// more is a malformed answer (a *ResponseError matching ErrInvalidResponse):
// it is refused before its entries are decoded, so a hostile or broken
// server cannot make a read hold more than a page's worth of entries.
const MaxLogPage = 500

// logsJSON is a logs response as it arrives on the wire.
type logsJSON struct {
	Entries    logEntries `json:"entries"`
	LastCursor string     `json:"last_cursor"`
	// Deprecated forms, used only when the current ones are absent.
	Logs             rawRef `json:"logs"`
	LegacyLastCursor string `json:"lastCursor"`
}

// finish falls back to the deprecated fields.
func (w *logsJSON) finish() error {
	if w.LastCursor == "" {
		w.LastCursor = w.LegacyLastCursor
	}
	if w.Entries != nil || len(w.Logs) == 0 {
		return nil
	}
	if err := checkPageLen(w.Logs, "logs"); err != nil {
		return err
	}
	var msgs []string
	if err := json.Unmarshal(w.Logs, &msgs); err != nil || len(msgs) == 0 {
		return err
	}
	w.Entries = make([]LogEntry, len(msgs))
	for i, m := range msgs {
		w.Entries[i].Message = m
	}
	return nil
}

// logEntries is the "entries" array, decoded only when it holds at most
// MaxLogPage elements.
type logEntries []LogEntry

// UnmarshalJSON counts the elements before decoding any.
func (l *logEntries) UnmarshalJSON(b []byte) error {
	if err := checkPageLen(b, "entries"); err != nil {
		return err
	}
	return json.Unmarshal(b, (*[]LogEntry)(l))
}

// checkPageLen returns an error when the JSON array b has more than
// MaxLogPage elements. b is valid JSON (encoding/json checks a document
// before it calls an UnmarshalJSON), so the commas at depth 1 outside
// strings separate its elements: n elements have n-1 of them. It reads b at
// most once and allocates nothing.
func checkPageLen(b []byte, field string) error {
	depth, commas, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			depth++
		case ']', '}':
			depth--
		case ',':
			if depth == 1 {
				if commas++; commas >= MaxLogPage {
					return fmt.Errorf("%q holds more than %d entries, the most a page may hold", field, MaxLogPage)
				}
			}
		}
	}
	return nil
}
