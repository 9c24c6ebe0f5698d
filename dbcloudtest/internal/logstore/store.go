// Package logstore keeps the PostgreSQL log history of one fake service:
// entries stored as template numbers and arguments, so that 100,000 of them
// cost a few megabytes; the lines a service writes by itself (at startup,
// at intervals, seeded in bulk); entries a test appends at any time;
// retention; and the filtered, paged walks that the logs endpoint serves.
// It knows nothing of HTTP or of cursors' encoding: positions are plain
// numbers here.
package logstore

import (
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// Entry is a log entry as read: what the API shows of it, and the node
// that wrote it (0 the primary, 1 to n the HA replicas).
type Entry struct {
	dbcloud.LogEntry
	Node int // 0: the primary; 1 to n: an HA replica
}

// rec is one stored entry. Messages are rendered from a template and an
// argument when read, so that a history of 100,000 entries stays small.
type rec struct {
	at   int64  // Unix nanoseconds; never decreases along a store
	arg  uint32 // template argument; for tmplText, the index in Store.texts
	node int32
	tmpl uint16
	sev  uint8
}

// Store is a service's history, oldest first. Each entry has a sequence
// number, base+index, that stays the same when older entries are prepended
// or the oldest dropped, so cursors keep their meaning.
type Store struct {
	base  int64
	recs  []rec
	texts []string
	next  int64 // when the next interval line is due, Unix nanoseconds
	keep  int   // retention: trim applies it as entries are added
}

// New returns an empty history that keeps the newest keep entries (see
// trim); 0 keeps every entry.
func New(keep int) *Store { return &Store{keep: keep} }

func (st *Store) last() int64 {
	if len(st.recs) == 0 {
		return 0
	}
	return st.recs[len(st.recs)-1].at
}

func (st *Store) add(r rec) {
	r.at = max(r.at, st.last())
	st.recs = append(st.recs, r)
	st.trim()
}

// Event records a lifecycle line (LOG, on the primary) at now.
func (st *Store) Event(now time.Time, msg string) {
	st.texts = append(st.texts, msg)
	st.add(rec{at: now.UnixNano(), arg: uint32(len(st.texts) - 1), tmpl: tmplText, sev: sevLog})
}

func (st *Store) message(r rec) string {
	if r.tmpl == tmplText {
		return st.texts[r.arg]
	}
	return templates[r.tmpl].render(r.arg)
}

func (st *Store) entry(r rec) Entry {
	return Entry{LogEntry: dbcloud.LogEntry{Timestamp: time.Unix(0, r.at).UTC(), Severity: dbcloud.Severity(sevNames[r.sev]), Message: st.message(r)}, Node: int(r.node)}
}

// Entries returns the whole history, newest first: what the logs endpoint
// returns without filters, all pages concatenated.
func (st *Store) Entries() []Entry {
	out := make([]Entry, 0, len(st.recs))
	for i := len(st.recs) - 1; i >= 0; i-- {
		out = append(out, st.entry(st.recs[i]))
	}
	return out
}

// trim drops all but the newest st.keep entries once the history holds
// more than twice that (0 keeps everything), as the live service's
// retention does. It runs as entries are added; dropping in batches keeps
// the cost constant per entry. Sequence numbers, and with them positions,
// keep their meaning.
func (st *Store) trim() {
	keep := st.keep
	if keep <= 0 || len(st.recs) <= 2*keep {
		return
	}
	drop := len(st.recs) - keep
	recs := make([]rec, keep, 2*keep)
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
