package dbcloudtest

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// Service statuses, as on the wire. statusGone is internal: the last step of a
// deletion, after which the resource is removed and reads give 404.
const (
	statusQueued      = "QUEUED"
	statusConfiguring = "CONFIGURING"
	statusReady       = "READY"
	statusPausing     = "PAUSING"
	statusPaused      = "PAUSED"
	statusResuming    = "RESUMING"
	statusDeleting    = "DELETING"
	statusDeleted     = "DELETED"
	statusGone        = ""
)

const (
	typeTimeSeries = "TIMESERIESDB"
	typePostgres   = "POSTGRES"
	typeVector     = "VECTOR"

	defaultRegion    = "us-east-1"
	defaultCPUMillis = 500
	defaultMemoryGBs = 2
	sharedCPUMillis  = 250
	sharedMemoryGBs  = 1
	volumeType       = "gp3"
	portDirect       = 5432
	portPooler       = 6432
	envDev           = "DEV"
	envProd          = "PROD"
)

type service struct {
	id, project, name  string
	region, typ, env   string
	resourceID         string
	created            time.Time
	createdOnMachine   time.Time // time.Now at creation: see checkTargetTime
	sched              schedule
	cpu, mem           int
	replicas, syncReps int
	pooler             pooler
	vpcID              string
	forkedFrom         *forkedFromJSON
	sets               []*replicaSet
	logs               logStore
	load               int           // fixes the metrics this service reports
	ep                 *liveEndpoint // nil unless live
}

func (s *service) host() string { return s.id + "." + s.project + ".fake.dbcloud.test" }

// view renders the service as the wire shows it with the given status: an
// operation's own response shows the first status of its plan even when step
// is 0 and the plan has already run to its end.
func (s *service) view(now time.Time, status string) serviceJSON {
	v := serviceJSON{
		Created:     s.created.UTC().Format(time.RFC3339Nano),
		Name:        s.name,
		ProjectID:   s.project,
		RegionCode:  s.region,
		Resources:   []resourceJSON{{ID: s.resourceID, Spec: specJSON{s.cpu, s.mem, volumeType}}},
		ServiceID:   s.id,
		ServiceType: s.typ,
		Status:      status,
		Endpoint:    s.ep.json(s.host(), portDirect),
		ForkedFrom:  s.forkedFrom,
		HAReplicas:  haJSON{s.replicas, s.syncReps},
		Metadata:    metadataJSON{s.env},
	}
	if s.pooler.on {
		v.ConnectionPooler = &poolerJSON{s.pooler.ep.json(s.host(), portPooler)}
	}
	if s.vpcID != "" {
		v.VPCEndpoint = &vpcEndpointJSON{s.id + "." + s.project + ".vpc.fake.dbcloud.test", portDirect, s.vpcID}
		v.VPCEndpointOld = v.VPCEndpoint
	}
	if status == statusReady {
		v.Metrics = &metricsJSON{
			MemoryMB:  s.mem * 1024 * (20 + s.load%50) / 100,
			MilliCPU:  s.cpu * (5 + s.load%40) / 100,
			StorageMB: 256 + s.load%4096,
		}
	}
	v.ReadReplicaSets = make([]replicaSetJSON, 0, len(s.sets))
	for _, rs := range s.sets {
		v.ReadReplicaSets = append(v.ReadReplicaSets, rs.view(s, rs.sched.current(now)))
	}
	return v
}

// planDeletion plans first, then gone, and notes when that will be.
func (a *engine) planDeletion(now time.Time, first string) schedule {
	s := a.plan(now, first, statusGone)
	a.noteGone(s[1].at)
	return s
}

func (a *engine) noteGone(at time.Time) {
	if !a.gone || at.Before(a.goneAt) {
		a.goneAt, a.gone = at, true
	}
}

// sweep brings the model up to now: it removes the resources whose deletion
// has completed and writes the generated log lines that are due.
func (a *engine) sweep(now time.Time) {
	a.removeGone(now)
	a.writeDueLogs(now)
}

// removeGone removes the resources whose deletion has completed, and closes
// their endpoints. It runs on every request, so it looks at every resource
// only when a deletion may have completed: the fake stays fast with
// thousands of services.
func (a *engine) removeGone(now time.Time) {
	if !a.gone || now.Before(a.goneAt) {
		return
	}
	a.gone = false
	done := func(sched schedule) bool {
		last := sched[len(sched)-1]
		switch {
		case last.status != statusGone: // none planned, or setStatus cancelled it
			return false
		case now.Before(last.at):
			a.noteGone(last.at)
			return false
		}
		return true
	}
	a.services = slices.DeleteFunc(a.services, func(s *service) bool {
		if !done(s.sched) {
			return false
		}
		delete(a.byID, s.id)
		s.ep.close()
		s.pooler.ep.close()
		for _, rs := range s.sets {
			rs.closeEndpoints()
		}
		return true
	})
	for _, s := range a.services {
		s.sets = slices.DeleteFunc(s.sets, func(rs *replicaSet) bool {
			if !done(rs.sched) {
				return false
			}
			rs.closeEndpoints()
			return true
		})
	}
}

// openServiceEndpoint opens a live endpoint of s, or of its pooler, which
// also refuses while the pooler is off.
func (a *engine) openServiceEndpoint(s *service, pooler bool) (*liveEndpoint, error) {
	return a.openEndpoint(func(now time.Time) pgAnswer {
		if pooler && !s.pooler.on {
			return pgRefuse
		}
		return answerFor(s.sched, now, statusReady, a.connect)
	})
}

func (a *engine) findService(project, id string) (*service, error) {
	if s := a.byID[id]; s != nil && s.project == project {
		return s, nil
	}
	return nil, notFound("service", id)
}

// needStatus refuses an operation unless the service is in the given status.
func needStatus(s *service, now time.Time, want, op string) error {
	if got := s.sched.current(now); got != want {
		return conflict(fmt.Sprintf("%s needs the service to be %s, it is %s", op, want, got), "status "+got)
	}
	return nil
}

// needAlive refuses operations on a service that is being deleted or already
// is; every other status accepts them.
func needAlive(s *service, now time.Time, op string) error {
	if got := s.sched.current(now); got == statusDeleting || got == statusDeleted {
		return conflict(fmt.Sprintf("%s is not possible: the service is %s", op, got), "status "+got)
	}
	return nil
}

// changeOf reads the change a call asks of its service with parse and
// refuses it on a service being deleted, in the order the package
// documentation gives: body (400), then status (409).
func changeOf[T any](c *call, op string, parse func(*call) (T, error)) (T, error) {
	in, err := parse(c)
	if err != nil {
		return in, err
	}
	return in, needAlive(c.svc, c.now, op)
}

func accepted(body any) reply { return reply{status: http.StatusAccepted, body: body} }

func message(status int, text string) reply {
	return reply{status: status, body: messageBody{text}}
}

// newService registers a service planned QUEUED -> CONFIGURING -> READY.
func (a *engine) newService(now time.Time, project, name, typ, region, env string, cpu, mem, replicas int) (*service, error) {
	s := &service{
		id:         a.uniqueServiceID(),
		project:    project,
		name:       name,
		region:     region,
		typ:        typ,
		env:        env,
		resourceID: a.randString(8, lowerAlnum),
		created:    now,
		sched:      a.plan(now, statusQueued, statusConfiguring, statusReady),
		// Kept with its monotonic reading: it is only compared with
		// time.Now and with times clients send.
		createdOnMachine: time.Now(),
		cpu:              cpu,
		mem:              mem,
		replicas:         replicas,
		load:             a.idRand.IntN(1 << 20),
	}
	s.logs.keep = a.logKeep
	var err error
	if s.ep, err = a.openServiceEndpoint(s, false); err != nil {
		return nil, err
	}
	a.startupLogs(s, now)
	a.startLogInterval(s)
	a.services = append(a.services, s)
	a.byID[s.id] = s
	return s, nil
}

func (a *engine) listServices(c *call) (reply, error) {
	out := []serviceJSON{}
	for _, s := range a.services {
		if s.project == c.project {
			out = append(out, s.view(c.now, s.sched.current(c.now)))
		}
	}
	return reply{status: http.StatusOK, body: out}, nil
}

func (a *engine) getService(c *call) (reply, error) {
	s := c.svc
	return reply{status: http.StatusOK, body: s.view(c.now, s.sched.current(c.now))}, nil
}

func (a *engine) createService(c *call) (reply, error) {
	in, err := parseCreate(c)
	if err != nil {
		return reply{}, err
	}
	s, err := a.newService(c.now, c.project, in.name, in.typ, in.region, in.env, in.cpu, in.mem, in.replicas)
	if err != nil {
		return reply{}, err
	}
	v := s.view(c.now, s.sched[0].status)
	v.InitialPassword = a.password()
	return accepted(v), nil
}

func (a *engine) deleteService(c *call) (reply, error) {
	s := c.svc
	if err := needAlive(s, c.now, "delete"); err != nil {
		return reply{}, err
	}
	s.sched = a.planDeletion(c.now, statusDeleting)
	for _, rs := range s.sets {
		rs.sched = a.planDeletion(c.now, rsDeleting)
	}
	s.logs.event(c.now, sevLog, "received smart shutdown request: service deletion requested")
	return reply{status: http.StatusAccepted}, nil
}

func (a *engine) startService(c *call) (reply, error) {
	s := c.svc
	return a.transition(c, "start", statusPaused, func() {
		s.logs.event(c.now, sevLog, "database system was shut down at "+c.now.UTC().Format("2006-01-02 15:04:05 MST"))
		s.logs.event(c.now, sevLog, "database system is ready to accept connections")
	}, statusResuming, statusReady)
}

func (a *engine) stopService(c *call) (reply, error) {
	s := c.svc
	return a.transition(c, "stop", statusReady, func() {
		s.logs.event(c.now, sevLog, "received fast shutdown request")
		s.logs.event(c.now, sevLog, "aborting any active transactions")
		s.logs.event(c.now, sevLog, "database system is shut down")
	}, statusPausing, statusPaused)
}

// transition runs an asynchronous operation that needs the call's service in
// status from: it applies change and plans the statuses that follow.
func (a *engine) transition(c *call, op, from string, change func(), plan ...string) (reply, error) {
	s := c.svc
	if err := needStatus(s, c.now, from, op); err != nil {
		return reply{}, err
	}
	change()
	s.sched = a.plan(c.now, plan...)
	return accepted(s.view(c.now, plan[0])), nil
}

func (a *engine) resizeService(c *call) (reply, error) {
	s := c.svc
	cpu, mem, err := parseResize(c)
	if err != nil {
		return reply{}, err
	}
	return a.transition(c, "resize", statusReady, func() {
		s.cpu, s.mem = cpu, mem
		s.logs.event(c.now, sevLog, fmt.Sprintf("configuration change requested: cpu_millis=%d memory_gbs=%d", cpu, mem))
		s.logs.event(c.now, sevLog, "received SIGHUP, reloading configuration files")
	}, statusConfiguring, statusReady)
}

func (a *engine) setHA(c *call) (reply, error) {
	s := c.svc
	replicas, sync, err := parseSetHA(c, s.replicas, s.syncReps)
	if err != nil {
		return reply{}, err
	}
	return a.transition(c, "setHA", statusReady, func() {
		s.replicas, s.syncReps = replicas, sync
		s.logs.event(c.now, sevLog, fmt.Sprintf("high availability changed: %d replica(s), %d synchronous", replicas, sync))
	}, statusConfiguring, statusReady)
}

func (a *engine) forkService(c *call) (reply, error) {
	parent := c.svc
	in, err := parseFork(c, parent)
	if err != nil {
		return reply{}, err
	}
	if err := needStatus(parent, c.now, statusReady, "forkService"); err != nil {
		return reply{}, err
	}
	child, err := a.newService(c.now, c.project, in.name, parent.typ, parent.region, in.env, in.cpu, in.mem, 0)
	if err != nil {
		return reply{}, err
	}
	child.forkedFrom = &forkedFromJSON{IsStandby: false, ProjectID: parent.project, ServiceID: parent.id}
	child.logs.event(c.now, sevLog, fmt.Sprintf("restored from service %s of project %s (fork strategy %s)", parent.id, parent.project, in.strategy))
	parent.logs.event(c.now, sevLog, fmt.Sprintf("service forked into %s (fork strategy %s)", child.id, in.strategy))
	v := child.view(c.now, child.sched[0].status)
	v.InitialPassword = a.password()
	return accepted(v), nil
}

func (a *engine) enablePooler(c *call) (reply, error) { return a.switchPooler(c, true) }

func (a *engine) disablePooler(c *call) (reply, error) { return a.switchPooler(c, false) }

func onOff(on bool) string {
	if on {
		return "enabled"
	}
	return "disabled"
}

// pooler is the connection pooler of a service or of a replica set.
type pooler struct {
	on bool
	ep *liveEndpoint // nil unless live; opens when the pooler is first turned on
}

// turn turns the pooler on or off, what naming it in the conflict when it
// already is. open makes its endpoint the first time it is turned on; the
// endpoint stays and refuses while the pooler is off.
func (p *pooler) turn(on bool, what string, open func() (*liveEndpoint, error)) error {
	if p.on == on {
		return conflict(what+" is already "+onOff(on), "pooler "+onOff(on))
	}
	if on && p.ep == nil {
		ep, err := open()
		if err != nil {
			return err
		}
		p.ep = ep
	}
	p.on = on
	return nil
}

func (a *engine) switchPooler(c *call, on bool) (reply, error) {
	s := c.svc
	if err := needAlive(s, c.now, "changing the pooler"); err != nil {
		return reply{}, err
	}
	open := func() (*liveEndpoint, error) { return a.openServiceEndpoint(s, true) }
	if err := s.pooler.turn(on, "connection pooler", open); err != nil {
		return reply{}, err
	}
	s.logs.event(c.now, sevLog, "connection pooler "+onOff(on))
	return message(http.StatusOK, "connection pooler "+onOff(on)), nil
}

func (a *engine) attachVPC(c *call) (reply, error) {
	vpc, err := changeOf(c, "attachToVPC", parseVPC)
	if err != nil {
		return reply{}, err
	}
	s := c.svc
	if s.vpcID != "" {
		return reply{}, conflict("service is already attached to VPC "+s.vpcID, "vpc_id "+s.vpcID)
	}
	s.vpcID = vpc
	s.logs.event(c.now, sevLog, "attached to VPC "+vpc)
	return message(http.StatusAccepted, "service attached to VPC "+vpc), nil
}

func (a *engine) detachVPC(c *call) (reply, error) {
	vpc, err := changeOf(c, "detachFromVPC", parseVPC)
	if err != nil {
		return reply{}, err
	}
	s := c.svc
	if s.vpcID != vpc {
		return reply{}, conflict("service is not attached to VPC "+vpc, "attached vpc_id "+strconv.Quote(s.vpcID))
	}
	s.vpcID = ""
	s.logs.event(c.now, sevLog, "detached from VPC "+vpc)
	return message(http.StatusAccepted, "service detached from VPC "+vpc), nil
}

func (a *engine) updatePassword(c *call) (reply, error) {
	// The new password is neither kept nor logged: only the fact of the change.
	if _, err := changeOf(c, "updatePassword", parsePassword); err != nil {
		return reply{}, err
	}
	s := c.svc
	s.logs.event(c.now, sevLog, `password of role "tsdbadmin" changed`)
	return reply{status: http.StatusNoContent}, nil
}

func (a *engine) setEnvironment(c *call) (reply, error) {
	env, err := changeOf(c, "setEnvironment", parseEnvironment)
	if err != nil {
		return reply{}, err
	}
	s := c.svc
	s.env = env
	s.logs.event(c.now, sevLog, "environment set to "+env)
	return message(http.StatusOK, "environment set to "+env), nil
}
