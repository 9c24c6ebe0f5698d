package logwalk

import (
	"context"
	"fmt"
	"maps"
	"time"
)

// Source is what a walk reads: the server's pages, and what tells its
// entries apart.
type Source[E any] interface {
	// Fetch sends one request: the page that cursor names ("" = the
	// newest) among the entries before until (zero: no bound). It returns
	// the page's entries, newest first, and the cursor of the next, older
	// page ("" = none).
	Fetch(ctx context.Context, cursor string, until time.Time) (entries []E, next string, err error)
	// Time is an entry's timestamp; a zero one (an entry the server sent
	// without) leaves the window as the server's cursors make it.
	Time(e E) time.Time
	// Key tells apart entries of one instant.
	Key(e E) uint64
}

// Config is what a walk is given.
type Config[E any] struct {
	Source Source[E]
	// Cursor and Until start the walk: a caller's cursor and bound. With
	// neither, the walk fixes its window after the first page.
	Cursor string
	Until  time.Time
	// Repeated is what the error of a cycling walk matches.
	Repeated error
}

// Request is one request of a walk, kept to send it again (Walk.Fetch).
type Request struct {
	Cursor string
	Until  time.Time
	trim   bool // the window's first page after the walk's first: drop the overlap
}

// Walk reads a history newest first, page by page, every page after the
// first in one window.
//
// When the caller gave neither a cursor nor a bound, the second page is
// asked for with until just after the first page's oldest entry, and its
// cursors, issued for that window, keep their place however many entries
// are written meanwhile. The entries of that instant the first page held
// are dropped from the second page, counted by Key, so that none comes
// twice and an entry written at that same instant in between is not lost.
// A walk costs one request a page. Reading the newest n entries when the
// server fills its pages with p entries costs one request for n ≤ p, and
// ceil((n+k)/p) above, where k is the number of the first page's entries
// at its oldest instant (the second page reads them again; 1 when no two
// share a timestamp): at most ceil(n/p)+1.
//
// A Walk holds the request it sends next, the first page's entries at its
// oldest instant (at most a page's worth of keys) and a Cycles; nothing
// grows with the pages read.
type Walk[E any] struct {
	cfg      Config[E]
	req      Request // sent next
	fixUntil bool    // fix the window after the first page
	overlap  map[uint64]uint32
	oldest   time.Time
	cycles   Cycles
	pages    int
	done     bool
}

// New starts a walk.
func New[E any](cfg Config[E]) *Walk[E] {
	return &Walk[E]{
		cfg:      cfg,
		req:      Request{Cursor: cfg.Cursor, Until: cfg.Until},
		fixUntil: cfg.Until.IsZero() && cfg.Cursor == "",
	}
}

// Done reports that the last page was read.
func (w *Walk[E]) Done() bool { return w.done }

// Step returns the request Next sends next.
func (w *Walk[E]) Step() Request { return w.req }

// Next reads the next page, older than the last, and returns its entries,
// newest first. After the last page, Done reports true. A request that
// repeats one of the walk's earlier requests is not sent: Next returns an
// error matching Config.Repeated, which holds no text of the server's.
func (w *Walk[E]) Next(ctx context.Context) ([]E, error) {
	if w.cycles.Seen(w.req.Cursor, w.req.Until) {
		return nil, fmt.Errorf("%w: page %d would repeat an earlier request of the read (same cursor, same window)", w.cfg.Repeated, w.pages+1)
	}
	entries, next, err := w.fetch(ctx, w.req)
	if err != nil {
		return nil, err
	}
	w.pages++
	w.req.trim = false
	switch n := len(entries); {
	case next == "":
		w.done = true
	case w.fixUntil && n > 0 && !w.cfg.Source.Time(entries[n-1]).IsZero():
		w.fixUntil = false
		oldest := w.cfg.Source.Time(entries[n-1])
		w.overlap = map[uint64]uint32{}
		for i := n - 1; i >= 0 && w.cfg.Source.Time(entries[i]).Equal(oldest); i-- {
			w.overlap[w.cfg.Source.Key(entries[i])]++
		}
		w.oldest = oldest
		w.req = Request{Until: oldest.Add(time.Nanosecond), trim: true}
	default:
		w.fixUntil = false // untimed entries: the cursor as sent
		w.req.Cursor = next
	}
	return entries, nil
}

// Fetch reads the page of r again: a request Step returned earlier.
func (w *Walk[E]) Fetch(ctx context.Context, r Request) ([]E, error) {
	entries, _, err := w.fetch(ctx, r)
	return entries, err
}

func (w *Walk[E]) fetch(ctx context.Context, r Request) ([]E, string, error) {
	entries, next, err := w.cfg.Source.Fetch(ctx, r.Cursor, r.Until)
	if err != nil || !r.trim {
		return entries, next, err
	}
	left := maps.Clone(w.overlap) // a page read again is trimmed again
	kept := entries[:0]
	for _, e := range entries {
		if k := w.cfg.Source.Key(e); w.cfg.Source.Time(e).Equal(w.oldest) && left[k] > 0 {
			left[k]--
			continue
		}
		kept = append(kept, e)
	}
	return kept, next, nil
}
