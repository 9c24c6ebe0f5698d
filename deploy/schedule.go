package deploy

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

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
	// Chains start in order, each once a slot is free, and wait in their
	// slot for the chains they depend on, which start before them.
	slots := make(chan struct{}, r.opts.parallelism)
	var wg sync.WaitGroup
dispatch:
	for _, ch := range chains {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			break dispatch
		}
		wg.Go(func() {
			defer func() { <-slots }()
			ch.err = r.chain(ctx, ch)
		})
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

// chain is changes of a plan that a run makes one after the other: a
// service's (the service, then its replica sets), one fork's, which waits
// for its parent's chain in a deploy, and which its parent's chain waits
// for in a destroy; a VPC's, which the chains of the services attaching
// to it wait for in a deploy, and which, in a destroy or when it deletes
// the VPC, waits for the chains of every service (so that each service is
// detached, or gone, first); one peering's, which waits for its VPC's in a
// deploy (in a destroy a VPC's chain deletes its peerings first). Chains
// are what a run makes at once.
type chain struct {
	steps []int // the plan's changes, by index, in order
	after []*chain
	done  chan struct{}
	ok    bool  // set before done is closed: every step done
	err   error // the chain's failure
}

// chainKey is the chain a change of p belongs to.
func chainKey(p *Plan, ch *Change) key {
	switch {
	case ch.Kind == dbcloud.KindFork, ch.Kind == dbcloud.KindPeering && !p.Destroy:
		return ch.key()
	case ch.Kind == dbcloud.KindVPC, ch.Kind == dbcloud.KindPeering:
		return key{kind: dbcloud.KindVPC, service: ch.Service}
	}
	return key{service: ch.Service}
}

// chainsOf cuts p's changes into chains, in the order they start: those
// that wait for none first, then those whose chains to wait for started
// before them (by the length of their longest line of waits), each group
// in the plan's order, so that a chain that waits in its slot waits only
// for chains started before it, and a run with any parallelism ends.
func chainsOf(p *Plan) []*chain {
	var out []*chain
	byKey := map[key]*chain{}
	for i := range p.Changes {
		k := chainKey(p, &p.Changes[i])
		c := byKey[k]
		if c == nil {
			c = &chain{done: make(chan struct{})}
			byKey[k] = c
			out = append(out, c)
		}
		c.steps = append(c.steps, i)
	}
	isVPC := func(c *chain) bool {
		return slices.ContainsFunc(c.steps, func(i int) bool {
			return p.Changes[i].Kind == dbcloud.KindVPC || p.Changes[i].Kind == dbcloud.KindPeering
		})
	}
	for _, c := range out {
		first := &p.Changes[c.steps[0]]
		switch {
		case first.Kind == dbcloud.KindFork && p.Destroy:
			if parent := byKey[key{service: first.Service}]; parent != nil {
				parent.after = append(parent.after, c)
			}
		case first.Kind == dbcloud.KindFork:
			c.after = appendChain(c.after, byKey[key{service: first.Service}])
		case first.Kind == dbcloud.KindPeering && !p.Destroy:
			c.after = appendChain(c.after, byKey[key{kind: dbcloud.KindVPC, service: first.Service}])
		case isVPC(c) && (p.Destroy || slices.ContainsFunc(c.steps, func(i int) bool { return p.Changes[i].Action == Delete })):
			for _, o := range out {
				if !isVPC(o) {
					c.after = append(c.after, o)
				}
			}
		case !isVPC(c):
			for _, i := range c.steps {
				if to := p.Changes[i].To; p.Changes[i].Field == FieldVPC && to.VPC != "" {
					c.after = appendChain(c.after, byKey[key{kind: dbcloud.KindVPC, service: to.VPC}])
				}
			}
		}
	}
	depth := map[*chain]int{}
	var depthOf func(c *chain) int
	depthOf = func(c *chain) int {
		if d, ok := depth[c]; ok {
			return d
		}
		d := 0
		for _, a := range c.after {
			d = max(d, 1+depthOf(a))
		}
		depth[c] = d
		return d
	}
	// Stable: each group keeps the plan's order.
	slices.SortStableFunc(out, func(a, b *chain) int { return cmp.Compare(depthOf(a), depthOf(b)) })
	return out
}

// appendChain appends c to chains unless it is nil (a chain with no
// change) or there already.
func appendChain(chains []*chain, c *chain) []*chain {
	if c == nil || slices.Contains(chains, c) {
		return chains
	}
	return append(chains, c)
}

// chain makes the changes of ch once the chains it waits for are done, as
// a unit of work of their own (see chainInfo), and stops at its first
// error, or at a step it finds the run cancelled before.
func (r *run) chain(ctx context.Context, ch *chain) (err error) {
	defer close(ch.done)
	for _, dep := range ch.after {
		<-dep.done
		if !dep.ok {
			return nil // what it waits for failed: the run's error names that
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	ctx, end := r.unit(ctx, r.chainInfo(ch))
	defer func() { end(r.chainInfo(ch), err) }()
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
