package dbcloud

import (
	"encoding/json"
	"fmt"

	"github.com/dbcloud/dbcloud-go/internal/jsonscan"
)

// MaxLogPage is the most entries the API puts on one logs page. A page with
// more is a malformed answer (a *ResponseError matching ErrInvalidResponse):
// it is refused before its entries are decoded, so a hostile or broken
// server cannot make a read hold more than a page's worth of entries.
const MaxLogPage = 500

// logsJSON is a logs response as it arrives on the wire.
type logsJSON struct {
	Entries    []LogEntry `json:"entries"`
	LastCursor string     `json:"last_cursor"`
	// Deprecated forms, used only when the current ones are absent.
	Logs             rawRef `json:"logs"`
	LegacyLastCursor string `json:"lastCursor"`
}

// precheck refuses a page with an array of more than MaxLogPage elements in
// its top-level object ("entries", "logs", or any other) before anything is
// decoded. Any array, whatever its key: encoding/json matches keys without
// regard to case and after unescaping, so a check by name could be evaded.
func (w *logsJSON) precheck(data []byte) error {
	if jsonscan.LongerThan(data, 2, MaxLogPage) {
		return fmt.Errorf("a page holds more than %d entries, the most the API sends", MaxLogPage)
	}
	return nil
}

// finish falls back to the deprecated fields.
func (w *logsJSON) finish() error {
	if w.LastCursor == "" {
		w.LastCursor = w.LegacyLastCursor
	}
	if w.Entries != nil || len(w.Logs) == 0 {
		return nil
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
