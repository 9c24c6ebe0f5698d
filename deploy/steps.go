package deploy

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// The steps, one per kind of change, run once the change's precondition
// says to act (see check.go). Each ends with its resource as the next
// step needs it: created or changed and waited for until READY (active),
// or gone.

// create makes a service, replica set or fork, hands its password to the
// hook at once, and waits until it is READY (active). Its creates go
// through create recovery, so that a create whose answer was lost is
// found (with a new password) within the run; and a create, once sent,
// is seen to its answer though the run is cancelled meanwhile (sending):
// cut in flight, it would leave a resource the next run might not see
// yet, and a password nobody holds.
func (r *run) create(ctx context.Context, rec *Record) error {
	ch := &rec.Change
	cr, err := r.creatorClient()
	if err != nil {
		return err
	}
	switch ch.Kind {
	case dbcloud.KindReplicaSet:
		return r.createSet(ctx, rec, cr)
	case dbcloud.KindVPC, dbcloud.KindPeering:
		return r.createNetwork(ctx, rec, cr)
	}
	svc, err := r.sendCreate(ctx, rec, cr)
	if svc == nil {
		return err
	}
	// Recorded before anything else: a run that ends here still returns
	// the resource, and its password, in its Result.
	e := r.w.putService(ch.Kind, ch.Service, svc)
	rec.ID = svc.ServiceID
	if err != nil {
		return err // recovery found it, but could not set a new password
	}
	if err := r.password(ch, svc); err != nil {
		return err
	}
	return r.wait(ctx, rec, e, dbcloud.WithCreated(svc))
}

// sendCreate sends the create of a service or, once its parent is READY,
// a fork, with cr.
func (r *run) sendCreate(ctx context.Context, rec *Record, cr *dbcloud.Client) (*dbcloud.Service, error) {
	ch := &rec.Change
	var parent *entry
	var req *dbcloud.ForkServiceRequest
	if ch.Kind == dbcloud.KindFork {
		var err error
		if parent, err = r.parent(ctx, rec); err != nil {
			return nil, err
		}
		req = forkRequest(ch.Name, ch.To, time.Now())
		if err := req.Validate(parent.svc); err != nil {
			return nil, err
		}
	}
	sendCtx, done, err := sending(ctx, ch)
	if err != nil {
		return nil, err
	}
	defer done()
	if parent != nil {
		return cr.Services.Fork(sendCtx, r.p.ProjectID, parent.id, req)
	}
	return cr.Services.Create(sendCtx, r.p.ProjectID, &dbcloud.CreateServiceRequest{
		Name: ch.Name, Addons: ch.To.Addons, RegionCode: ch.To.RegionCode, CPUMillis: ch.To.CPUMillis,
		MemoryGBs: ch.To.MemoryGBs, ReplicaCount: ch.To.HAReplicas, EnvironmentTag: ch.To.Environment})
}

// createSet makes a replica set, once its service is READY, with cr, and
// waits until it is active.
func (r *run) createSet(ctx context.Context, rec *Record, cr *dbcloud.Client) error {
	ch := &rec.Change
	svc, err := r.parent(ctx, rec)
	if err != nil {
		return err
	}
	sendCtx, done, err := sending(ctx, ch)
	if err != nil {
		return err
	}
	rs, err := cr.ReplicaSets.Create(sendCtx, r.p.ProjectID, svc.id, &dbcloud.CreateReplicaSetRequest{
		Name: ch.Name, Nodes: ch.To.Nodes, CPUMillis: ch.To.CPUMillis, MemoryGBs: ch.To.MemoryGBs})
	done()
	if err != nil {
		return err
	}
	rec.ID = rs.ID
	return r.wait(ctx, rec, r.w.putSet(ch.Service, svc.id, rs), dbcloud.WithCreated(rs))
}

// createNetwork makes a VPC, or a peering of the state's VPC (which its
// chain made first) and waits until the peer's side has accepted it
// (active), with cr. A VPC has no status: it is usable once created.
func (r *run) createNetwork(ctx context.Context, rec *Record, cr *dbcloud.Client) error {
	ch := &rec.Change
	var vpc *entry
	if ch.Kind == dbcloud.KindPeering {
		if vpc = r.w.service(dbcloud.KindVPC, ch.Service); vpc == nil {
			return &StalePlanError{Kind: dbcloud.KindVPC, Name: ch.Service}
		}
	}
	sendCtx, done, err := sending(ctx, ch)
	if err != nil {
		return err
	}
	defer done()
	if vpc == nil {
		v, err := cr.VPCs.Create(sendCtx, r.p.ProjectID, &dbcloud.CreateVPCRequest{Name: ch.Name, CIDR: ch.To.CIDR, RegionCode: ch.To.RegionCode})
		if err == nil {
			rec.ID = r.w.putVPC(ch.Service, v).id
		}
		return err
	}
	pe, err := cr.Peerings.Create(sendCtx, r.p.ProjectID, vpc.id, &dbcloud.CreatePeeringRequest{
		PeerAccountID: ch.To.PeerAccountID, PeerRegionCode: ch.To.PeerRegionCode, PeerVPCID: ch.To.PeerVPCID})
	if err != nil {
		return err
	}
	rec.ID = pe.ID
	return r.wait(ctx, rec, r.w.putPeering(ch.Service, vpc.id, pe), dbcloud.WithCreated(pe))
}

// parent is the service of a replica set or fork that rec creates, once it
// is READY: a *StalePlanError when it is gone.
func (r *run) parent(ctx context.Context, rec *Record) (*entry, error) {
	svc := r.w.service(dbcloud.KindService, rec.Change.Service)
	if svc == nil {
		return nil, &StalePlanError{Kind: dbcloud.KindService, Name: rec.Change.Service}
	}
	return svc, r.ready(ctx, rec, svc)
}

// createBound bounds a create sent under a run cancelled meanwhile, when
// the run has no deadline of its own: a create's retries and recovery
// under the client's defaults take less.
const createBound = 2 * time.Minute

// sending is the context a create is sent under: ctx's values and
// deadline (or createBound), without its cancellation. A run cancelled
// before the create is sent does not send it: its error names the
// change, a fork's as a fork's.
func sending(ctx context.Context, ch *Change) (context.Context, context.CancelFunc, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("the %s create was not sent: %w", ch.Kind, context.Cause(ctx))
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(createBound)
	}
	sendCtx, cancel := context.WithDeadline(context.WithoutCancel(ctx), deadline)
	return sendCtx, cancel, nil
}

// update sends the change of one field. The API's 409 is read again: a
// field now as wanted is another deployer's change landing first (already
// done), one that is neither as the plan expected nor as wanted is a
// change made behind the run (a stale plan). A resize or new HA replicas
// is waited for until READY (active); the other changes take effect at
// once.
func (r *run) update(ctx context.Context, rec *Record, ch *Change, e *entry) (bool, error) {
	err := r.send(ctx, ch, e)
	if errors.Is(err, dbcloud.ErrConflict) && r.reread(ctx, e) == nil {
		if act, stale := precondition(ch, e); stale != nil || !act {
			return false, stale
		}
	}
	if err != nil {
		return true, err
	}
	if needsReady(ch) {
		return true, r.wait(ctx, rec, e)
	}
	r.w.apply(ch)
	return true, nil
}

// send sends the request of an update, as the field's entry of fieldDefs
// says.
func (r *run) send(ctx context.Context, ch *Change, e *entry) error {
	at := target{project: r.p.ProjectID, service: e.id}
	switch e.kind {
	case dbcloud.KindReplicaSet:
		at.service, at.set = e.parentID, e.id
	case dbcloud.KindVPC:
		at.service, at.vpc = "", e.id
	}
	return fieldDefs[ch.Field].send(ctx, r.c, at, ch.From, ch.To)
}

// reread reads e again, after a 409.
func (r *run) reread(ctx context.Context, e *entry) error {
	if e.kind == dbcloud.KindVPC {
		v, err := r.c.VPCs.Get(ctx, r.p.ProjectID, e.id)
		if err == nil {
			r.w.putVPC(e.service, v)
		}
		return err
	}
	if e.kind != dbcloud.KindReplicaSet {
		svc, err := r.c.Services.Get(ctx, r.p.ProjectID, e.id)
		if err == nil {
			r.w.putService(e.kind, e.service, svc)
		}
		return err
	}
	sets, err := r.c.ReplicaSets.List(ctx, r.p.ProjectID, e.parentID)
	for i := range sets {
		if sets[i].ID == e.id {
			r.w.putSet(e.service, e.parentID, &sets[i])
		}
	}
	return err
}

// settle brings a resource found in passing to READY (active): it starts
// a paused service (after waiting for a pausing one to be PAUSED, since
// the API refuses to start it before) and waits. A 409 to the start is
// another deployer's start landing first: the wait covers it. A paused
// fork is kept as it is.
func (r *run) settle(ctx context.Context, rec *Record, e *entry) (bool, error) {
	status := dbcloud.ServiceStatus(e.status())
	if e.kind == dbcloud.KindFork && (status == dbcloud.StatusPaused || status == dbcloud.StatusPausing) {
		return false, nil
	}
	if e.kind == dbcloud.KindService && status == dbcloud.StatusPausing {
		got, err := r.c.Services.WaitForStatus(ctx, r.p.ProjectID, e.id, dbcloud.StatusPaused, r.waits(rec)...)
		if err != nil {
			return true, err
		}
		r.w.putService(e.kind, e.service, got)
		status = got.Status
	}
	if e.kind == dbcloud.KindService && status == dbcloud.StatusPaused {
		if _, err := r.c.Services.Start(ctx, r.p.ProjectID, e.id); err != nil && !errors.Is(err, dbcloud.ErrConflict) {
			return true, err
		}
	}
	return true, r.wait(ctx, rec, e)
}

// delete deletes a resource, unless it is being deleted already, and
// waits until it is gone. A 404 is a resource already gone. A VPC or a
// peering is not waited for: the API has no status of a VPC, and the
// SDK no wait for a peering's end; its delete's answer ends the step.
func (r *run) delete(ctx context.Context, rec *Record, e *entry) error {
	p := r.p.ProjectID
	var err error
	if !e.deleting() {
		switch e.kind {
		case dbcloud.KindReplicaSet:
			err = r.c.ReplicaSets.Delete(ctx, p, e.parentID, e.id)
		case dbcloud.KindVPC:
			err = r.c.VPCs.Delete(ctx, p, e.id)
		case dbcloud.KindPeering:
			err = r.c.Peerings.Delete(ctx, p, e.parentID, e.id)
		default:
			err = r.c.Services.Delete(ctx, p, e.id)
		}
	}
	switch {
	case errors.Is(err, dbcloud.ErrNotFound):
	case err != nil:
		return err
	case e.kind == dbcloud.KindVPC, e.kind == dbcloud.KindPeering:
	case e.kind == dbcloud.KindReplicaSet:
		err = r.c.ReplicaSets.WaitForDeleted(ctx, p, e.parentID, e.id, r.waits(rec)...)
	default:
		err = r.c.Services.WaitForDeleted(ctx, p, e.id, r.waits(rec)...)
	}
	if err == nil {
		r.w.apply(&rec.Change)
	}
	return err
}

// do makes rec's change and reports whether it acted (sent a request or
// waited).
func (r *run) do(ctx context.Context, rec *Record) (bool, error) {
	ch, err := r.resolve(&rec.Change)
	if err != nil {
		return false, err
	}
	e, err := r.w.findFor(ch)
	if err != nil {
		return false, err
	}
	if ch.Action == Update && e != nil && needsReady(ch) {
		// The wait's read is the precondition's source.
		if err := r.ready(ctx, rec, e); err != nil {
			return false, err
		}
	}
	act, err := precondition(ch, e)
	if err != nil || !act {
		if err == nil && ch.Action == Create {
			err = r.ready(ctx, rec, e) // found: its create may still be under way
		}
		return false, err
	}
	switch ch.Action {
	case Create:
		return true, r.create(ctx, rec)
	case Delete:
		return true, r.delete(ctx, rec, e)
	}
	if ch.Field == FieldStatus {
		return r.settle(ctx, rec, e)
	}
	return r.update(ctx, rec, ch, e)
}

// resolve is ch, or, for an attachment to a VPC of the state that the
// plan created (whose id the plan could not know), ch with that VPC's id:
// its chain, which this one waits for, created it.
func (r *run) resolve(ch *Change) (*Change, error) {
	if ch.Field != FieldVPC || ch.To.VPCID != nil {
		return ch, nil
	}
	vpc := r.w.service(dbcloud.KindVPC, ch.To.VPC)
	if vpc == nil {
		return nil, &StalePlanError{Kind: dbcloud.KindVPC, Name: ch.To.VPC}
	}
	to := *ch.To
	to.VPCID = &vpc.id
	resolved := *ch
	resolved.To = &to
	return &resolved, nil
}

// needsReady holds for the updates the API takes only from a READY
// service or an active set: a resize, HA replicas.
func needsReady(ch *Change) bool { return ch.Field == FieldSize || ch.Field == FieldHAReplicas }

// ready waits until e is READY (active), unless it is.
func (r *run) ready(ctx context.Context, rec *Record, e *entry) error {
	if e.ready() {
		return nil
	}
	return r.wait(ctx, rec, e)
}

// wait waits until e is READY (active) and records the read. Waits of a
// run's services at once share the client's poller: one list a tick for
// the project's services, one for each service's sets, one for each
// VPC's peerings. A peering that fails ends the wait with the API's
// message.
func (r *run) wait(ctx context.Context, rec *Record, e *entry, opts ...dbcloud.WaitOption) error {
	opts = append(opts, r.waits(rec)...)
	switch e.kind {
	case dbcloud.KindVPC:
		return nil
	case dbcloud.KindPeering:
		got, err := r.c.Peerings.WaitForActive(ctx, r.p.ProjectID, e.parentID, e.id, opts...)
		if got != nil {
			r.w.putPeering(e.service, e.parentID, got)
		}
		return err
	case dbcloud.KindReplicaSet:
		got, err := r.c.ReplicaSets.WaitForActive(ctx, r.p.ProjectID, e.parentID, e.id, opts...)
		if err == nil {
			r.w.putSet(e.service, e.parentID, got)
		}
		return err
	}
	got, err := r.c.Services.WaitForReady(ctx, r.p.ProjectID, e.id, opts...)
	if err == nil {
		r.w.putService(e.kind, e.service, got)
	}
	return err
}

// waits are the run's wait options, with a progress report of each poll
// as part of rec, as it is when the wait starts.
func (r *run) waits(rec *Record) []dbcloud.WaitOption {
	at := *rec
	return append(slices.Clip(r.opts.waits), dbcloud.WithProgress(func(p dbcloud.WaitProgress) {
		r.emit(Progress{Record: at, Poll: &p})
	}))
}

// creatorClient is the run's client with create recovery.
func (r *run) creatorClient() (*dbcloud.Client, error) {
	r.creatorMu.Lock()
	defer r.creatorMu.Unlock()
	if r.creator == nil {
		c, err := r.c.With(dbcloud.WithCreateRecovery())
		if err != nil {
			return nil, err
		}
		r.creator = c
	}
	return r.creator, nil
}
