package logstore

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Append places entries in the history by their timestamps, all or none:
// at the newest end, as a running database writes them, or at any earlier
// time, for a test that gives a service a history of its own (lines from
// before the service's first ones included). A zero Timestamp means now; an
// empty Severity means LOG. Entries that share a timestamp keep the order
// given, after the entries already there; identical entries are kept as
// many times as they are given.
//
// Entries older than the whole history go before it, as Seed's do, so
// every position handed out keeps its meaning. An entry placed between two
// existing ones moves the entries newer than it by one place: a walk under
// way may then see one entry again, as a client reading a history that is
// being rewritten would; a read that starts after it sees it in place.
func (st *Store) Append(now time.Time, entries []Entry) error {
	recs := make([]rec, len(entries))
	texts := make([]string, len(entries))
	for i, e := range entries {
		sev, ok := severity(string(e.Severity))
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
		texts[i] = e.Message
		recs[i] = rec{at: at.UnixNano(), arg: uint32(len(st.texts) + i), node: int32(e.Node), tmpl: tmplText, sev: sev}
	}
	// All or nothing: a bad entry leaves the history as it was.
	st.texts = append(st.texts, texts...)
	slices.SortStableFunc(recs, func(x, y rec) int { return cmp.Compare(x.at, y.at) })
	if len(st.recs) == 0 || recs[0].at >= st.last() {
		st.recs = append(st.recs, recs...) // the usual case: lines arriving
	} else {
		st.base -= int64(countOlder(recs, st.recs[0].at))
		st.recs = mergeRecs(st.recs, recs)
	}
	st.trim()
	return nil
}

// countOlder counts the recs, sorted by time, older than at.
func countOlder(recs []rec, at int64) int {
	n, _ := slices.BinarySearchFunc(recs, at, func(r rec, at int64) int { return cmp.Compare(r.at, at) })
	return n
}

// mergeRecs merges added into have, both sorted by time, an added entry
// going after the entries of have with its timestamp.
func mergeRecs(have, added []rec) []rec {
	out := make([]rec, 0, len(have)+len(added))
	i := 0
	for _, r := range added {
		for i < len(have) && have[i].at <= r.at {
			out = append(out, have[i])
			i++
		}
		out = append(out, r)
	}
	return append(out, have[i:]...)
}
