package deploy

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// run is one Apply or Destroy: the plan it makes, the world as it knows
// it, and what it did so far.
type run struct {
	c    *dbcloud.Client
	opts options
	p    *Plan
	w    *world
	res  *Result

	// mu makes the hooks' calls one at a time, from whichever service's
	// steps they come, and guards creator.
	mu sync.Mutex
	// creator is c with create recovery, made for the run's first create,
	// so that an ambiguous create is resolved within the run.
	creator *dbcloud.Client
}

func newRun(c *dbcloud.Client, opts []Option) *run {
	r := &run{c: c, res: &Result{}, opts: options{parallelism: DefaultParallelism}}
	for _, opt := range opts {
		opt(&r.opts)
	}
	return r
}

// apply runs p's changes against w, the world as p's read found it: each
// chain of changes (a service's, a fork's) in order, chains at once as
// their order allows, at most the run's parallelism at a time. A chain
// that fails stops, with the chains that wait for it; the others go on.
// It returns the errors of every chain that failed, joined.
func (r *run) apply(ctx context.Context, p *Plan, w *world) error {
	r.p, r.w = p, w
	r.res.Records = records(p)
	if err := p.err(); err != nil {
		return err
	}
	defer func() {
		if r.creator != nil {
			r.creator.CloseIdleConnections()
		}
	}()
	chains := chainsOf(p)
	slots := make(chan struct{}, r.opts.parallelism)
	var wg sync.WaitGroup
	for _, ch := range chains {
		wg.Go(func() { ch.err = r.chain(ctx, ch, slots) })
	}
	wg.Wait()
	var errs []error
	for _, ch := range chains {
		if ch.err != nil {
			errs = append(errs, ch.err)
		}
	}
	if len(errs) == 0 && ctx.Err() != nil && slices.ContainsFunc(r.res.Records, func(rec Record) bool { return rec.Outcome == Pending }) {
		errs = append(errs, fmt.Errorf("deploy: the run stopped before its end: %w", context.Cause(ctx)))
	}
	return join(errs)
}

// join is errs as one error: nil, the one, or errors.Join's.
func join(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// records are a run's records of p's changes, none started.
func records(p *Plan) []Record {
	out := make([]Record, len(p.Changes))
	for i, c := range p.Changes {
		out[i] = Record{Change: c, ID: c.ID, Outcome: Pending}
	}
	return out
}

// chain is changes of a plan that a run makes one after the other: a
// service's (the service, then its replica sets), or one fork's, which
// waits for its parent's chain in a deploy, and which its parent's chain
// waits for in a destroy. Chains are what a run makes at once.
type chain struct {
	steps []int // the plan's changes, by index, in order
	after []*chain
	done  chan struct{}
	ok    bool  // set before done is closed: every step done
	err   error // the chain's failure
}

// chainsOf cuts p's changes into chains, in the order of their first
// change.
func chainsOf(p *Plan) []*chain {
	var out []*chain
	byKey := map[key]*chain{}
	get := func(k key) *chain {
		if c := byKey[k]; c != nil {
			return c
		}
		c := &chain{done: make(chan struct{})}
		byKey[k] = c
		out = append(out, c)
		return c
	}
	for i := range p.Changes {
		ch := &p.Changes[i]
		k := key{service: ch.Service}
		if ch.Kind == dbcloud.KindFork {
			k = ch.key()
		}
		c := get(k)
		c.steps = append(c.steps, i)
	}
	for k, c := range byKey {
		parent := byKey[key{service: k.service}]
		if k.kind != dbcloud.KindFork || parent == nil {
			continue
		}
		if p.Destroy {
			parent.after = append(parent.after, c)
		} else {
			c.after = append(c.after, parent)
		}
	}
	return out
}

// chain makes the changes of ch once the chains it waits for are done,
// holding one of slots meanwhile, and stops at its first error, or at a
// step it finds the run cancelled before.
func (r *run) chain(ctx context.Context, ch *chain, slots chan struct{}) error {
	defer close(ch.done)
	for _, dep := range ch.after {
		<-dep.done
		if !dep.ok {
			return nil // what it waits for failed: the run's error names that
		}
	}
	select {
	case slots <- struct{}{}:
	case <-ctx.Done():
		return nil
	}
	defer func() { <-slots }()
	for _, i := range ch.steps {
		if ctx.Err() != nil {
			return nil
		}
		if err := r.step(ctx, &r.res.Records[i]); err != nil {
			return err
		}
	}
	ch.ok = true
	return nil
}

// step makes one change, reported as a unit of work and to the progress
// hook when it starts and ends.
func (r *run) step(ctx context.Context, rec *Record) error {
	ch := &rec.Change
	if e, _ := r.w.findFor(ch); e != nil && ch.Action != Delete {
		rec.ID = e.id // a resource this run created: its later changes name it from their start
	}
	rec.Started, rec.Outcome = time.Now(), Running
	r.emit(Progress{Record: *rec})
	ctx, end := r.unit(ctx, r.callInfo(rec))
	did, err := r.do(ctx, rec)
	rec.Duration = time.Since(rec.Started)
	switch {
	case err != nil:
		rec.Outcome = Failed
		var stale *StalePlanError
		var dup *DuplicateNameError
		if !errors.As(err, &stale) && !errors.As(err, &dup) {
			err = fmt.Errorf("deploy: %s %s %q: %w", ch.Action, ch.Kind, ch.Name, err)
		}
	case did:
		rec.Outcome = Done
	default:
		rec.Outcome = AlreadyDone
	}
	end(r.callInfo(rec), err)
	r.emit(Progress{Record: *rec})
	return err
}

// do makes rec's change and reports whether it acted (sent a request or
// waited).
func (r *run) do(ctx context.Context, rec *Record) (bool, error) {
	ch := &rec.Change
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
	return r.update(ctx, rec, e)
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
// the project's services, one for each service's sets.
func (r *run) wait(ctx context.Context, rec *Record, e *entry, opts ...dbcloud.WaitOption) error {
	opts = append(opts, r.waits(rec)...)
	if e.kind == dbcloud.KindReplicaSet {
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
	r.mu.Lock()
	defer r.mu.Unlock()
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
	r.res.Services, r.res.ReplicaSets, r.res.Forks = nil, nil, nil
	seen := map[key]bool{}
	var resources []key
	for _, s := range r.p.Seen {
		resources = append(resources, key{s.Kind, s.Service, s.Name})
	}
	for i := range r.p.Changes {
		if c := &r.p.Changes[i]; c.Action != Delete {
			resources = append(resources, c.key())
		}
	}
	for _, k := range resources {
		e, _ := r.w.one(k.kind, k.service, k.name)
		if seen[k] || e == nil || e.planned {
			continue
		}
		seen[k] = true
		switch k.kind {
		case dbcloud.KindService:
			r.res.Services = append(r.res.Services, *e.svc)
		case dbcloud.KindReplicaSet:
			if r.res.ReplicaSets == nil {
				r.res.ReplicaSets = map[string][]dbcloud.ReadReplicaSet{}
			}
			r.res.ReplicaSets[k.service] = append(r.res.ReplicaSets[k.service], *e.set)
		default:
			r.res.Forks = append(r.res.Forks, *e.svc)
		}
	}
	return r.res
}
