package deploy

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// run is one Apply or Destroy: the plan it makes, the world as it knows
// it, and what it did so far.
type run struct {
	c *dbcloud.Client
	// creator is c with create recovery, made for the run's first create,
	// so that an ambiguous create is resolved within the run.
	creator *dbcloud.Client
	opts    options
	p       *Plan
	w       *world
	res     *Result
}

func newRun(c *dbcloud.Client, opts []Option) *run {
	r := &run{c: c, res: &Result{}}
	for _, opt := range opts {
		opt(&r.opts)
	}
	return r
}

// apply runs p's changes in order against w, the world as p's read found
// it, and stops at the first error.
func (r *run) apply(ctx context.Context, p *Plan, w *world) error {
	r.p, r.w = p, w
	r.res.Changes = slices.Clone(p.Changes)
	if err := p.err(); err != nil {
		return err
	}
	defer func() {
		if r.creator != nil {
			r.creator.CloseIdleConnections()
		}
	}()
	for i := range r.res.Changes {
		if err := r.step(ctx, &r.res.Changes[i]); err != nil {
			return err
		}
	}
	return nil
}

// step makes one change, reported as a unit of work and to the progress
// hook when it starts and ends.
func (r *run) step(ctx context.Context, ch *Change) error {
	ch.Started, ch.Outcome = time.Now(), Running
	r.emit(Progress{Change: *ch})
	ctx, end := r.unit(ctx, r.callInfo(ch))
	did, err := r.do(ctx, ch)
	ch.Duration = time.Since(ch.Started)
	switch {
	case err != nil:
		ch.Outcome = Failed
		var stale *StalePlanError
		var dup *DuplicateNameError
		if !errors.As(err, &stale) && !errors.As(err, &dup) {
			err = fmt.Errorf("deploy: %s %s %q: %w", ch.Action, ch.Kind, ch.Name, err)
		}
	case did:
		ch.Outcome = Done
	default:
		ch.Outcome = AlreadyDone
	}
	end(r.callInfo(ch), err)
	r.emit(Progress{Change: *ch})
	return err
}

// do makes ch and reports whether it acted (sent a request or waited).
func (r *run) do(ctx context.Context, ch *Change) (bool, error) {
	e, err := r.w.find(ch)
	if err != nil {
		return false, err
	}
	if ch.Action != Delete && e != nil {
		ch.ID = e.id
	}
	if ch.Action == Update && e != nil && ch.Field != FieldStatus && needsReady(ch) {
		// The wait's read is the precondition's source.
		if err := r.ready(ctx, ch, e); err != nil {
			return false, err
		}
	}
	act, err := precondition(ch, e)
	if err != nil || !act {
		if err == nil && ch.Action == Create {
			err = r.ready(ctx, ch, e) // found: its create may still be under way
		}
		return false, err
	}
	switch ch.Action {
	case Create:
		return true, r.create(ctx, ch)
	case Delete:
		return true, r.delete(ctx, ch, e)
	}
	if ch.Field == FieldStatus {
		return r.settle(ctx, ch, e)
	}
	return r.update(ctx, ch, e)
}

// needsReady holds for the updates the API takes only from a READY
// service or an active set: a resize, HA replicas.
func needsReady(ch *Change) bool { return ch.Field == FieldSize || ch.Field == FieldHAReplicas }

// ready waits until e is READY (active), unless it is.
func (r *run) ready(ctx context.Context, ch *Change, e *entry) error {
	if e.ready() {
		return nil
	}
	return r.wait(ctx, ch, e)
}

// wait waits until e is READY (active) and records the read.
func (r *run) wait(ctx context.Context, ch *Change, e *entry, opts ...dbcloud.WaitOption) error {
	opts = append(opts, r.waits(ch)...)
	if e.kind == dbcloud.KindReplicaSet {
		got, err := r.c.ReplicaSets.WaitForActive(ctx, r.p.ProjectID, e.parent, e.id, opts...)
		if err == nil {
			r.w.putSet(e.parent, got)
		}
		return err
	}
	got, err := r.c.Services.WaitForReady(ctx, r.p.ProjectID, e.id, opts...)
	if err == nil {
		r.w.putService(e.kind, got)
	}
	return err
}

// waits are the run's wait options, with a progress report of each poll
// as part of ch.
func (r *run) waits(ch *Change) []dbcloud.WaitOption {
	return append(slices.Clip(r.opts.waits), dbcloud.WithProgress(func(p dbcloud.WaitProgress) {
		r.emit(Progress{Change: *ch, Poll: &p})
	}))
}

// creatorClient is the run's client with create recovery.
func (r *run) creatorClient() (*dbcloud.Client, error) {
	if r.creator == nil {
		c, err := r.c.With(dbcloud.WithCreateRecovery())
		if err != nil {
			return nil, err
		}
		r.creator = c
	}
	return r.creator, nil
}

// result is the Result of the run so far: the state's resources as the
// run knows them, in the plan's order (what it saw, then what its changes
// name).
func (r *run) result() *Result {
	if r.p == nil {
		return r.res
	}
	r.res.Service, r.res.ReplicaSets, r.res.Forks = nil, nil, nil
	seen := map[Seen]bool{}
	resources := slices.Clone(r.p.Seen)
	for _, c := range r.p.Changes {
		if c.Action != Delete {
			resources = append(resources, Seen{Kind: c.Kind, Name: c.Name})
		}
	}
	for _, s := range resources {
		key := Seen{Kind: s.Kind, Name: s.Name}
		e, _ := r.w.one(s.Kind, s.Name)
		if seen[key] || e == nil {
			continue
		}
		seen[key] = true
		switch s.Kind {
		case dbcloud.KindService:
			svc := *e.svc
			r.res.Service = &svc
		case dbcloud.KindReplicaSet:
			r.res.ReplicaSets = append(r.res.ReplicaSets, *e.set)
		default:
			r.res.Forks = append(r.res.Forks, *e.svc)
		}
	}
	return r.res
}
