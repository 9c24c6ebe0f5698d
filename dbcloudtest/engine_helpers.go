package dbcloudtest

import (
	"errors"
	"fmt"
	"time"
)

// errNotFound is returned by the test helpers for an unknown service or
// replica set.
var errNotFound = errors.New("dbcloudtest: not found")

// helper runs fn under the model's lock, for a test helper: it reads the
// clock without ticking it (only requests and connections move a ticking
// clock) and removes what is gone first.
func (a *engine) helper(fn func(now time.Time) error) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.clock.peek()
	a.sweep(now)
	return fn(now)
}

// withService runs fn as helper does on a live service, found by id in any
// project (ids are unique).
func (a *engine) withService(serviceID string, fn func(s *service, now time.Time) error) error {
	return a.helper(func(now time.Time) error {
		s := a.byID[serviceID]
		if s == nil {
			return fmt.Errorf("%w: service %q", errNotFound, serviceID)
		}
		return fn(s, now)
	})
}

// setStatus forces a service into status (for example UNSTABLE, DELETED, or
// a status this API version does not know) and cancels its pending
// transitions, so that tests can reach states no request leads to.
func (a *engine) setStatus(serviceID, status string) error {
	if status == "" {
		return errors.New("dbcloudtest: SetStatus: empty status")
	}
	return a.withService(serviceID, func(s *service, now time.Time) error {
		s.sched = schedule{{status, now}}
		return nil
	})
}

// setReplicaSetStatus forces a replica set into status (for example "error")
// and cancels its pending transitions.
func (a *engine) setReplicaSetStatus(serviceID, setID, status string) error {
	if status == "" {
		return errors.New("dbcloudtest: SetReplicaSetStatus: empty status")
	}
	return a.withService(serviceID, func(s *service, now time.Time) error {
		for _, rs := range s.sets {
			if rs.id == setID {
				rs.sched = schedule{{status, now}}
				return nil
			}
		}
		return fmt.Errorf("%w: replica set %q of service %q", errNotFound, setID, serviceID)
	})
}
