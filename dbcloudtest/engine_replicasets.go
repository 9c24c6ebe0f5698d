package dbcloudtest

import (
	"fmt"
	"net/http"
	"time"
	"unicode/utf8"
)

// Read replica set statuses, as on the wire.
const (
	rsCreating = "creating"
	rsActive   = "active"
	rsResizing = "resizing"
	rsDeleting = "deleting"
)

type replicaSet struct {
	id, name, env   string
	sched           schedule
	nodes, cpu, mem int
	pooler          pooler
	ep              *liveEndpoint // nil unless live
}

func (rs *replicaSet) closeEndpoints() {
	rs.ep.close()
	rs.pooler.ep.close()
}

// openSetEndpoint opens a live endpoint of rs, or of its pooler, which also
// refuses while the pooler is off.
func (a *engine) openSetEndpoint(rs *replicaSet, pooler bool) (*liveEndpoint, error) {
	return a.openEndpoint(func(now time.Time) pgAnswer {
		if pooler && !rs.pooler.on {
			return pgRefuse
		}
		return answerFor(rs.sched, now, rsActive, a.connect)
	})
}

type replicaSetJSON struct {
	ID               string       `json:"id"`
	CPUMillis        int          `json:"cpu_millis"`
	MemoryGBs        int          `json:"memory_gbs"`
	Name             string       `json:"name"`
	Nodes            int          `json:"nodes"`
	Status           string       `json:"status"`
	ConnectionPooler *poolerJSON  `json:"connection_pooler,omitempty"`
	Endpoint         endpointJSON `json:"endpoint"`
	Metadata         metadataJSON `json:"metadata"`
}

func (rs *replicaSet) view(s *service, status string) replicaSetJSON {
	host := rs.id + "." + s.host()
	v := replicaSetJSON{
		ID:        rs.id,
		CPUMillis: rs.cpu,
		MemoryGBs: rs.mem,
		Name:      rs.name,
		Nodes:     rs.nodes,
		Status:    status,
		Endpoint:  rs.ep.json(host, portDirect),
		Metadata:  metadataJSON{rs.env},
	}
	if rs.pooler.on {
		v.ConnectionPooler = &poolerJSON{rs.pooler.ep.json(host, portPooler)}
	}
	return v
}

// findSet checks the replica set id before looking it up: an id shorter than
// 3 characters can never exist, and the live service calls that a bad request.
func findSet(s *service, id string) (*replicaSet, error) {
	if utf8.RuneCountInString(id) < 3 {
		return nil, badRequest("replica_set_id", "must be at least 3 characters")
	}
	for _, rs := range s.sets {
		if rs.id == id {
			return rs, nil
		}
	}
	return nil, notFound("replica set", id)
}

// needSetAlive refuses a change to a set that is being deleted, or whose
// service is.
func needSetAlive(s *service, rs *replicaSet, now time.Time, op string) error {
	if err := needAlive(s, now, op); err != nil {
		return err
	}
	if got := rs.sched.current(now); got == rsDeleting {
		return conflict(fmt.Sprintf("%s is not possible: the replica set is %s", op, got), "status "+got)
	}
	return nil
}

func (a *engine) listReplicaSets(c *call) (reply, error) {
	s := c.svc
	out := make([]replicaSetJSON, 0, len(s.sets))
	for _, rs := range s.sets {
		out = append(out, rs.view(s, rs.sched.current(c.now)))
	}
	return reply{status: http.StatusOK, body: out}, nil
}

func (a *engine) createReplicaSet(c *call) (reply, error) {
	s := c.svc
	in, err := parseReplicaSetCreate(c)
	if err != nil {
		return reply{}, err
	}
	if err := needStatus(s, c.now, statusReady, "creating a replica set"); err != nil {
		return reply{}, err
	}
	rs := &replicaSet{
		id:    a.uniqueReplicaSetID(),
		name:  in.name,
		env:   s.env,
		sched: a.plan(c.now, rsCreating, rsActive),
		nodes: in.nodes,
		cpu:   in.cpu,
		mem:   in.mem,
	}
	if rs.ep, err = a.openSetEndpoint(rs, false); err != nil {
		return reply{}, err
	}
	s.sets = append(s.sets, rs)
	s.logs.event(c.now, sevLog, fmt.Sprintf("read replica set %s created with %d node(s)", rs.id, rs.nodes))
	return accepted(rs.view(s, rsCreating)), nil
}

func (a *engine) deleteReplicaSet(c *call) (reply, error) {
	s, rs := c.svc, c.rs
	if err := needSetAlive(s, rs, c.now, "delete"); err != nil {
		return reply{}, err
	}
	rs.sched = a.planDeletion(c.now, rsDeleting)
	s.logs.event(c.now, sevLog, "read replica set "+rs.id+" deletion requested")
	return reply{status: http.StatusAccepted}, nil
}

func (a *engine) resizeReplicaSet(c *call) (reply, error) {
	s, rs := c.svc, c.rs
	cpu, mem, err := parseResize(c)
	if err != nil {
		return reply{}, err
	}
	if err := needSetAlive(s, rs, c.now, "resize"); err != nil {
		return reply{}, err
	}
	if got := rs.sched.current(c.now); got != rsActive {
		return reply{}, conflict("resize needs the replica set to be active, it is "+got, "status "+got)
	}
	rs.cpu, rs.mem = cpu, mem
	rs.sched = a.plan(c.now, rsResizing, rsActive)
	s.logs.event(c.now, sevLog, fmt.Sprintf("read replica set %s resize requested: cpu_millis=%d memory_gbs=%d", rs.id, cpu, mem))
	return message(http.StatusAccepted, "replica set resize accepted"), nil
}

func (a *engine) enableReplicaSetPooler(c *call) (reply, error) { return a.switchSetPooler(c, true) }

func (a *engine) disableReplicaSetPooler(c *call) (reply, error) { return a.switchSetPooler(c, false) }

func (a *engine) switchSetPooler(c *call, on bool) (reply, error) {
	s, rs := c.svc, c.rs
	if err := needSetAlive(s, rs, c.now, "changing the pooler"); err != nil {
		return reply{}, err
	}
	open := func() (*liveEndpoint, error) { return a.openSetEndpoint(rs, true) }
	if err := rs.pooler.turn(on, "replica set connection pooler", open); err != nil {
		return reply{}, err
	}
	s.logs.event(c.now, sevLog, "read replica set "+rs.id+": connection pooler "+onOff(on))
	return message(http.StatusOK, "replica set connection pooler "+onOff(on)), nil
}

func (a *engine) setReplicaSetEnvironment(c *call) (reply, error) {
	s, rs := c.svc, c.rs
	env, err := parseEnvironment(c)
	if err != nil {
		return reply{}, err
	}
	if err := needSetAlive(s, rs, c.now, "setEnvironment"); err != nil {
		return reply{}, err
	}
	rs.env = env
	return message(http.StatusOK, "replica set environment set to "+env), nil
}
