package fakeapi

import "time"

// writeDueLogs writes the Options.LogInterval lines due by now, each at the
// instant it was due, so a reader sees the same history whenever it reads.
func (a *API) writeDueLogs(s *service, now time.Time) {
	if a.logInterval <= 0 {
		return
	}
	st := &s.logs
	every, end := int64(a.logInterval), now.UnixNano()
	if st.next == 0 {
		st.next = s.created.UnixNano() + every
	}
	if st.next > end {
		return
	}
	// After a long jump of the clock, lines that retention would drop at
	// once are not written at all.
	if due := (end-st.next)/every + 1; a.logRetention > 0 && due > int64(a.logRetention) {
		st.next += (due - int64(a.logRetention)) * every
	}
	for ; st.next <= end; st.next += every {
		st.add(a.randomRec(s, st.next))
	}
}

// trim drops all but the newest keep entries once the history holds more
// than twice keep (0 keeps everything). Dropping in batches keeps the cost
// constant per entry; sequence numbers, and with them cursors, keep their
// meaning.
func (st *logStore) trim(keep int) {
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
