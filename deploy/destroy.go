package deploy

import (
	"context"
	"slices"

	"github.com/dbcloud/dbcloud-go"
)

// PlanDestroy reads the project and returns the plan that takes st down:
// the forks of the service that st names (with Prune, every fork of it),
// then every replica set of the service, then the service, each deleted
// and waited for until gone. A resource being deleted already is waited
// for; one already gone is not in the plan. It sends only GETs, as Plan
// does, so it works on a read-only client; a service name that several
// live services have is a problem.
func (st *State) PlanDestroy(ctx context.Context, c *dbcloud.Client) (*Plan, error) {
	return st.plan(ctx, c, (*State).destroyDiff)
}

// Destroy plans the destroy of st (PlanDestroy) and applies that plan, as
// State.Apply does for a deploy: on any failure, run the same Destroy
// again; a resource already gone counts as done.
func (st *State) Destroy(ctx context.Context, c *dbcloud.Client, opts ...Option) (*Result, error) {
	return runState(ctx, c, st, "deploy.Destroy", (*State).destroyDiff, opts)
}

// destroyDiff is the plan that deletes what w holds of st.
func (st *State) destroyDiff(projectID string, w *world) *Plan {
	p := &Plan{ProjectID: projectID, Service: st.Service.Name, Destroy: true, Changes: []Change{}}
	if _, err := w.one(dbcloud.KindService, st.Service.Name); err != nil {
		p.Problems = append(p.Problems, err.(*DuplicateNameError).problem())
		return p
	}
	for _, kind := range []dbcloud.ResourceKind{dbcloud.KindFork, dbcloud.KindReplicaSet, dbcloud.KindService} {
		for _, e := range w.entries {
			named := st.Prune || slices.ContainsFunc(st.Forks, func(f Fork) bool { return f.Name == e.name })
			if e.kind == kind && (kind != dbcloud.KindFork || named) {
				p.Changes = append(p.Changes, deletion(e))
			}
		}
	}
	return p
}
