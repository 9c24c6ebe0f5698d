package model

import (
	"fmt"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
)

// needStatus refuses an operation unless the service is in the given status.
func needStatus(s *Service, now time.Time, want, op string) error {
	if got := s.sched.current(now); got != want {
		return apierr.Conflict(fmt.Sprintf("%s needs the service to be %s, it is %s", op, want, got), "status "+got)
	}
	return nil
}

// needAlive refuses operations on a service that is being deleted or already
// is; every other status accepts them.
func needAlive(s *Service, now time.Time, op string) error {
	if got := s.sched.current(now); got == statusDeleting || got == statusDeleted {
		return apierr.Conflict(fmt.Sprintf("%s is not possible: the service is %s", op, got), "status "+got)
	}
	return nil
}

// needSetAlive refuses a change to a set that is being deleted, or whose
// service is.
func needSetAlive(s *Service, rs *ReplicaSet, now time.Time, op string) error {
	if err := needAlive(s, now, op); err != nil {
		return err
	}
	if got := rs.sched.current(now); got == rsDeleting {
		return apierr.Conflict(fmt.Sprintf("%s is not possible: the replica set is %s", op, got), "status "+got)
	}
	return nil
}
