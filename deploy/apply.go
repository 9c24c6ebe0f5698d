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
	// Records are what the run made of each change of its plan, in the
	// plan's order; those it did not start are Pending.
	Records []Record `json:"records"`
	// Services, ReplicaSets (by the name of their service) and Forks are
	// the state's resources as the run last read them (the plan's read,
	// or the wait that ended a step), in the order of the state: a new
	// service or fork carries its InitialPassword. A change that takes
	// effect at once (a pooler, an environment, a VPC) made after that
	// read is in Records, not in them: read the resource for its new
	// endpoints. After a destroy they are empty.
	Services    []dbcloud.Service                   `json:"services,omitempty"`
	ReplicaSets map[string][]dbcloud.ReadReplicaSet `json:"replica_sets,omitempty"`
	Forks       []dbcloud.Service                   `json:"forks,omitempty"`
}

// Changed reports whether the run made any change (Outcome Done).
func (r *Result) Changed() bool {
	return slices.ContainsFunc(r.Records, func(c Record) bool { return c.Outcome == Done })
}

// Service returns the state's service of a name as the run last read it,
// nil when it has none.
func (r *Result) Service(name string) *dbcloud.Service {
	if i := slices.IndexFunc(r.Services, func(s dbcloud.Service) bool { return s.Name == name }); i >= 0 {
		return &r.Services[i]
	}
	return nil
}

// Option configures a run: State.Apply, State.Destroy, Plan.Apply.
type Option func(*options)

type options struct {
	progress    []func(Progress)
	passwords   []func(Password) error
	waits       []dbcloud.WaitOption
	parallelism int
}

// WithWaitOptions adds options to every wait of a run: a timeout, a poll
// interval, stop statuses (dbcloud.WithStopOn).
func WithWaitOptions(opts ...dbcloud.WaitOption) Option {
	return func(o *options) { o.waits = append(o.waits, opts...) }
}

// DefaultParallelism is how many chains of changes (a service's, a
// fork's) a run makes at once unless WithParallelism says otherwise. It is
// Terraform's default, which platform teams know; and it bounds what a run
// sends at once, not what it waits for: the waits of a run share the
// client's poller, one list a tick whatever their number, so a higher
// bound costs the API the burst of creates and updates it starts together,
// and no more polls.
const DefaultParallelism = 10

// WithParallelism sets how many chains of changes a run makes at once: the
// changes of a service (the service, then its replica sets) are made one
// after the other, as are a fork's, after its parent's (a destroy: before
// it); those of different services at once, up to n. n < 1 is 1: one
// service after the other, in the plan's order.
func WithParallelism(n int) Option {
	return func(o *options) { o.parallelism = max(n, 1) }
}

// Apply plans st (State.Plan) and applies that plan, reusing the plan's
// reads: a run with nothing to do sends the plan's GETs and nothing else.
// On an error, run the same Apply again: it plans afresh and finishes
// what this run started (see the package doc).
func (st *State) Apply(ctx context.Context, c *dbcloud.Client, opts ...Option) (*Result, error) {
	return runState(ctx, c, st, false, opts)
}

// runState is a one-call run: it reads, plans a deploy or, with destroy,
// a destroy, and applies the plan, all inside the run's unit of work.
func runState(ctx context.Context, c *dbcloud.Client, st *State, destroy bool, opts []Option) (*Result, error) {
	r := newRun(c, opts)
	projectID, err := st.project(c)
	if err != nil {
		return r.res, err
	}
	info := runInfo(projectID, destroy)
	ctx, end := r.unit(ctx, info)
	w, err := st.read(ctx, c, projectID, destroy)
	if err == nil {
		err = r.apply(ctx, st.diffFor(destroy)(projectID, w), w)
	}
	end(info, err)
	return r.result(), err
}

// Apply makes the plan's changes, and no others: the plan a reviewer
// approved is the plan that runs. It reads the world once more (the reads
// of State.Plan) and, before sending anything, checks it against the plan
// whole: each resource the plan saw is still there, each setting the
// state manages as the plan saw it (or as the plan sets it), each
// change's precondition true; else it returns the *StalePlanError of each
// stale service, joined, and sends nothing. Each step then re-checks its
// own precondition, so that a plan applied twice, or after a run of it
// was cut short, makes each change once. A plan with problems is refused
// with its *ProblemError. Apply does not change p.
func (p *Plan) Apply(ctx context.Context, c *dbcloud.Client, opts ...Option) (*Result, error) {
	r := newRun(c, opts)
	info := runInfo(p.ProjectID, p.Destroy)
	ctx, end := r.unit(ctx, info)
	err := p.err()
	if err == nil {
		var w *world
		if w, err = read(ctx, c, p.ProjectID, p.scope()); err == nil {
			if err = p.check(w); err == nil {
				err = r.apply(ctx, p, w)
			}
		}
	}
	if r.p == nil {
		r.res.Records = records(p)
	}
	end(info, err)
	return r.result(), err
}
