package dbcloudtest

import (
	"math"
	"time"
)

// startLogInterval makes a new service write its WithLogInterval lines,
// the first one interval after it was created.
func (a *engine) startLogInterval(s *service) {
	if a.logEvery <= 0 {
		return
	}
	s.logs.next = s.created.Add(a.logEvery).UnixNano()
	a.logsDue = min(a.logsDue, s.logs.next)
}

// writeDueLogs writes the WithLogInterval lines due by now, each at the
// instant it was due, so a reader sees the same history whenever it reads.
// It runs on every request, so it looks at the services only once a line is
// due somewhere.
func (a *engine) writeDueLogs(now time.Time) {
	end := now.UnixNano()
	if a.logEvery <= 0 || end < a.logsDue {
		return
	}
	a.logsDue = math.MaxInt64
	for _, s := range a.services {
		a.writeServiceLogs(s, end)
		a.logsDue = min(a.logsDue, s.logs.next)
	}
}

// writeServiceLogs writes the lines of s due by end.
func (a *engine) writeServiceLogs(s *service, end int64) {
	st := &s.logs
	every := int64(a.logEvery)
	if st.next > end {
		return
	}
	// After a long jump of the clock, lines that retention would drop at
	// once are not written at all.
	if due := (end-st.next)/every + 1; st.keep > 0 && due > int64(st.keep) {
		st.next += (due - int64(st.keep)) * every
	}
	for ; st.next <= end; st.next += every {
		st.add(a.randomRec(s, st.next))
	}
}

// trim drops all but the newest st.keep entries once the history holds
// more than twice that (0 keeps everything). It runs as entries are added;
// dropping in batches keeps the cost constant per entry. Sequence numbers,
// and with them cursors, keep their meaning.
func (st *logStore) trim() {
	keep := st.keep
	if keep <= 0 || len(st.recs) <= 2*keep {
		return
	}
	drop := len(st.recs) - keep
	recs := make([]logRec, keep, 2*keep)
	copy(recs, st.recs[drop:])
	var texts []string
	for i := range recs {
		if recs[i].tmpl == tmplText {
			texts = append(texts, st.texts[recs[i].arg])
			recs[i].arg = uint32(len(texts) - 1)
		}
	}
	st.base += int64(drop)
	st.recs, st.texts = recs, texts
}
