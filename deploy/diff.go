package deploy

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/dbcloud/dbcloud-go"
)

// planner builds the changes of one service of a state.
type planner struct {
	*Plan
	st   *State
	want *Service
	w    *world
}

// diff is the plan that brings w to st: its VPCs first, which its
// services attach to, then its services, then what it prunes. Each
// change planned is applied to a copy of w (Plan.add), from which the
// changes after it are planned.
func (st *State) diff(projectID string, w *world) *Plan {
	p := &Plan{ProjectID: projectID, Changes: []Change{}}
	w = w.clone()
	for i := range st.VPCs {
		p.vpc(st, &st.VPCs[i], w)
	}
	for i := range st.Services {
		pl := &planner{Plan: p, st: st, want: &st.Services[i], w: w}
		pl.service()
	}
	if st.PruneServices {
		for _, e := range w.all(dbcloud.KindService) {
			if st.service(e.name) == nil {
				p.delete(st, w, e)
			}
		}
	}
	if st.PruneVPCs {
		for _, e := range w.all(dbcloud.KindVPC) {
			if !st.vpcNamed(e.values().Name, e.id) {
				p.deleteVPC(st, w, e)
			}
		}
	}
	return p
}

// add plans c and applies it to w, the planner's copy of the world: it
// returns c's resource as c leaves it (see world.apply).
func (p *Plan) add(w *world, c Change) *entry {
	p.Changes = append(p.Changes, c)
	return w.apply(&c)
}

func (p *Plan) problem(q Problem) { p.Problems = append(p.Problems, q) }
func (p *Plan) saw(s Seen)        { p.Seen = append(p.Seen, s) }

// delete plans the deletion of e, or, when st protects it (a service or
// VPC), a problem.
func (p *Plan) delete(st *State, w *world, e *entry) {
	if (e.kind == dbcloud.KindService || e.kind == dbcloud.KindVPC) && slices.Contains(st.Protected, e.name) {
		p.problem(Problem{Kind: e.kind, Service: e.service, Name: e.name, IDs: []string{e.id},
			Reason: "is protected (the state's protected names it), and this plan would delete it"})
		return
	}
	p.add(w, deletion(e))
}

// vpc plans a VPC of the state: its create, or, for one found, its
// rename, then its peerings (created, or waited for until active) and,
// with Prune, the deletion of those it does not name.
func (p *Plan) vpc(st *State, want *VPC, w *world) {
	kind, name := dbcloud.KindVPC, want.Name
	e, err := w.one(kind, name, name)
	found := e != nil
	switch {
	case err != nil:
		p.problem(err.(*DuplicateNameError).problem(name))
		return
	case e == nil && want.ID != "":
		p.problem(Problem{Kind: kind, Service: name, Name: name, IDs: []string{want.ID},
			Reason: "the state names it by id, and the project has no VPC of that id: drop the id to create one"})
		return
	case e == nil:
		p.add(w, Change{Action: Create, Kind: kind, Service: name, Name: name, To: &Values{Name: name, CIDR: want.CIDR, RegionCode: want.RegionCode}})
		p.saw(Seen{Kind: kind, Service: name, Name: name})
	default:
		p.saw(Seen{Kind: kind, Service: name, Name: name, ID: e.id, Values: e.values().only(FieldName)})
		wantVals := &Values{CIDR: want.CIDR, RegionCode: want.RegionCode}
		for _, f := range []Field{FieldCIDR, FieldRegion} {
			if !e.values().same(f, wantVals) {
				p.problem(Problem{Kind: kind, Service: name, Name: name, IDs: []string{e.id}, Field: f,
					Reason: fmt.Sprintf("has %s %s, the state %s: a VPC's range and region are chosen at its creation; create another VPC to change them", f, e.values().show(f), wantVals.show(f))})
			}
		}
		if e.values().Name != name {
			p.add(w, Change{Action: Update, Kind: kind, Service: name, Name: name, ID: e.id, Field: FieldName, From: e.values().only(FieldName), To: &Values{Name: name}})
		}
	}
	for i := range want.Peerings {
		p.peering(name, &want.Peerings[i], w)
	}
	if st.Prune && found {
		for _, pe := range w.of(dbcloud.KindPeering, name) {
			if !slices.ContainsFunc(want.Peerings, func(x Peering) bool { return x.name() == pe.name }) {
				p.add(w, deletion(pe))
			}
		}
	}
}

// peering plans a peering of the state's VPC vpc: its create, or, for one
// found pending, the wait until it is active. One that failed (an error
// message, or a status from which the API's WaitForActive says it cannot
// become active: failed, rejected, expired) is a problem, with the API's
// message: the API does not try it again.
func (p *Plan) peering(vpc string, want *Peering, w *world) {
	kind, name := dbcloud.KindPeering, want.name()
	e, err := w.one(kind, vpc, name)
	switch {
	case err != nil:
		p.problem(err.(*DuplicateNameError).problem(vpc))
	case e == nil:
		p.add(w, Change{Action: Create, Kind: kind, Service: vpc, Name: name, To: want.values()})
		p.saw(Seen{Kind: kind, Service: vpc, Name: name})
	case e.peering.ErrorMessage != "" || slices.ContainsFunc([]string{string(dbcloud.PeeringFailed), "rejected", "expired"}, func(s string) bool { return strings.EqualFold(e.status(), s) }):
		p.problem(Problem{Kind: kind, Service: vpc, Name: name, IDs: []string{e.id}, Field: FieldStatus,
			Reason: fmt.Sprintf("failed (%s): delete it (Prune, without it in the state), then plan it again", cmp.Or(e.peering.ErrorMessage, e.status()))})
	default:
		p.saw(Seen{Kind: kind, Service: vpc, Name: name, ID: e.id})
		if !e.ready() {
			p.add(w, Change{Action: Update, Kind: kind, Service: vpc, Name: name, ID: e.id, Field: FieldStatus,
				From: &Values{Status: e.status()}, To: &Values{Status: string(dbcloud.PeeringActive)}})
		}
	}
}

// deleteVPC plans the deletion of VPC e, after the detachment of each
// live service attached to it once the changes planned before are made
// (which may move it off, or delete it); or, when st protects it, a
// problem.
func (p *Plan) deleteVPC(st *State, w *world, e *entry) {
	if slices.Contains(st.Protected, e.name) {
		p.delete(st, w, e)
		return
	}
	for _, svc := range w.filter(func(x *entry) bool {
		return (x.kind == dbcloud.KindService || x.kind == dbcloud.KindFork) && !x.deleting() && deref(x.values().VPCID) == e.id
	}) {
		p.add(w, Change{Action: Update, Kind: svc.kind, Service: svc.service, Name: svc.name, ID: svc.id, Field: FieldVPC,
			From: svc.values().only(FieldVPC), To: &Values{VPCID: new("")}})
	}
	p.add(w, deletion(e))
}

// add plans c, as Plan.add does, on the planner's copy of the world.
func (pl *planner) add(c Change) *entry { return pl.Plan.add(pl.w, c) }

// wanted are the settings the state manages of the planner's service,
// its VPC by id: the state's VPC's once it exists (not one the plan
// creates).
func (pl *planner) wanted() *Values {
	v := pl.want.wanted()
	if v.VPC != "" {
		if e, _ := pl.w.one(dbcloud.KindVPC, v.VPC, v.VPC); e != nil && !e.planned() {
			v.VPCID = &e.id
		}
	}
	return v
}

// service plans a service of the state, its replica sets and its forks.
func (pl *planner) service() {
	want := pl.want
	e, err := pl.w.one(dbcloud.KindService, want.Name, want.Name)
	if err != nil {
		pl.problem(err.(*DuplicateNameError).problem(pl.want.Name))
		return
	}
	found := e != nil
	if found {
		pl.saw(Seen{Kind: dbcloud.KindService, Service: want.Name, Name: want.Name, ID: e.id, Values: managed(pl.wanted(), e.values(), serviceFields)})
		pl.typeProblem(e.svc)
		pl.status(dbcloud.KindService, want.Name, e, true)
	} else {
		e = pl.add(Change{Action: Create, Kind: dbcloud.KindService, Service: want.Name, Name: want.Name, To: want.created()})
		pl.saw(Seen{Kind: dbcloud.KindService, Service: want.Name, Name: want.Name})
	}
	pl.updates(e, pl.wanted(), serviceFields)
	for i := range want.ReplicaSets {
		pl.replicaSet(&want.ReplicaSets[i])
	}
	for i := range want.Forks {
		pl.fork(&want.Forks[i])
	}
	if pl.st.Prune && found {
		pl.prune()
	}
}

// status plans the wait (and, with start, the start of a paused service)
// that brings a resource found in passing to READY (active).
func (pl *planner) status(kind dbcloud.ResourceKind, name string, e *entry, start bool) {
	ready := string(dbcloud.StatusReady)
	if kind == dbcloud.KindReplicaSet {
		ready = string(dbcloud.ReplicaSetActive)
	}
	s := e.status()
	if s == ready || !start && (s == string(dbcloud.StatusPaused) || s == string(dbcloud.StatusPausing)) {
		return
	}
	pl.add(Change{Action: Update, Kind: kind, Service: pl.want.Name, Name: name, ID: e.id, Field: FieldStatus, From: &Values{Status: s}, To: &Values{Status: ready}})
}

// updates plans the changes of fields that bring e to want, each from e
// as the changes before it leave it.
func (pl *planner) updates(e *entry, want *Values, fields []Field) {
	change := func(f Field, to *Values) Change {
		return Change{Action: Update, Kind: e.kind, Service: pl.want.Name, Name: e.name, ID: e.id, Field: f, From: e.values().only(f), To: to}
	}
	for _, f := range fields {
		if !want.has(f) || want.same(f, e.values()) {
			continue
		}
		if f == FieldVPC && deref(e.values().VPCID) != "" {
			// Another VPC: detached first, a change of its own, since
			// the API attaches a service to one VPC at a time.
			pl.add(change(f, &Values{VPCID: new("")}))
		}
		pl.add(change(f, want.only(f)))
	}
}

// typeProblem reports an existing service whose type the state's addons
// would not give: a type is chosen at creation, never changed. No addons
// manage no type. With both addons the type is the time-series one, which
// carries the AI extensions too.
func (pl *planner) typeProblem(svc *dbcloud.Service) {
	if len(pl.want.Addons) == 0 || svc.ServiceType == "" {
		return
	}
	wantType := dbcloud.ServiceTypeVector
	if slices.Contains(pl.want.Addons, dbcloud.AddonTimeSeries) {
		wantType = dbcloud.ServiceTypeTimeSeries
	}
	if svc.ServiceType != wantType {
		pl.problem(Problem{Kind: dbcloud.KindService, Service: svc.Name, Name: svc.Name, IDs: []string{svc.ServiceID}, Field: FieldType,
			Reason: fmt.Sprintf("is %s, the state's addons make %s: a type cannot change", svc.ServiceType, wantType)})
	}
}

// replicaSet plans a set: a new one starts with its service's
// environment (see made).
func (pl *planner) replicaSet(want *ReplicaSet) {
	kind, service := dbcloud.KindReplicaSet, pl.want.Name
	e, err := pl.w.one(kind, service, want.Name)
	if err != nil {
		pl.problem(err.(*DuplicateNameError).problem(pl.want.Name))
		return
	}
	if e == nil {
		if want.Nodes < 1 || want.CPUMillis < 1 || want.MemoryGBs < 1 {
			pl.problem(Problem{Kind: kind, Service: service, Name: want.Name, Field: FieldSize, Reason: "does not exist, and creating it needs Nodes, CPUMillis and MemoryGBs"})
			return
		}
		e = pl.add(Change{Action: Create, Kind: kind, Service: service, Name: want.Name, To: &Values{Nodes: want.Nodes, CPUMillis: want.CPUMillis, MemoryGBs: want.MemoryGBs}})
		pl.saw(Seen{Kind: kind, Service: service, Name: want.Name})
	} else {
		cur, id, wantNodes := e.values(), e.id, &Values{Nodes: want.Nodes}
		pl.saw(Seen{Kind: kind, Service: service, Name: want.Name, ID: id, Values: managed(want.wanted(), cur, setFields)})
		switch {
		case wantNodes.has(FieldNodes) && !cur.same(FieldNodes, wantNodes):
			pl.problem(Problem{Kind: kind, Service: service, Name: want.Name, IDs: []string{id}, Field: FieldNodes,
				Reason: fmt.Sprintf("has %s node(s), the state %s: the API cannot change it; delete the set (Prune and another name) to replace it", cur.show(FieldNodes), wantNodes.show(FieldNodes))})
		case cur.Status == string(dbcloud.ReplicaSetError):
			pl.problem(Problem{Kind: kind, Service: service, Name: want.Name, IDs: []string{id}, Field: FieldStatus,
				Reason: "is in error: the API refuses to change it; delete it (Prune and another name) to replace it"})
		}
		pl.status(kind, want.Name, e, false)
	}
	pl.updates(e, want.wanted(), setFields)
}

// fork plans a fork: its create, or, for one in passing, the wait until
// it is READY. An existing fork is kept as it is.
func (pl *planner) fork(want *Fork) {
	kind, service := dbcloud.KindFork, pl.want.Name
	e, err := pl.w.one(kind, service, want.Name)
	switch {
	case err != nil:
		pl.problem(err.(*DuplicateNameError).problem(pl.want.Name))
	case e == nil:
		pl.add(Change{Action: Create, Kind: kind, Service: service, Name: want.Name, To: want.values()})
		pl.saw(Seen{Kind: kind, Service: service, Name: want.Name})
	default:
		pl.saw(Seen{Kind: kind, Service: service, Name: want.Name, ID: e.id})
		pl.status(kind, want.Name, e, false)
	}
}

// prune plans the deletion of the service's replica sets and forks whose
// names the state does not name: live ones are deleted, those being
// deleted already are waited for until gone.
func (pl *planner) prune() {
	for _, e := range pl.w.of(dbcloud.KindFork, pl.want.Name) {
		if !slices.ContainsFunc(pl.want.Forks, func(f Fork) bool { return f.Name == e.name }) {
			pl.add(deletion(e))
		}
	}
	for _, e := range pl.w.of(dbcloud.KindReplicaSet, pl.want.Name) {
		if !slices.ContainsFunc(pl.want.ReplicaSets, func(r ReplicaSet) bool { return r.Name == e.name }) {
			pl.add(deletion(e))
		}
	}
}

// deletion is the change that deletes e, or waits for it to be gone.
func deletion(e *entry) Change {
	c := Change{Action: Delete, Kind: e.kind, Service: e.service, Name: e.name, ID: e.id}
	if e.deleting() {
		c.From = &Values{Status: e.status()}
	}
	return c
}
