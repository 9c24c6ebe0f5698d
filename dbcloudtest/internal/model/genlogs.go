package model

import (
	"math"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/logstore"
)

// The log lines services write by themselves, drawn from logRand.

// writeStartupLogs writes what s logs while it comes up, ending at now.
func (m *Model) writeStartupLogs(s *Service, now time.Time) {
	ext := logstore.NoExtension
	switch s.typ {
	case TypeTimeSeries:
		ext = logstore.Timescale
	case TypeVector:
		ext = logstore.Vector
	}
	s.logs.WriteStartup(now, m.logRand, ext, s.replicas)
}

// startLogInterval makes a new service write its WithLogInterval lines,
// the first one interval after it was created.
func (m *Model) startLogInterval(s *Service) {
	if m.cfg.LogEvery <= 0 {
		return
	}
	first := s.created.Add(m.cfg.LogEvery)
	s.logs.StartInterval(first)
	m.logsDue = min(m.logsDue, first.UnixNano())
}

// writeDueLogs writes the WithLogInterval lines due by now. It runs on every
// request, so it looks at the services only once a line is due somewhere.
func (m *Model) writeDueLogs(now time.Time) {
	if m.cfg.LogEvery <= 0 || now.UnixNano() < m.logsDue {
		return
	}
	m.logsDue = math.MaxInt64
	for _, s := range m.services {
		m.logsDue = min(m.logsDue, s.logs.WriteDue(now, m.cfg.LogEvery, m.logRand, s.replicas))
	}
}
