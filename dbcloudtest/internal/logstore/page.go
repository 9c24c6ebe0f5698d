package logstore

import "sort"

// Kind is what a Position counts from.
type Kind byte

// The kinds of position. A position of a read with until names an entry:
// it keeps its place however many entries are added. One of a read without
// until is, like the live service's cursors, relative to the newest entry
// at each read: entries added between two pages push the window back, so
// the next page repeats entries the previous one held. InWindow positions
// count from the newest entry of the read's window, as the live service's
// window cursors do.
const (
	FromEntry  Kind = iota // names an entry by sequence number
	FromNewest             // offset from the newest entry, at each read
	InWindow               // offset from the newest entry of the read's window
)

// Position is where a walk resumes: what a cursor carries.
type Position struct {
	Kind Kind
	N    int64 // the sequence number, or the offset, Kind says
}

// Page is one page of a walk, newest first.
type Page struct {
	Entries []Entry  // newest first; never nil
	Next    Position // where the walk resumes, when More
	More    bool     // the walk has more entries
}

// Read reads one page of the walk f asks for: at most size entries, newest
// first, from the newest entry of f's window, or from where from says. The
// next page's position, if any, is of kind.
func (st *Store) Read(f *Filter, from *Position, kind Kind, size int) Page {
	top := len(st.recs) - 1 // the newest entry of the window
	if f.HasUntil {
		top = sort.Search(len(st.recs), func(j int) bool { return st.recs[j].at >= f.Until }) - 1
	}
	i := top
	if from != nil {
		switch from.Kind {
		case FromNewest:
			i = len(st.recs) - 1 - int(min(from.N, int64(len(st.recs))))
		case InWindow:
			i = top - int(min(from.N, int64(top+1)))
		default:
			i = min(int(from.N-st.base), i) // clamped: a store filled the same way issues the same positions
		}
	}
	p := Page{Entries: []Entry{}}
	lastIdx := -1
	for ; i >= 0; i-- {
		r := st.recs[i]
		if f.HasSince && r.at < f.Since {
			break // entries only get older from here
		}
		if !f.match(st, r) {
			continue
		}
		if len(p.Entries) == size {
			p.Next, p.More = st.position(kind, lastIdx-1, top), true
			break
		}
		p.Entries = append(p.Entries, st.entry(r))
		lastIdx = i
	}
	return p
}

// position is the position of kind of the entry at index i, in a read
// whose window's newest entry is at index top.
func (st *Store) position(kind Kind, i, top int) Position {
	switch kind {
	case InWindow:
		return Position{kind, int64(top - i)}
	case FromEntry:
		return Position{kind, st.base + int64(i)}
	}
	return Position{kind, int64(len(st.recs) - 1 - i)}
}
