package dbcloudtest

import (
	"fmt"
	"strings"
	"time"
)

// appendLogs adds entries to the newest end of a service's history, in the
// order given, as a running database would write them, so that tests can
// add lines while a reader follows the logs. A zero Timestamp means now on
// the fake's clock; an empty Severity means LOG. Timestamps must not go
// backwards: each entry is at least as new as the newest stored one, which
// keeps since, until and every issued cursor consistent while lines arrive.
// Entries may share a timestamp, and identical entries are kept as many
// times as they are given.
func (a *engine) appendLogs(serviceID string, entries ...NodeLogEntry) error {
	return a.withService(serviceID, func(s *service, now time.Time) error {
		return appendEntries(&s.logs, now, entries)
	})
}

// appendEntries adds entries to st, all or none; a zero timestamp is now.
func appendEntries(st *logStore, now time.Time, entries []NodeLogEntry) error {
	recs := make([]logRec, len(entries))
	texts := make([]string, len(entries))
	newest := st.last()
	for i, e := range entries {
		sev, ok := severity(e.Severity)
		if !ok {
			return fmt.Errorf("dbcloudtest: appending logs: entry %d: severity %q is not one of %s", i, e.Severity, strings.Join(sevNames[:], ", "))
		}
		if e.Node < 0 {
			return fmt.Errorf("dbcloudtest: appending logs: entry %d: negative node %d", i, e.Node)
		}
		at := e.Timestamp
		if at.IsZero() {
			at = now
		}
		ns := at.UnixNano()
		if ns < newest {
			return fmt.Errorf("dbcloudtest: appending logs: entry %d: timestamp %s is older than the newest entry, %s",
				i, at.UTC().Format(time.RFC3339Nano), time.Unix(0, newest).UTC().Format(time.RFC3339Nano))
		}
		newest = ns
		texts[i] = e.Message
		recs[i] = logRec{at: ns, arg: uint32(len(st.texts) + i), node: int32(e.Node), tmpl: tmplText, sev: sev}
	}
	// All or nothing: a bad entry leaves the history as it was.
	st.texts = append(st.texts, texts...)
	st.recs = append(st.recs, recs...)
	st.trim()
	return nil
}

// severity maps a wire severity name, in any case, to its stored number; ""
// is LOG.
func severity(name string) (uint8, bool) {
	if name == "" {
		return sevLog, true
	}
	for i, n := range sevNames {
		if strings.EqualFold(name, n) {
			return uint8(i), true
		}
	}
	return 0, false
}
