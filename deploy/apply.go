package deploy

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// Event is one thing Apply did, or one poll of a wait, as the progress hook
// (WithProgress) and Result.Steps report it.
type Event struct {
	Kind string `json:"kind"` // KindService, KindReplicaSet or KindFork
	Name string `json:"name"`
	ID   string `json:"id,omitempty"`
	// Step is what was done: "create", "start", "size", "ha_replicas",
	// "environment", "pooler", "vpc", "delete", or "wait" for a poll.
	Step string `json:"step"`
	// Changed reports that a request was sent that changed something; a
	// step that found the resource as wanted has Changed false.
	Changed bool `json:"changed"`
	// Status is the status a "wait" poll saw.
	Status string `json:"status,omitempty"`
}

// String reads as one line of a deploy's log.
func (e Event) String() string {
	s := fmt.Sprintf("%s %q", e.Kind, e.Name)
	if e.ID != "" {
		s += " (" + e.ID + ")"
	}
	switch {
	case e.Step == "wait":
		return s + ": " + e.Status
	case e.Changed:
		return s + ": " + e.Step + ": done"
	}
	return s + ": " + e.Step + ": already as wanted"
}

// Result is what Apply did and what the state's resources are now.
type Result struct {
	Steps       []Event // the steps, without the polls of waits
	Service     *dbcloud.Service
	ReplicaSets []dbcloud.ReadReplicaSet // in the order of the state
	Forks       []dbcloud.Service        // in the order of the state
}

// Changed reports whether any step sent a change.
func (r *Result) Changed() bool {
	for _, e := range r.Steps {
		if e.Changed {
			return true
		}
	}
	return false
}

// Option configures Apply.
type Option func(*applier)

// WithProgress calls fn with each step Apply takes and each poll of its
// waits, on the goroutine that called Apply. Each WithProgress adds a
// callback: all are called, in the order of the options.
func WithProgress(fn func(Event)) Option {
	return func(a *applier) {
		if fn != nil {
			a.progress = append(a.progress, fn)
		}
	}
}

// WithWaitOptions adds options to every wait of Apply: a timeout, a poll
// interval, stop statuses (dbcloud.WithStopOn).
func WithWaitOptions(opts ...dbcloud.WaitOption) Option {
	return func(a *applier) { a.waits = append(a.waits, opts...) }
}

type applier struct {
	c         *dbcloud.Client
	projectID string
	progress  []func(Event)
	waits     []dbcloud.WaitOption
	res       *Result
}

// Apply brings the project to st: each step an ensure step that sends a
// change only when one is needed, in order, waiting where the next step
// needs it. On an error it returns the error and the Result so far; run
// the same Apply again to finish (see the package doc). A plan with
// problems (see Plan.Problems) is refused before anything is sent.
func (st *State) Apply(ctx context.Context, c *dbcloud.Client, opts ...Option) (*Result, error) {
	p, err := st.Plan(ctx, c)
	if err != nil {
		return nil, err
	}
	if len(p.Problems) > 0 {
		return nil, fmt.Errorf("deploy: the state cannot be applied: %s", p.Problems[0])
	}
	a := &applier{c: c, projectID: p.ProjectID, res: &Result{}}
	for _, opt := range opts {
		opt(a)
	}
	a.waits = append(a.waits, dbcloud.WithProgress(func(w dbcloud.WaitProgress) {
		kind := string(w.Kind)
		if kind == KindService && a.res.Service != nil && w.ID != a.res.Service.ServiceID {
			kind = KindFork
		}
		a.emit(Event{Kind: kind, Name: w.Name, ID: w.ID, Step: "wait", Status: fmt.Sprint(w.Status)}, false)
	}))
	err = a.run(ctx, st)
	return a.res, err
}

func (a *applier) emit(e Event, step bool) {
	if step {
		a.res.Steps = append(a.res.Steps, e)
	}
	for _, fn := range a.progress {
		fn(e)
	}
}

func (a *applier) run(ctx context.Context, st *State) error {
	svc, err := a.service(ctx, &st.Service)
	if err != nil {
		return err
	}
	a.res.Service = svc
	for i := range st.ReplicaSets {
		rs, err := a.replicaSet(ctx, svc, &st.ReplicaSets[i])
		if err != nil {
			return err
		}
		a.res.ReplicaSets = append(a.res.ReplicaSets, *rs)
	}
	for i := range st.Forks {
		f, err := a.fork(ctx, svc, &st.Forks[i])
		if err != nil {
			return err
		}
		a.res.Forks = append(a.res.Forks, *f)
	}
	if !st.Prune {
		return nil
	}
	return a.prune(ctx, st)
}

// step reports the outcome of one ensure step.
func (a *applier) step(kind, name, id, step string, changed bool, err error) error {
	if err != nil {
		return fmt.Errorf("deploy: %s %q: %s: %w", kind, name, step, err)
	}
	a.emit(Event{Kind: kind, Name: name, ID: id, Step: step, Changed: changed}, true)
	return nil
}

// service creates the service unless it exists and brings it to want,
// READY after each change that makes it CONFIGURING.
func (a *applier) service(ctx context.Context, want *Service) (*dbcloud.Service, error) {
	sv := a.c.Services
	steps := services{a.c, a.projectID}
	req := &dbcloud.CreateServiceRequest{Name: want.Name, Addons: want.Addons, CPUMillis: want.CPUMillis, MemoryGBs: want.MemoryGBs,
		EnvironmentTag: want.Environment, RegionCode: want.RegionCode, ReplicaCount: want.HAReplicas}
	svc, created, err := steps.createUnlessExists(ctx, req)
	if err != nil {
		return nil, a.step(KindService, want.Name, "", "create", false, err)
	}
	id := svc.ServiceID
	a.emit(Event{Kind: KindService, Name: want.Name, ID: id, Step: "create", Changed: created}, true)
	if err := a.start(ctx, svc); err != nil {
		return nil, a.step(KindService, want.Name, id, "start", false, err)
	}
	ready := func() error {
		waits := a.waits
		if created {
			waits = append([]dbcloud.WaitOption{dbcloud.WithCreated(svc)}, waits...)
		}
		got, err := sv.WaitForReady(ctx, a.projectID, id, waits...)
		if err == nil {
			svc = got
		}
		return err
	}
	if err := ready(); err != nil {
		return nil, err
	}
	ensures := []struct {
		name   string
		skip   bool
		ensure func() (bool, error)
		wait   bool // the change makes the service CONFIGURING
	}{
		{"size", want.CPUMillis == 0, func() (bool, error) {
			return steps.ensureSize(ctx, id, &dbcloud.ResizeRequest{CPUMillis: want.CPUMillis, MemoryGBs: want.MemoryGBs})
		}, true},
		{"ha_replicas", want.HAReplicas == nil, func() (bool, error) {
			return steps.ensureHA(ctx, id, &dbcloud.SetHARequest{ReplicaCount: want.HAReplicas})
		}, true},
		{"environment", want.Environment == "", func() (bool, error) {
			return steps.ensureEnvironment(ctx, id, want.Environment)
		}, false},
		{"pooler", want.Pooler == nil, func() (bool, error) {
			return steps.ensurePooler(ctx, id, want.Pooler != nil && *want.Pooler)
		}, false},
		{"vpc", want.VPCID == "", func() (bool, error) {
			return steps.ensureVPC(ctx, id, want.VPCID, true)
		}, false},
	}
	for _, s := range ensures {
		if s.skip {
			continue
		}
		changed, err := s.ensure()
		if err := a.step(KindService, want.Name, id, s.name, changed, err); err != nil {
			return nil, err
		}
		if changed && s.wait {
			if err := ready(); err != nil {
				return nil, err
			}
		}
	}
	// A last read, so that the result shows the pooler and VPC the steps
	// after the last wait turned on.
	if err := ready(); err != nil {
		return nil, err
	}
	return svc, nil
}

// start starts a paused service, after waiting for a pausing one to be
// PAUSED (the API refuses to start it before); it reports the step only
// when it sent a start. A 409 to the start is another deployer's start
// landing first: the wait for READY that follows covers it.
func (a *applier) start(ctx context.Context, svc *dbcloud.Service) error {
	sv := a.c.Services
	switch svc.Status {
	case dbcloud.StatusPausing:
		if _, err := sv.WaitForStatus(ctx, a.projectID, svc.ServiceID, dbcloud.StatusPaused, a.waits...); err != nil {
			return err
		}
	case dbcloud.StatusPaused:
	default:
		return nil
	}
	_, err := sv.Start(ctx, a.projectID, svc.ServiceID)
	switch {
	case errors.Is(err, dbcloud.ErrConflict):
		return nil
	case err != nil:
		return err
	}
	a.emit(Event{Kind: KindService, Name: svc.Name, ID: svc.ServiceID, Step: "start", Changed: true}, true)
	return nil
}

// replicaSet creates the set unless it exists and brings it to want,
// active before and after each change.
func (a *applier) replicaSet(ctx context.Context, svc *dbcloud.Service, want *ReplicaSet) (*dbcloud.ReadReplicaSet, error) {
	rc := a.c.ReplicaSets
	sid := svc.ServiceID
	steps := replicaSets{a.c, a.projectID, sid}
	rs, created, err := steps.createUnlessExists(ctx, &dbcloud.CreateReplicaSetRequest{
		Name: want.Name, Nodes: want.Nodes, CPUMillis: want.CPUMillis, MemoryGBs: want.MemoryGBs})
	if err := a.step(KindReplicaSet, want.Name, idOfSet(rs), "create", created, err); err != nil {
		return nil, err
	}
	id := rs.ID
	active := func() error {
		waits := a.waits
		if created {
			waits = append([]dbcloud.WaitOption{dbcloud.WithCreated(rs)}, waits...)
		}
		got, err := rc.WaitForActive(ctx, a.projectID, sid, id, waits...)
		if err == nil {
			rs = got
		}
		return err
	}
	if err := active(); err != nil {
		return nil, err
	}
	changed, err := steps.ensureSize(ctx, id, &dbcloud.ResizeRequest{CPUMillis: want.CPUMillis, MemoryGBs: want.MemoryGBs})
	if err := a.step(KindReplicaSet, want.Name, id, "size", changed, err); err != nil {
		return nil, err
	}
	if changed { // resizing: the set takes other changes once active again
		if err := active(); err != nil {
			return nil, err
		}
	}
	if want.Environment != "" {
		changed, err := steps.ensureEnvironment(ctx, id, want.Environment)
		if err := a.step(KindReplicaSet, want.Name, id, "environment", changed, err); err != nil {
			return nil, err
		}
	}
	if want.Pooler != nil {
		changed, err := steps.ensurePooler(ctx, id, *want.Pooler)
		if err := a.step(KindReplicaSet, want.Name, id, "pooler", changed, err); err != nil {
			return nil, err
		}
	}
	if err := active(); err != nil {
		return nil, err
	}
	return rs, nil
}

func idOfSet(rs *dbcloud.ReadReplicaSet) string {
	if rs == nil {
		return ""
	}
	return rs.ID
}

// fork makes the fork unless it exists, waits until it is READY and gives
// it want's environment.
func (a *applier) fork(ctx context.Context, parent *dbcloud.Service, want *Fork) (*dbcloud.Service, error) {
	sv := a.c.Services
	f, created, err := services{a.c, a.projectID}.forkUnlessExists(ctx, parent.ServiceID, want.request(time.Now()))
	id := ""
	if f != nil {
		id = f.ServiceID
	}
	if err := a.step(KindFork, want.Name, id, "create", created, err); err != nil {
		return nil, err
	}
	waits := a.waits
	if created {
		waits = append([]dbcloud.WaitOption{dbcloud.WithCreated(f)}, waits...)
	}
	got, err := sv.WaitForReady(ctx, a.projectID, id, waits...)
	if err != nil {
		return nil, err
	}
	if want.Environment != "" {
		changed, err := services{a.c, a.projectID}.ensureEnvironment(ctx, id, want.Environment)
		if err := a.step(KindFork, want.Name, id, "environment", changed, err); err != nil {
			return nil, err
		}
		if changed {
			got.Metadata = &dbcloud.Metadata{Environment: want.Environment}
		}
	}
	return got, nil
}

// prune deletes the replica sets and forks that st does not name, and waits
// until they are gone, so that a run that returns nil left nothing behind.
func (a *applier) prune(ctx context.Context, st *State) error {
	o, err := observe(ctx, a.c, a.projectID, st)
	if err != nil {
		return err
	}
	for _, d := range o.unnamed(st) {
		var err error
		if d.kind == KindReplicaSet {
			err = a.c.ReplicaSets.Delete(ctx, a.projectID, o.svc.ServiceID, d.id)
			if err == nil || errors.Is(err, dbcloud.ErrNotFound) {
				err = a.c.ReplicaSets.WaitForDeleted(ctx, a.projectID, o.svc.ServiceID, d.id, a.waits...)
			}
		} else {
			err = a.c.Services.Delete(ctx, a.projectID, d.id)
			if err == nil || errors.Is(err, dbcloud.ErrNotFound) {
				err = a.c.Services.WaitForDeleted(ctx, a.projectID, d.id, a.waits...)
			}
		}
		if err := a.step(d.kind, d.name, d.id, "delete", err == nil, err); err != nil {
			return err
		}
	}
	return nil
}
