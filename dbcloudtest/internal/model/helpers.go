package model

import (
	"errors"
	"fmt"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/logstore"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/wire"
)

// What Server's test helpers do: they find services by id alone, in any
// project, and take the model's lock themselves (through Inspect).

// SetStatus forces a service into status (for example UNSTABLE, DELETED, or
// a status this API version does not know) and cancels its pending
// transitions, so that tests can reach states no request leads to.
func (m *Model) SetStatus(serviceID, status string) error {
	if status == "" {
		return errors.New("dbcloudtest: SetStatus: empty status")
	}
	return m.withService(serviceID, func(s *Service, now time.Time) error {
		s.sched = schedule{{status, now}}
		return nil
	})
}

// SetReplicaSetStatus forces a replica set into status (for example
// "error") and cancels its pending transitions.
func (m *Model) SetReplicaSetStatus(serviceID, setID, status string) error {
	if status == "" {
		return errors.New("dbcloudtest: SetReplicaSetStatus: empty status")
	}
	return m.withService(serviceID, func(s *Service, now time.Time) error {
		for _, rs := range s.sets {
			if rs.id == setID {
				rs.sched = schedule{{status, now}}
				return nil
			}
		}
		return fmt.Errorf("%w: replica set %q of service %q", ErrNotFound, setID, serviceID)
	})
}

// ServiceView renders the service with this id, in any project, as a GET
// of it would answer now. ok is false when there is no such service.
func (m *Model) ServiceView(serviceID string) (v wire.Service, ok bool) {
	err := m.withService(serviceID, func(s *Service, now time.Time) error {
		v = s.View(now)
		return nil
	})
	return v, err == nil
}

// ServicesView renders every service of every project, newest first, each
// as a GET of it would answer now.
func (m *Model) ServicesView() (out []wire.Service) {
	_ = m.Inspect(func(now time.Time) error {
		out = make([]wire.Service, 0, len(m.services))
		for i := len(m.services) - 1; i >= 0; i-- {
			out = append(out, m.services[i].View(now))
		}
		return nil
	})
	return out
}

// SeedLogs adds n realistic entries to a service's history, all older than
// the entries it already has, so tests can exercise pagination and filters.
func (m *Model) SeedLogs(serviceID string, n int) error {
	if n < 0 {
		return fmt.Errorf("dbcloudtest: SeedLogs: negative count %d", n)
	}
	return m.withService(serviceID, func(s *Service, now time.Time) error {
		s.logs.Seed(n, now, m.logRand, s.replicas)
		return nil
	})
}

// AppendLogs places entries in a service's history by their timestamps, as
// logstore.Store.Append does; a zero timestamp is now on the clock.
func (m *Model) AppendLogs(serviceID string, entries ...logstore.Entry) error {
	return m.withService(serviceID, func(s *Service, now time.Time) error {
		return s.logs.Append(now, entries)
	})
}

// Logs returns a service's whole history, newest first: what the logs
// endpoint returns without filters, all pages concatenated.
func (m *Model) Logs(serviceID string) (out []logstore.Entry, err error) {
	err = m.withService(serviceID, func(s *Service, _ time.Time) error {
		out = s.logs.Entries()
		return nil
	})
	return out, err
}
