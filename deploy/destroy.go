package deploy

import (
	"context"
	"slices"

	"github.com/dbcloud/dbcloud-go"
)

// PlanDestroy reads the project and returns the plan that takes st down:
// for each service of st, the forks of it that st names (with Prune,
// every fork of it), then every replica set of it, then the service, each
// deleted and waited for until gone. A run makes them in the reverse of a
// deploy's order: a service's forks before the service, the services at
// once. A resource being deleted already is waited for; one already gone
// is not in the plan. It sends only GETs, as Plan does, so it works on a
// read-only client. A service name that several live services have, and a
// service st protects (State.Protected), are problems.
func (st *State) PlanDestroy(ctx context.Context, c *dbcloud.Client) (*Plan, error) {
	return st.plan(ctx, c, true)
}

// Destroy plans the destroy of st (PlanDestroy) and applies that plan, as
// State.Apply does for a deploy: on any failure, run the same Destroy
// again; a resource already gone counts as done.
func (st *State) Destroy(ctx context.Context, c *dbcloud.Client, opts ...Option) (*Result, error) {
	return runState(ctx, c, st, true, opts)
}

// destroyDiff is the plan that deletes what w holds of st.
func (st *State) destroyDiff(projectID string, w *world) *Plan {
	p := &Plan{ProjectID: projectID, Destroy: true, Changes: []Change{}}
	for i := range st.Services {
		want := &st.Services[i]
		e, err := w.one(dbcloud.KindService, want.Name, want.Name)
		switch {
		case err != nil:
			p.problem(err.(*DuplicateNameError).problem(want.Name))
			continue
		case e == nil:
			p.saw(Seen{Kind: dbcloud.KindService, Service: want.Name, Name: want.Name})
		default:
			p.saw(Seen{Kind: dbcloud.KindService, Service: want.Name, Name: want.Name, ID: e.id})
		}
		if slices.Contains(st.Protected, want.Name) {
			if gone := w.of(dbcloud.KindService, want.Name); len(gone) > 0 {
				p.delete(st, gone[0])
			}
			continue
		}
		for _, f := range w.of(dbcloud.KindFork, want.Name) {
			if st.Prune || slices.ContainsFunc(want.Forks, func(x Fork) bool { return x.Name == f.name }) {
				p.add(deletion(f))
			}
		}
		for _, kind := range []dbcloud.ResourceKind{dbcloud.KindReplicaSet, dbcloud.KindService} {
			for _, e := range w.of(kind, want.Name) {
				p.add(deletion(e))
			}
		}
	}
	return p
}
