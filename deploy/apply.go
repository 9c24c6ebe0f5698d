package deploy

import (
	"context"
	"fmt"
	"slices"

	"github.com/dbcloud/dbcloud-go"
)

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

// Plan reads the project and returns every change that brings it to st:
// for each service of st, the service (created, or started and waited
// for, then updated), each of its replica sets (created, then updated),
// each of its forks (created), then, with Prune, the deletions of its sets
// and forks st does not name; last, with PruneServices, the deletions of
// the project's services st does not name, and, with PruneVPCs, its VPCs
// (each after the detachment of the services on it). st's VPCs come first:
// each created, or renamed (see VPC.ID), then its peerings created and
// waited for until active. It sends only GETs (a List of the project's
// services, and a List of replica sets for each existing service whose
// sets st names or prunes; for a state with VPCs or PruneVPCs, a List of
// the project's VPCs, and a List of peerings for each existing VPC of st
// that names or prunes peerings; ten of those at once), so it works on a
// client made with dbcloud.WithReadOnly.
//
// A plan with problems (Plan.Problems), those of every service, is
// returned together with a *ProblemError naming them all, so that it can
// still be printed; no Apply runs it. An error in the state itself (a
// name missing, a size without the other) is returned before anything is
// read.
func (st *State) Plan(ctx context.Context, c *dbcloud.Client) (*Plan, error) {
	return st.plan(ctx, c, false)
}

// plan checks st, reads its project and plans a deploy or, with destroy,
// a destroy.
func (st *State) plan(ctx context.Context, c *dbcloud.Client, destroy bool) (*Plan, error) {
	projectID, err := st.project(c)
	if err != nil {
		return nil, err
	}
	w, err := st.read(ctx, c, projectID, destroy)
	if err != nil {
		return nil, err
	}
	p := st.diffFor(destroy)(projectID, w)
	return p, p.err()
}

// diffFor is the planner of a deploy or, with destroy, of a destroy.
func (st *State) diffFor(destroy bool) func(string, *world) *Plan {
	if destroy {
		return st.destroyDiff
	}
	return st.diff
}

// project checks st and returns its project.
func (st *State) project(c *dbcloud.Client) (string, error) {
	if err := st.check(); err != nil {
		return "", err
	}
	if st.ProjectID != "" {
		return st.ProjectID, nil
	}
	if c.ProjectID() == "" {
		return "", fmt.Errorf("deploy: no project: set State.ProjectID or dbcloud.WithProjectID")
	}
	return c.ProjectID(), nil
}

// read reads st's project, for a deploy or, with destroy, a destroy,
// which lists the replica sets of every service it deletes, and the
// peerings of every VPC. The project's VPCs are listed only for a state
// that names or prunes VPCs.
func (st *State) read(ctx context.Context, c *dbcloud.Client, projectID string, destroy bool) (*world, error) {
	return read(ctx, c, projectID, scope{
		named: func(name string) bool { return st.service(name) != nil },
		sets: func(name string) bool {
			svc := st.service(name)
			return svc != nil && (destroy || st.Prune || len(svc.ReplicaSets) > 0)
		},
		vpcs: len(st.VPCs) > 0 || st.PruneVPCs,
		vpcName: func(id, name string) string {
			if i := slices.IndexFunc(st.VPCs, func(v VPC) bool { return v.ID == id }); i >= 0 {
				return st.VPCs[i].Name
			}
			return name
		},
		peerings: func(name string) bool {
			v := st.vpc(name)
			return v != nil && (destroy || st.Prune || len(v.Peerings) > 0)
		},
	})
}

// PlanDestroy reads the project and returns the plan that takes st down:
// for each service of st, the forks of it that st names (with Prune,
// every fork of it), then every replica set of it, then the service, each
// deleted and waited for until gone; then, for each VPC of st, its
// peerings, the detachment of any service on it that the plan does not
// delete, and the VPC. A run makes them in the reverse of a deploy's
// order: a service's forks before the service, the services at once, the
// VPCs once every service's changes are made. A resource being deleted
// already is waited for; one already gone is not in the plan. It sends
// only GETs, as Plan does, so it works on a read-only client. A name that
// several live services (VPCs) have, and a service or VPC st protects
// (State.Protected), are problems.
func (st *State) PlanDestroy(ctx context.Context, c *dbcloud.Client) (*Plan, error) {
	return st.plan(ctx, c, true)
}

// Destroy plans the destroy of st (PlanDestroy) and applies that plan, as
// State.Apply does for a deploy: on any failure, run the same Destroy
// again; a resource already gone counts as done.
func (st *State) Destroy(ctx context.Context, c *dbcloud.Client, opts ...Option) (*Result, error) {
	return runState(ctx, c, st, true, opts)
}
