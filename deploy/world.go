package deploy

import (
	"context"

	"github.com/dbcloud/dbcloud-go"
)

// world is what a run knows of the resources of one service name: as a
// read found them (a plan's, or a saved plan's fresh one), then as each
// step left them. Its entries hold the service(s) of that name, live or
// being deleted, the live service's replica sets and its forks.
type world struct {
	entries []*entry
}

// entry is one resource of the world.
type entry struct {
	kind dbcloud.ResourceKind
	name string
	id   string
	// planned marks a resource a saved plan's check has its create make:
	// its settings are unknown until the create answers.
	planned bool
	// parent is a replica set's service.
	parent string
	svc    *dbcloud.Service        // a service or fork, as last read
	set    *dbcloud.ReadReplicaSet // a replica set, as last read
	// vals are its settings: as last read, with what the steps since then
	// changed at once (a pooler, an environment, a VPC) on top.
	vals *Values
}

// deleting holds for a resource on its way out: it no longer counts as
// the state's, and a delete only waits for it.
func (e *entry) deleting() bool {
	switch e.vals.Status {
	case string(dbcloud.StatusDeleting), string(dbcloud.StatusDeleted), string(dbcloud.ReplicaSetDeleting):
		return true
	}
	return false
}

// read reads, with GETs only, the project's services of the name, the
// live one's replica sets and its forks: a List of the project's services,
// and a List of the sets when the service exists (2 GETs, 1 without it).
func read(ctx context.Context, c *dbcloud.Client, projectID, name string) (*world, error) {
	all, err := c.Services.List(ctx, projectID)
	if err != nil {
		return nil, err
	}
	w := &world{}
	for i := range all {
		if all[i].Name == name {
			w.putService(dbcloud.KindService, &all[i])
		}
	}
	svcs := w.live(dbcloud.KindService, name)
	if len(svcs) != 1 {
		return w, nil
	}
	svc := svcs[0].svc
	for i := range all {
		if all[i].ForkedFrom != nil && all[i].ForkedFrom.ServiceID == svc.ServiceID {
			w.putService(dbcloud.KindFork, &all[i])
		}
	}
	sets, err := c.ReplicaSets.List(ctx, projectID, svc.ServiceID)
	if err != nil {
		return nil, err
	}
	for i := range sets {
		w.putSet(svc.ServiceID, &sets[i])
	}
	return w, nil
}

// live returns the live resources of a kind and name.
func (w *world) live(kind dbcloud.ResourceKind, name string) []*entry {
	var out []*entry
	for _, e := range w.entries {
		if e.kind == kind && e.name == name && !e.deleting() {
			out = append(out, e)
		}
	}
	return out
}

// one returns the live resource of a kind and name: nil when there is
// none, a *DuplicateNameError when there are several.
func (w *world) one(kind dbcloud.ResourceKind, name string) (*entry, error) {
	found := w.live(kind, name)
	switch len(found) {
	case 0:
		return nil, nil
	case 1:
		return found[0], nil
	}
	return nil, duplicate(kind, name, found)
}

// service returns the live service, nil when there is none (or several).
func (w *world) service() *entry {
	for _, e := range w.entries {
		if e.kind == dbcloud.KindService && !e.deleting() {
			return e
		}
	}
	return nil
}

// byID returns the resource of a kind and id, nil when it is gone.
func (w *world) byID(kind dbcloud.ResourceKind, id string) *entry {
	for _, e := range w.entries {
		if e.kind == kind && e.id == id {
			return e
		}
	}
	return nil
}

// putService records a service or fork as read, keeping the password an
// earlier answer (its create's) carried, since reads never carry one.
func (w *world) putService(kind dbcloud.ResourceKind, svc *dbcloud.Service) *entry {
	e := w.byID(kind, svc.ServiceID)
	if e == nil {
		e = &entry{kind: kind, id: svc.ServiceID}
		w.entries = append(w.entries, e)
	}
	cp := *svc
	if cp.InitialPassword == "" && e.svc != nil {
		cp.InitialPassword = e.svc.InitialPassword
	}
	e.name, e.svc, e.vals = cp.Name, &cp, serviceValues(&cp)
	return e
}

// putSet records a replica set of the service serviceID as read.
func (w *world) putSet(serviceID string, rs *dbcloud.ReadReplicaSet) *entry {
	e := w.byID(dbcloud.KindReplicaSet, rs.ID)
	if e == nil {
		e = &entry{kind: dbcloud.KindReplicaSet, id: rs.ID, parent: serviceID}
		w.entries = append(w.entries, e)
	}
	cp := *rs
	e.name, e.set, e.vals = cp.Name, &cp, setValues(&cp)
	return e
}

// remove forgets a resource that is gone.
func (w *world) remove(e *entry) {
	for i, x := range w.entries {
		if x == e {
			w.entries = append(w.entries[:i], w.entries[i+1:]...)
			return
		}
	}
}

// clone is a copy of w whose entries' settings can change apart.
func (w *world) clone() *world {
	out := &world{}
	for _, e := range w.entries {
		cp := *e
		vals := *e.vals
		cp.vals = &vals
		out.entries = append(out.entries, &cp)
	}
	return out
}
