package deploy

import (
	"context"
	"slices"

	"github.com/dbcloud/dbcloud-go"
)

// Result is what a run did and what the state's resources are now. Apply
// and Destroy always return one, also with an error: what a run created
// before it failed is in it, with its password.
type Result struct {
	// Changes are the plan's changes with their outcomes, in order;
	// those the run did not reach are Pending.
	Changes []Change `json:"changes"`
	// Service, ReplicaSets and Forks are the state's resources as the run
	// last read them (the plan's read, or the wait that ended a step), in
	// the order of the state: a new service or fork carries its
	// InitialPassword. A change that takes effect at once (a pooler, an
	// environment, a VPC) made after that read is in Changes, not in
	// them: read the resource for its new endpoints. After a destroy they
	// are empty.
	Service     *dbcloud.Service         `json:"service,omitempty"`
	ReplicaSets []dbcloud.ReadReplicaSet `json:"replica_sets,omitempty"`
	Forks       []dbcloud.Service        `json:"forks,omitempty"`
}

// Changed reports whether the run made any change (Outcome Done).
func (r *Result) Changed() bool {
	return slices.ContainsFunc(r.Changes, func(c Change) bool { return c.Outcome == Done })
}

// Option configures a run: State.Apply, State.Destroy, Plan.Apply.
type Option func(*options)

type options struct {
	progress  []func(Progress)
	passwords []func(Password) error
	waits     []dbcloud.WaitOption
}

// WithWaitOptions adds options to every wait of a run: a timeout, a poll
// interval, stop statuses (dbcloud.WithStopOn).
func WithWaitOptions(opts ...dbcloud.WaitOption) Option {
	return func(o *options) { o.waits = append(o.waits, opts...) }
}

// Apply plans st (State.Plan) and applies that plan, reusing the plan's
// reads: a run with nothing to do sends the plan's GETs and nothing else.
// On an error, run the same Apply again: it plans afresh and finishes
// what this run started (see the package doc).
func (st *State) Apply(ctx context.Context, c *dbcloud.Client, opts ...Option) (*Result, error) {
	return runState(ctx, c, st, "deploy.Apply", (*State).diff, opts)
}

// runState is a one-call run: it reads, plans with diff and applies the
// plan, all inside the run's unit of work.
func runState(ctx context.Context, c *dbcloud.Client, st *State, op string, diff func(*State, string, *world) *Plan, opts []Option) (*Result, error) {
	r := newRun(c, opts)
	if err := st.check(); err != nil {
		return r.res, err
	}
	projectID, err := projectOf(c, st)
	if err != nil {
		return r.res, err
	}
	info := dbcloud.CallInfo{Operation: op, Kind: dbcloud.KindService, Name: st.Service.Name, ProjectID: projectID}
	ctx, end := r.unit(ctx, info)
	w, err := read(ctx, c, projectID, st.Service.Name)
	if err == nil {
		err = r.apply(ctx, diff(st, projectID, w), w)
	}
	end(info, err)
	return r.result(), err
}

// Apply makes the plan's changes, in order, and no others: the plan a
// reviewer approved is the plan that runs. It reads the world once more
// (the reads of State.Plan) and, before sending anything, checks it
// against the plan: each resource the plan saw is still there, each
// setting the state manages as the plan saw it (or as the plan sets it),
// each change's precondition true; else it returns a *StalePlanError and
// sends nothing. Each step then re-checks its own precondition, so that a
// plan applied twice, or after a run of it was cut short, makes each
// change once. A plan with problems is refused with its *ProblemError.
// Apply does not change p.
func (p *Plan) Apply(ctx context.Context, c *dbcloud.Client, opts ...Option) (*Result, error) {
	r := newRun(c, opts)
	op := "deploy.Apply"
	if p.Destroy {
		op = "deploy.Destroy"
	}
	info := dbcloud.CallInfo{Operation: op, Kind: dbcloud.KindService, Name: p.Service, ProjectID: p.ProjectID}
	ctx, end := r.unit(ctx, info)
	err := p.err()
	if err == nil {
		var w *world
		if w, err = read(ctx, c, p.ProjectID, p.Service); err == nil {
			if err = p.check(w); err == nil {
				err = r.apply(ctx, p, w)
			}
		}
	}
	if r.p == nil {
		r.res.Changes = slices.Clone(p.Changes)
	}
	end(info, err)
	return r.result(), err
}
