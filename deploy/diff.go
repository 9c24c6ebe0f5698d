package deploy

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/dbcloud/dbcloud-go"
)

// Plan reads the project and returns every change that brings it to st,
// in the order Apply makes them: the service (created, or started and
// waited for, then updated), each replica set (created, then updated),
// each fork (created), then, with Prune, the deletions. It sends only
// GETs (a List of the project's services and, when the service exists, a
// List of its replica sets), so it works on a client made with
// dbcloud.WithReadOnly.
//
// A plan with problems (Plan.Problems) is returned together with a
// *ProblemError naming them all, so that it can still be printed; no
// Apply runs it. An error in the state itself (a name missing, a size
// without the other) is returned before anything is read.
func (st *State) Plan(ctx context.Context, c *dbcloud.Client) (*Plan, error) {
	return st.plan(ctx, c, (*State).diff)
}

// plan checks st, reads the world and plans with diff.
func (st *State) plan(ctx context.Context, c *dbcloud.Client, diff func(*State, string, *world) *Plan) (*Plan, error) {
	if err := st.check(); err != nil {
		return nil, err
	}
	projectID, err := projectOf(c, st)
	if err != nil {
		return nil, err
	}
	w, err := read(ctx, c, projectID, st.Service.Name)
	if err != nil {
		return nil, err
	}
	p := diff(st, projectID, w)
	return p, p.err()
}

func projectOf(c *dbcloud.Client, st *State) (string, error) {
	if st.ProjectID != "" {
		return st.ProjectID, nil
	}
	if c.ProjectID() == "" {
		return "", fmt.Errorf("deploy: no project: set State.ProjectID or dbcloud.WithProjectID")
	}
	return c.ProjectID(), nil
}

// planner builds a plan from a state and the world.
type planner struct {
	*Plan
	st *State
	w  *world
}

// diff is the plan that brings w to st.
func (st *State) diff(projectID string, w *world) *Plan {
	pl := &planner{Plan: &Plan{ProjectID: projectID, Service: st.Service.Name, Changes: []Change{}}, st: st, w: w}
	svc, err := w.one(dbcloud.KindService, st.Service.Name)
	if err != nil {
		pl.problem(err.(*DuplicateNameError).problem())
		return pl.Plan
	}
	env := pl.service(svc)
	for i := range st.ReplicaSets {
		pl.replicaSet(&st.ReplicaSets[i], env)
	}
	for i := range st.Forks {
		pl.fork(&st.Forks[i])
	}
	if st.Prune && svc != nil {
		pl.prune()
	}
	return pl.Plan
}

func (pl *planner) add(c Change)      { pl.Changes = append(pl.Changes, c) }
func (pl *planner) problem(p Problem) { pl.Problems = append(pl.Problems, p) }

func (e *DuplicateNameError) problem() Problem {
	return Problem{Kind: e.Kind, Name: e.Name, IDs: e.IDs, Reason: fmt.Sprintf("%d %ss are named %q: delete the extra ones", len(e.IDs), e.Kind, e.Name)}
}

// service plans the service and returns its environment once the plan's
// changes are made, which a new replica set starts with.
func (pl *planner) service(e *entry) dbcloud.Environment {
	want := &pl.st.Service
	var cur *Values
	id := ""
	if e == nil {
		pl.add(Change{Action: Create, Kind: dbcloud.KindService, Name: want.Name, To: want.created()})
		pl.Seen = append(pl.Seen, Seen{Kind: dbcloud.KindService, Name: want.Name})
		cur = &Values{HAReplicas: want.HAReplicas, Environment: cmp.Or(want.Environment, dbcloud.EnvironmentDev),
			Pooler: new(false), VPCID: new("")}
		cur.CPUMillis, cur.MemoryGBs = want.CPUMillis, want.MemoryGBs
	} else {
		cur, id = new(*e.vals), e.id // the changes below move it, not the world
		pl.Seen = append(pl.Seen, Seen{Kind: dbcloud.KindService, Name: want.Name, ID: id, Values: managed(want.wanted(), cur, serviceFields)})
		pl.typeProblem(want, e.svc)
		pl.status(dbcloud.KindService, want.Name, e, true)
	}
	pl.updates(dbcloud.KindService, want.Name, id, want.wanted(), cur, serviceFields)
	return cmp.Or(want.Environment, cur.Environment)
}

// status plans the wait (and, with start, the start of a paused service)
// that brings a resource found in passing to READY (active).
func (pl *planner) status(kind dbcloud.ResourceKind, name string, e *entry, start bool) {
	ready := string(dbcloud.StatusReady)
	if kind == dbcloud.KindReplicaSet {
		ready = string(dbcloud.ReplicaSetActive)
	}
	s := e.vals.Status
	if s == ready || !start && (s == string(dbcloud.StatusPaused) || s == string(dbcloud.StatusPausing)) {
		return
	}
	pl.add(Change{Action: Update, Kind: kind, Name: name, ID: e.id, Field: FieldStatus, From: &Values{Status: s}, To: &Values{Status: ready}})
}

// updates plans the changes of fields that bring cur to want; cur is
// updated as the changes leave it.
func (pl *planner) updates(kind dbcloud.ResourceKind, name, id string, want, cur *Values, fields []Field) {
	for _, f := range fields {
		w := want.text(f)
		if w == "" || cur.text(f) == w {
			continue
		}
		if f == FieldVPC && cur.text(f) != "none" {
			// Another VPC: detached first, a change of its own, since
			// the API attaches a service to one VPC at a time.
			pl.add(Change{Action: Update, Kind: kind, Name: name, ID: id, Field: f, From: cur.only(f), To: &Values{VPCID: new("")}})
			cur.VPCID = new("")
		}
		pl.add(Change{Action: Update, Kind: kind, Name: name, ID: id, Field: f, From: cur.only(f), To: want.only(f)})
		cur.copyField(f, want)
	}
}

// typeProblem reports an existing service whose type the state's addons
// would not give: a type is chosen at creation, never changed. No addons
// manage no type. With both addons the type is the time-series one, which
// carries the AI extensions too.
func (pl *planner) typeProblem(want *Service, svc *dbcloud.Service) {
	if len(want.Addons) == 0 || svc.ServiceType == "" {
		return
	}
	wantType := dbcloud.ServiceTypeVector
	if slices.Contains(want.Addons, dbcloud.AddonTimeSeries) {
		wantType = dbcloud.ServiceTypeTimeSeries
	}
	if svc.ServiceType != wantType {
		pl.problem(Problem{Kind: dbcloud.KindService, Name: svc.Name, IDs: []string{svc.ServiceID}, Field: FieldType,
			Reason: fmt.Sprintf("is %s, the state's addons make %s: a type cannot change", svc.ServiceType, wantType)})
	}
}

// replicaSet plans a set; env is the service's environment, which a new
// set starts with.
func (pl *planner) replicaSet(want *ReplicaSet, env dbcloud.Environment) {
	e, err := pl.w.one(dbcloud.KindReplicaSet, want.Name)
	if err != nil {
		pl.problem(err.(*DuplicateNameError).problem())
		return
	}
	kind, id := dbcloud.KindReplicaSet, ""
	var cur *Values
	if e == nil {
		if want.Nodes < 1 || want.CPUMillis < 1 || want.MemoryGBs < 1 {
			pl.problem(Problem{Kind: kind, Name: want.Name, Field: FieldSize, Reason: "does not exist, and creating it needs Nodes, CPUMillis and MemoryGBs"})
			return
		}
		pl.add(Change{Action: Create, Kind: kind, Name: want.Name, To: &Values{Nodes: want.Nodes, CPUMillis: want.CPUMillis, MemoryGBs: want.MemoryGBs}})
		pl.Seen = append(pl.Seen, Seen{Kind: kind, Name: want.Name})
		cur = &Values{Nodes: want.Nodes, CPUMillis: want.CPUMillis, MemoryGBs: want.MemoryGBs, Environment: env, Pooler: new(false)}
	} else {
		cur, id = new(*e.vals), e.id
		pl.Seen = append(pl.Seen, Seen{Kind: kind, Name: want.Name, ID: id, Values: managed(want.wanted(), cur, setFields)})
		switch {
		case want.Nodes != 0 && e.set.Nodes != want.Nodes:
			pl.problem(Problem{Kind: kind, Name: want.Name, IDs: []string{id}, Field: FieldNodes,
				Reason: fmt.Sprintf("has %d node(s), the state %d: the API cannot change it; delete the set (Prune and another name) to replace it", e.set.Nodes, want.Nodes)})
		case e.set.Status == dbcloud.ReplicaSetError:
			pl.problem(Problem{Kind: kind, Name: want.Name, IDs: []string{id}, Field: FieldStatus,
				Reason: "is in error: the API refuses to change it; delete it (Prune and another name) to replace it"})
		}
		pl.status(kind, want.Name, e, false)
	}
	pl.updates(kind, want.Name, id, want.wanted(), cur, setFields)
}

// fork plans a fork: its create, or, for one in passing, the wait until
// it is READY. An existing fork is kept as it is.
func (pl *planner) fork(want *Fork) {
	e, err := pl.w.one(dbcloud.KindFork, want.Name)
	switch {
	case err != nil:
		pl.problem(err.(*DuplicateNameError).problem())
	case e == nil:
		pl.add(Change{Action: Create, Kind: dbcloud.KindFork, Name: want.Name, To: want.values()})
		pl.Seen = append(pl.Seen, Seen{Kind: dbcloud.KindFork, Name: want.Name})
	default:
		pl.Seen = append(pl.Seen, Seen{Kind: dbcloud.KindFork, Name: want.Name, ID: e.id})
		pl.status(dbcloud.KindFork, want.Name, e, false)
	}
}

// prune plans the deletion of the service's replica sets and forks whose
// names the state does not name: live ones are deleted, those being
// deleted already are waited for until gone.
func (pl *planner) prune() {
	for _, e := range pl.w.entries {
		switch {
		case e.kind == dbcloud.KindReplicaSet && !slices.ContainsFunc(pl.st.ReplicaSets, func(r ReplicaSet) bool { return r.Name == e.name }),
			e.kind == dbcloud.KindFork && !slices.ContainsFunc(pl.st.Forks, func(f Fork) bool { return f.Name == e.name }):
			pl.add(deletion(e))
		}
	}
}

// deletion is the change that deletes e, or waits for it to be gone.
func deletion(e *entry) Change {
	c := Change{Action: Delete, Kind: e.kind, Name: e.name, ID: e.id}
	if e.deleting() {
		c.From = &Values{Status: e.vals.Status}
	}
	return c
}
