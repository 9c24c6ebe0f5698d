package model

import (
	"slices"
	"time"
)

// sweep brings the model up to now: it removes the resources whose deletion
// has completed and writes the interval log lines that are due.
func (m *Model) sweep(now time.Time) {
	m.removeGone(now)
	m.writeDueLogs(now)
}

// planDeletion plans first, then gone, and notes when that will be.
func (m *Model) planDeletion(now time.Time, first string) schedule {
	s := m.plan(now, first, statusGone)
	m.noteGone(s[1].at)
	return s
}

func (m *Model) noteGone(at time.Time) {
	if !m.gone || at.Before(m.goneAt) {
		m.goneAt, m.gone = at, true
	}
}

// removeGone removes the resources whose deletion has completed, and closes
// their endpoints. It runs on every request, so it looks at every resource
// only when a deletion may have completed: the fake stays fast with
// thousands of services.
func (m *Model) removeGone(now time.Time) {
	if !m.gone || now.Before(m.goneAt) {
		return
	}
	m.gone = false
	done := func(sched schedule) bool {
		last := sched[len(sched)-1]
		switch {
		case last.status != statusGone: // none planned, or SetStatus cancelled it
			return false
		case now.Before(last.at):
			m.noteGone(last.at)
			return false
		}
		return true
	}
	m.services = slices.DeleteFunc(m.services, func(s *Service) bool {
		if !done(s.sched) {
			return false
		}
		delete(m.byID, s.id)
		s.closeEndpoints()
		return true
	})
	for _, s := range m.services {
		s.sets = slices.DeleteFunc(s.sets, func(rs *ReplicaSet) bool {
			if !done(rs.sched) {
				return false
			}
			rs.closeEndpoints()
			return true
		})
	}
}
