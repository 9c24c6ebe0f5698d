package model

import (
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/live"
)

// openEndpoint starts a live endpoint whose connections are answered as
// state says at the time, read under m.mu: a live endpoint reads the clock
// once per connection, so with a ticking clock probes move time as polls
// do. It returns nil when endpoints are not live. The caller holds m.mu.
func (m *Model) openEndpoint(state func(now time.Time) live.Answer) (*live.Endpoint, error) {
	if m.live == nil {
		return nil, nil
	}
	ep, err := m.live.Open(func() live.Answer {
		m.mu.Lock()
		defer m.mu.Unlock()
		return state(m.clock.Now())
	})
	if err != nil {
		return nil, apierr.Unavailable("cannot open a database endpoint", err.Error())
	}
	return ep, nil
}

// openServiceEndpoint opens a live endpoint of s, or of its pooler, which
// also refuses while the pooler is off.
func (m *Model) openServiceEndpoint(s *Service, pooler bool) (*live.Endpoint, error) {
	return m.openEndpoint(func(now time.Time) live.Answer {
		if pooler && !s.pooler.on {
			return live.Refuse
		}
		return answerFor(s.sched, now, statusReady, m.cfg.Connect)
	})
}

// openSetEndpoint opens a live endpoint of rs, or of its pooler, which also
// refuses while the pooler is off.
func (m *Model) openSetEndpoint(rs *ReplicaSet, pooler bool) (*live.Endpoint, error) {
	return m.openEndpoint(func(now time.Time) live.Answer {
		if pooler && !rs.pooler.on {
			return live.Refuse
		}
		return answerFor(rs.sched, now, rsActive, m.cfg.Connect)
	})
}
