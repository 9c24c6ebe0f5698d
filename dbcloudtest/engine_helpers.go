package dbcloudtest

import (
	"errors"
	"fmt"
)

// setStatus forces a service into status (for example UNSTABLE, DELETED, or
// a status this API version does not know) and cancels its pending
// transitions, so that tests can reach states no request leads to.
// projectID "" finds the service in any project: service ids are unique.
func (a *engine) setStatus(projectID, serviceID, status string) error {
	if status == "" {
		return errors.New("dbcloudtest: SetStatus: empty status")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	s, now, err := a.helperService(projectID, serviceID)
	if err != nil {
		return err
	}
	s.sched = schedule{{status, now}}
	return nil
}

// setReplicaSetStatus forces a replica set into status (for example "error")
// and cancels its pending transitions.
// projectID "" finds the service in any project: service ids are unique.
func (a *engine) setReplicaSetStatus(projectID, serviceID, setID, status string) error {
	if status == "" {
		return errors.New("dbcloudtest: SetReplicaSetStatus: empty status")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	s, now, err := a.helperService(projectID, serviceID)
	if err != nil {
		return err
	}
	for _, rs := range s.sets {
		if rs.id == setID {
			rs.sched = schedule{{status, now}}
			return nil
		}
	}
	return fmt.Errorf("%w: replica set %q of service %q", errNotFound, setID, serviceID)
}
