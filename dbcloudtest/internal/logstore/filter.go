package logstore

import "strings"

// Filter is the filtered walk a logs request asks for; a position only says
// where to resume it, so every page of a walk must repeat the same filter.
// Times are Unix nanoseconds, as the store keeps them.
type Filter struct {
	Since, Until       int64    // Since <= timestamp < Until, each if Has
	HasSince, HasUntil bool     // Since, Until apply
	Node               int32    // the node that wrote the entry, if HasNode
	HasNode            bool     // Node applies
	Search             []string // lower case; a message must contain each

	sevs    uint8 // bit per severity
	hasSevs bool
}

// Severity adds the severity of this wire name to those the filter keeps;
// once one is added, only those match. An unknown name matches nothing.
func (f *Filter) Severity(name string) {
	f.hasSevs = true
	if n, ok := severity(name); ok {
		f.sevs |= 1 << n
	}
}

func (f *Filter) match(st *Store, r rec) bool {
	switch {
	case f.HasSince && r.at < f.Since,
		f.HasUntil && r.at >= f.Until,
		f.HasNode && r.node != f.Node,
		f.hasSevs && f.sevs&(1<<r.sev) == 0:
		return false
	}
	if len(f.Search) > 0 {
		msg := strings.ToLower(st.message(r))
		for _, term := range f.Search {
			if !strings.Contains(msg, term) {
				return false
			}
		}
	}
	return true
}
