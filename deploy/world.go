package deploy

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/dbcloud/dbcloud-go"
)

// world is what a run knows of a project's resources: as a read found
// them (a plan's, or a saved plan's fresh one), then as each step left
// them; or, in the planner's and a saved plan's check's copies of a read
// (clone), as the plan's changes leave them (apply). Its entries hold the
// project's services, live or being deleted, the replica sets of those
// of the state's services whose sets were read, the forks of the state's
// services, and, when the state has any to do with VPCs, the project's
// VPCs and the peerings of the state's. The steps of a run's services run
// at once, so the entries are read and changed under mu; an entry's
// settings are changed only by the steps of its own service.
type world struct {
	mu      sync.Mutex
	entries []*entry
}

// entry is one resource of the world.
type entry struct {
	kind dbcloud.ResourceKind
	// service is the name of the service the resource belongs to: its
	// own for a service, its parent's for a replica set or a fork; for a
	// VPC, its name in the state (see scope.vpcName), and a peering's
	// VPC's.
	service string
	name    string
	id      string
	// parentID is a replica set's service's id, a peering's VPC's.
	parentID string
	// The resource as last read, the one of its kind: the record its
	// settings (values) are read from, and a Result returns.
	svc     *dbcloud.Service        // a service or fork
	set     *dbcloud.ReadReplicaSet // a replica set
	vpc     *dbcloud.VPC            // a VPC
	peering *dbcloud.Peering        // a peering
	// since are the settings the changes applied since that read set
	// (apply), which no read shows yet: a step's that takes effect at
	// once (a pooler, an environment, a VPC), or, in a copy, a planned
	// change's; all of a planned resource's. Nil when none.
	since *Values
}

// planned holds for a resource a change's create makes (see apply),
// which no read has shown: its settings are those the create gives it,
// its id unknown until the create answers.
func (e *entry) planned() bool {
	return e.svc == nil && e.set == nil && e.vpc == nil && e.peering == nil
}

// values are e's settings: as last read, with since on top.
func (e *entry) values() *Values {
	var v *Values
	switch {
	case e.svc != nil:
		v = serviceValues(e.svc)
	case e.set != nil:
		v = setValues(e.set)
	case e.vpc != nil:
		v = vpcValues(e.vpc)
	case e.peering != nil:
		v = peeringValues(e.peering)
	default:
		v = &Values{}
	}
	for _, f := range allFields {
		if e.since.has(f) {
			v.copyField(f, e.since)
		}
	}
	return v
}

// status is e's status, as values has it.
func (e *entry) status() string { return e.values().Status }

// deleting holds for a resource on its way out: it no longer counts as
// the state's, and a delete only waits for it.
func (e *entry) deleting() bool {
	status := e.status()
	switch status {
	case string(dbcloud.StatusDeleting), string(dbcloud.StatusDeleted), string(dbcloud.ReplicaSetDeleting):
		return true
	}
	// A peering's status is the API's free text, in any case.
	return e.kind == dbcloud.KindPeering && (strings.EqualFold(status, "deleting") || strings.EqualFold(status, "deleted"))
}

// ready holds for a service READY, a replica set or peering active, and
// a VPC, which has no status.
func (e *entry) ready() bool {
	switch e.kind {
	case dbcloud.KindReplicaSet:
		return e.status() == string(dbcloud.ReplicaSetActive)
	case dbcloud.KindVPC:
		return true
	case dbcloud.KindPeering:
		return strings.EqualFold(e.status(), string(dbcloud.PeeringActive))
	}
	return e.status() == string(dbcloud.StatusReady)
}

// scope is what a read reads of a project besides its service list: which
// services are the state's (their forks are read as forks), which of
// them have their replica sets listed; whether the project's VPCs are
// listed, each VPC's name in the state, and which of the state's VPCs
// have their peerings listed.
type scope struct {
	named func(service string) bool
	sets  func(service string) bool
	vpcs  bool
	// vpcName is the name the state gives the VPC of an id and name as
	// read: another than name for a VPC the state names by id.
	vpcName  func(id, name string) string
	peerings func(vpc string) bool
}

// read reads, with GETs only, the project's services, the replica sets of
// each service of the scope whose sets it asks for and that exists, and,
// when the scope asks, its VPCs and the peerings of those it asks for:
// one List of the project's services, one of its VPCs, and one List of
// sets (of peerings) for each such service (VPC), up to readsAtOnce of
// those at once.
func read(ctx context.Context, c *dbcloud.Client, projectID string, sc scope) (*world, error) {
	all, err := c.Services.List(ctx, projectID)
	if err != nil {
		return nil, err
	}
	w := &world{}
	live := map[string]int{} // live services by name
	for i := range all {
		if !deletingStatus(all[i].Status) {
			live[all[i].Name]++
		}
	}
	parents := map[string]string{} // the id of each named service that has one live service, to its name
	for i := range all {
		if sc.named(all[i].Name) && live[all[i].Name] == 1 && !deletingStatus(all[i].Status) {
			parents[all[i].ServiceID] = all[i].Name
		}
	}
	for i := range all {
		svc := &all[i]
		if p, ok := parents[forkedFrom(svc)]; ok && !sc.named(svc.Name) {
			w.putService(dbcloud.KindFork, p, svc)
		} else {
			w.putService(dbcloud.KindService, svc.Name, svc)
		}
	}
	var lists []func() error
	for id, name := range parents {
		if sc.sets(name) {
			lists = append(lists, func() error {
				sets, err := c.ReplicaSets.List(ctx, projectID, id)
				for i := range sets {
					w.putSet(name, id, &sets[i])
				}
				return err
			})
		}
	}
	if sc.vpcs {
		vpcs, err := c.VPCs.List(ctx, projectID)
		if err != nil {
			return nil, err
		}
		for i := range vpcs {
			e := w.putVPC(sc.vpcName(vpcs[i].ID, vpcs[i].Name), &vpcs[i])
			if sc.peerings(e.service) {
				lists = append(lists, func() error {
					ps, err := c.Peerings.List(ctx, projectID, e.id)
					for i := range ps {
						w.putPeering(e.service, e.id, &ps[i])
					}
					return err
				})
			}
		}
	}
	return w, readAll(lists)
}

// readsAtOnce bounds the lists of replica sets (peerings) a read sends at
// once: as many as the steps of a run at the default parallelism.
const readsAtOnce = 10

// readAll runs lists, readsAtOnce at a time, and returns the first error.
func readAll(lists []func() error) error {
	slots := make(chan struct{}, readsAtOnce)
	errs := make(chan error, len(lists))
	var wg sync.WaitGroup
	for _, list := range lists {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			errs <- list()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func forkedFrom(svc *dbcloud.Service) string {
	if svc.ForkedFrom == nil {
		return ""
	}
	return svc.ForkedFrom.ServiceID
}

func deletingStatus(s dbcloud.ServiceStatus) bool {
	return s == dbcloud.StatusDeleting || s == dbcloud.StatusDeleted
}

// live returns the live resources of a kind, service and name.
func (w *world) live(kind dbcloud.ResourceKind, service, name string) []*entry {
	return w.filter(func(e *entry) bool {
		return e.kind == kind && e.service == service && e.name == name && !e.deleting()
	})
}

// one returns the live resource of a kind, service and name: nil when
// there is none, a *DuplicateNameError when there are several.
func (w *world) one(kind dbcloud.ResourceKind, service, name string) (*entry, error) {
	found := w.live(kind, service, name)
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return found[0], nil
	}
	return nil, duplicate(kind, name, found)
}

// service returns the live service (or VPC, of kind) of a name, nil
// when there is none (or several).
func (w *world) service(kind dbcloud.ResourceKind, name string) *entry {
	if found := w.live(kind, name, name); len(found) == 1 {
		return found[0]
	}
	return nil
}

// of returns the resources of a kind of a service.
func (w *world) of(kind dbcloud.ResourceKind, service string) []*entry {
	return w.filter(func(e *entry) bool { return e.kind == kind && e.service == service })
}

// all returns the resources of a kind.
func (w *world) all(kind dbcloud.ResourceKind) []*entry {
	return w.filter(func(e *entry) bool { return e.kind == kind })
}

func (w *world) filter(keep func(*entry) bool) []*entry {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []*entry
	for _, e := range w.entries {
		if keep(e) {
			out = append(out, e)
		}
	}
	return out
}

// byID returns the resource of a kind and id, nil when it is gone.
func (w *world) byID(kind dbcloud.ResourceKind, id string) *entry {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.find(kind, id)
}

func (w *world) find(kind dbcloud.ResourceKind, id string) *entry {
	for _, e := range w.entries {
		if e.kind == kind && e.id == id {
			return e
		}
	}
	return nil
}

// putService records a service or fork of the service named service as
// read, keeping the password an earlier answer (its create's) carried,
// since reads never carry one.
func (w *world) putService(kind dbcloud.ResourceKind, service string, svc *dbcloud.Service) *entry {
	cp := *svc
	return w.put(entry{kind: kind, service: service, id: svc.ServiceID}, func(e *entry) {
		if cp.InitialPassword == "" && e.svc != nil {
			cp.InitialPassword = e.svc.InitialPassword
		}
		e.name, e.svc = cp.Name, &cp
	})
}

// putSet records a replica set of the service service, of id parentID,
// as read.
func (w *world) putSet(service, parentID string, rs *dbcloud.ReadReplicaSet) *entry {
	cp := *rs
	return w.put(entry{kind: dbcloud.KindReplicaSet, service: service, id: rs.ID, parentID: parentID}, func(e *entry) {
		e.name, e.set = cp.Name, &cp
	})
}

// putVPC records a VPC, named name in the state, as read.
func (w *world) putVPC(name string, v *dbcloud.VPC) *entry {
	cp := *v
	return w.put(entry{kind: dbcloud.KindVPC, service: name, name: name, id: v.ID}, func(e *entry) {
		e.vpc = &cp
	})
}

// putPeering records a peering of the VPC of id vpcID, named vpc in the
// state, as read.
func (w *world) putPeering(vpc, vpcID string, p *dbcloud.Peering) *entry {
	cp := *p
	return w.put(entry{kind: dbcloud.KindPeering, service: vpc, id: p.ID, parentID: vpcID}, func(e *entry) {
		e.name, e.peering = peeringOf(&cp).name(), &cp
	})
}

// put records a resource as read, the one rule the put functions share:
// the entry of fresh's kind and id (fresh itself, added, when w has none)
// takes what read sets, and the changes applied since an earlier read
// are dropped, this read showing them.
func (w *world) put(fresh entry, read func(*entry)) *entry {
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.find(fresh.kind, fresh.id)
	if e == nil {
		e = &fresh
		w.entries = append(w.entries, e)
	}
	read(e)
	e.since = nil
	return e
}

// peeringOf is the peer of a peering as read.
func peeringOf(p *dbcloud.Peering) *Peering {
	return &Peering{PeerAccountID: p.PeerAccountID, PeerRegionCode: p.PeerRegionCode, PeerVPCID: p.PeerVPCID}
}

// apply records in w the effect of ch, a change whose precondition
// holds, and returns its resource as ch leaves it (nil once deleted): a
// create's resource, planned, with the settings its create gives it
// (made); a delete's gone; an update's field as ch sets it, until a read
// shows it. A saved plan's check (on a copy of its fresh read) and the
// steps (on the run's world, for what takes effect at once) record a
// change's effect through it alone.
func (w *world) apply(ch *Change) *entry {
	var parent *entry
	if ch.Action == Create && ch.Kind == dbcloud.KindReplicaSet {
		parent = w.service(dbcloud.KindService, ch.Service)
	}
	e, _ := w.findFor(ch)
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case ch.Action == Create:
		e = &entry{kind: ch.Kind, service: ch.Service, name: ch.Name, since: made(ch, parent)}
		w.entries = append(w.entries, e)
	case e == nil:
	case ch.Action == Delete:
		if i := slices.Index(w.entries, e); i >= 0 {
			w.entries = slices.Delete(w.entries, i, i+1)
		}
		return nil
	default:
		since := &Values{}
		if e.since != nil {
			since = new(*e.since)
		}
		since.copyField(ch.Field, ch.To)
		e.since = since
	}
	return e
}

// made are the settings the create ch gives its resource, as the API
// makes them: what it sends, and, for a service or fork, the environment
// dev unless sent, no pooler and no VPC; for a replica set, no pooler and
// the environment of its service, parent.
func made(ch *Change, parent *entry) *Values {
	v := &Values{}
	if ch.To != nil {
		v = new(*ch.To)
	}
	switch ch.Kind {
	case dbcloud.KindService, dbcloud.KindFork:
		v.Environment, v.Pooler, v.VPCID = cmp.Or(v.Environment, dbcloud.EnvironmentDev), new(false), new("")
	case dbcloud.KindReplicaSet:
		v.Pooler = new(false)
		if parent != nil {
			v.Environment = parent.values().Environment
		}
	}
	return v
}

// clone is a copy of w whose entries can change apart.
func (w *world) clone() *world {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := &world{}
	for _, e := range w.entries {
		cp := *e // set changes since by a copy: the two share none
		out.entries = append(out.entries, &cp)
	}
	return out
}

func duplicate(kind dbcloud.ResourceKind, name string, found []*entry) *DuplicateNameError {
	e := &DuplicateNameError{Kind: kind, Name: name}
	for _, f := range found {
		e.IDs = append(e.IDs, f.id)
	}
	return e
}
