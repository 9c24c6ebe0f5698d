package model

import (
	"fmt"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/live"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/wire"
)

// The operations on read replica sets. Each runs inside Update, on a
// service and set Update's caller found, with a body already checked.

// SetSpec is what a replica set's create asks for, read and checked.
type SetSpec struct {
	Name            string
	Nodes, CPU, Mem int // nodes, and the millicores and gigabytes of each
}

// CreateReplicaSet adds a set to a READY service and renders it as the
// create answers, creating.
func (m *Model) CreateReplicaSet(s *Service, now time.Time, spec SetSpec) (wire.ReplicaSet, error) {
	if err := needStatus(s, now, statusReady, "creating a replica set"); err != nil {
		return wire.ReplicaSet{}, err
	}
	rs := &ReplicaSet{
		id:    m.uniqueReplicaSetID(),
		name:  spec.Name,
		env:   s.env,
		sched: m.plan(now, rsCreating, rsActive),
		nodes: spec.Nodes,
		cpu:   spec.CPU,
		mem:   spec.Mem,
	}
	var err error
	if rs.ep, err = m.openSetEndpoint(rs, false); err != nil {
		return wire.ReplicaSet{}, err
	}
	s.sets = append(s.sets, rs)
	s.logs.Event(now, fmt.Sprintf("read replica set %s created with %d node(s)", rs.id, rs.nodes))
	return rs.view(s.host(), rsCreating), nil
}

// DeleteReplicaSet plans the deletion of a set.
func (m *Model) DeleteReplicaSet(s *Service, rs *ReplicaSet, now time.Time) error {
	if err := needSetAlive(s, rs, now, "delete"); err != nil {
		return err
	}
	rs.sched = m.planDeletion(now, rsDeleting)
	s.logs.Event(now, "read replica set "+rs.id+" deletion requested")
	return nil
}

// ResizeReplicaSet gives an active set new sizes.
func (m *Model) ResizeReplicaSet(s *Service, rs *ReplicaSet, now time.Time, cpu, mem int) error {
	if err := needSetAlive(s, rs, now, "resize"); err != nil {
		return err
	}
	if got := rs.sched.current(now); got != rsActive {
		return apierr.Conflict("resize needs the replica set to be active, it is "+got, "status "+got)
	}
	rs.cpu, rs.mem = cpu, mem
	rs.sched = m.plan(now, rsResizing, rsActive)
	s.logs.Event(now, fmt.Sprintf("read replica set %s resize requested: cpu_millis=%d memory_gbs=%d", rs.id, cpu, mem))
	return nil
}

// SwitchSetPooler turns a set's connection pooler on or off; its endpoint
// opens when it is first turned on.
func (m *Model) SwitchSetPooler(s *Service, rs *ReplicaSet, now time.Time, on bool) error {
	if err := needSetAlive(s, rs, now, "changing the pooler"); err != nil {
		return err
	}
	open := func() (*live.Endpoint, error) { return m.openSetEndpoint(rs, true) }
	if err := rs.pooler.turn(on, "replica set connection pooler", open); err != nil {
		return err
	}
	s.logs.Event(now, "read replica set "+rs.id+": connection pooler "+OnOff(on))
	return nil
}

// SetReplicaSetEnvironment tags a set DEV or PROD.
func (s *Service) SetReplicaSetEnvironment(rs *ReplicaSet, now time.Time, env string) error {
	if err := needSetAlive(s, rs, now, "setEnvironment"); err != nil {
		return err
	}
	rs.env = env
	return nil
}
