package dbcloud

import (
	"context"
	"maps"
	"time"
)

// logWalk reads a service's history newest first, page by page, so that
// every page after the first lies in one window fixed for the whole walk.
//
// The live service positions a cursor issued for a read without until
// relative to the newest entry at each request: an entry written between
// two page requests would make the second page repeat the first page's
// oldest entry, which is why the live service's own client fixes until to the
// time of its first request; a walk fixes it on the server's clock instead,
// which no local clock skew can move: when the caller gave neither Until nor
// a Cursor, the second page is asked for with until just after the first
// page's oldest entry, and its cursors, issued for that window, keep their
// place. The entries of that instant the first page held are dropped from
// the second page, counted by severity and message, so that none comes
// twice and an entry written at that same instant in between is not lost.
// A walk costs one request a page, like following the first cursor would.
type logWalk struct {
	s                    *ServicesClient
	projectID, serviceID string
	q                    LogOptions // as sent next; Cursor and Until move

	fixUntil bool              // fix Until after the first page
	overlap  map[uint64]uint32 // the first page's entries at its oldest instant,
	oldest   time.Time         // which is this
	trim     bool              // the next page is the second: drop overlap from it
	followed cursorSet
	done     bool // the last page was read
}

// walkStep is the request that reads one page of a walk again.
type walkStep struct {
	cursor string
	until  time.Time
	trim   bool
}

func (s *ServicesClient) newLogWalk(projectID, serviceID string, q LogOptions) *logWalk {
	return &logWalk{
		s: s, projectID: projectID, serviceID: serviceID, q: q,
		fixUntil: q.Until.IsZero() && q.Cursor == "",
		followed: newCursorSet(),
	}
}

// step returns the request next sends.
func (w *logWalk) step() walkStep { return walkStep{w.q.Cursor, w.q.Until, w.trim} }

// next reads the next page, older than the last; after the last page, done
// is set.
func (w *logWalk) next(ctx context.Context) (*LogPage, error) {
	if err := w.followed.add(w.q.Cursor); err != nil {
		return nil, w.s.api.scrubError(err, nil) // the cursor is the server's text
	}
	page, err := w.fetch(ctx, w.step())
	if err != nil {
		return nil, err
	}
	w.trim = false
	switch n := len(page.Entries); {
	case page.NextCursor == "":
		w.done = true
	case w.fixUntil && n > 0 && !page.Entries[n-1].Timestamp.IsZero():
		w.fixUntil = false
		oldest := page.Entries[n-1].Timestamp
		w.overlap = map[uint64]uint32{}
		for i := n - 1; i >= 0 && page.Entries[i].Timestamp.Equal(oldest); i-- {
			w.overlap[entryHash(page.Entries[i])]++
		}
		w.oldest = oldest
		// The window's second page stands for this cursor's: a server that
		// hands it back later is cycling.
		_ = w.followed.add(page.NextCursor)
		w.q.Until, w.q.Cursor, w.trim = oldest.Add(time.Nanosecond), "", true
	default:
		w.fixUntil = false // untimed entries (the deprecated "logs"): the cursor as sent
		w.q.Cursor = page.NextCursor
	}
	return page, nil
}

// fetch reads the page of st, again or for the first time.
func (w *logWalk) fetch(ctx context.Context, st walkStep) (*LogPage, error) {
	q := w.q
	q.Cursor, q.Until = st.cursor, st.until
	page, err := w.s.ListLogs(ctx, w.projectID, w.serviceID, &q)
	if err != nil || !st.trim {
		return page, err
	}
	left := maps.Clone(w.overlap) // a page read again is trimmed again
	kept := page.Entries[:0]
	for _, e := range page.Entries {
		if k := entryHash(e); e.Timestamp.Equal(w.oldest) && left[k] > 0 {
			left[k]--
			continue
		}
		kept = append(kept, e)
	}
	page.Entries = kept
	return page, nil
}
