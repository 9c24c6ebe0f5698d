package model

import (
	"fmt"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/wire"
)

// ForkSpec is what a fork asks for, read and checked; Strategy only goes
// to the logs.
type ForkSpec struct {
	Name, Env, Strategy string // Strategy: LAST_SNAPSHOT, NOW or PITR
	CPU, Mem            int    // millicores and gigabytes
}

// ForkService makes a new service from a READY parent and renders it as
// the fork answers.
func (m *Model) ForkService(parent *Service, now time.Time, spec ForkSpec) (wire.Service, error) {
	if err := needStatus(parent, now, statusReady, "forkService"); err != nil {
		return wire.Service{}, err
	}
	child, err := m.newService(now, parent.project, ServiceSpec{
		Name: spec.Name, Type: parent.typ, Region: parent.region, Env: spec.Env, CPU: spec.CPU, Mem: spec.Mem,
	})
	if err != nil {
		return wire.Service{}, err
	}
	child.forkedFrom = &wire.ForkedFrom{IsStandby: false, ProjectID: parent.project, ServiceID: parent.id}
	child.logs.Event(now, fmt.Sprintf("restored from service %s of project %s (fork strategy %s)", parent.id, parent.project, spec.Strategy))
	parent.logs.Event(now, fmt.Sprintf("service forked into %s (fork strategy %s)", child.id, spec.Strategy))
	return m.created(child, now), nil
}

// CheckTargetTime needs a PITR target inside the service's lifetime:
// nothing can be restored from before it existed or from the future.
//
// The lifetime is judged on two clocks, and a target inside it on either
// is taken. The server's clock (now, s.created) stands still between
// Advance calls, or ticks ahead, or runs from a fixed start, so a target a
// user's code computes from time.Now would fall outside it for no reason
// the real API would have; the machine's clock (s.createdOnMachine,
// time.Now) is the one such code reads. A test that derives its target
// from Server.Now keeps working as before.
func (s *Service) CheckTargetTime(t, now time.Time) error {
	onServer := checkLifetime(t, s.created, now)
	if onServer == nil || checkLifetime(t, s.createdOnMachine, time.Now()) == nil {
		return nil
	}
	return onServer
}

// checkLifetime says whether t lies between created and now, on one clock.
func checkLifetime(t, created, now time.Time) error {
	switch {
	case t.After(now):
		return apierr.BadRequest("target_time", "must not be in the future")
	case t.Before(created):
		return apierr.BadRequest("target_time", "must not be before the parent service was created")
	}
	return nil
}
