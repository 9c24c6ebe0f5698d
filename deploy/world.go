package deploy

import (
	"context"
	"slices"
	"sync"

	"github.com/dbcloud/dbcloud-go"
)

// world is what a run knows of a project's resources: as a read found
// them (a plan's, or a saved plan's fresh one), then as each step left
// them. Its entries hold the project's services, live or being deleted,
// the replica sets of those of the state's services whose sets were read,
// and the forks of the state's services. The steps of a run's services
// run at once, so the entries are read and changed under mu; an entry's
// settings are changed only by the steps of its own service.
type world struct {
	mu      sync.Mutex
	entries []*entry
}

// entry is one resource of the world.
type entry struct {
	kind dbcloud.ResourceKind
	// service is the name of the service the resource belongs to: its
	// own for a service, its parent's for a replica set or a fork.
	service string
	name    string
	id      string
	// planned marks a resource a saved plan's check has its create make:
	// its settings are unknown until the create answers.
	planned bool
	// parentID is a replica set's service's id.
	parentID string
	svc      *dbcloud.Service        // a service or fork, as last read
	set      *dbcloud.ReadReplicaSet // a replica set, as last read
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

// ready holds for a service READY or a replica set active.
func (e *entry) ready() bool {
	if e.kind == dbcloud.KindReplicaSet {
		return e.vals.Status == string(dbcloud.ReplicaSetActive)
	}
	return e.vals.Status == string(dbcloud.StatusReady)
}

// scope is what a read reads of a project besides its service list: which
// services are the state's (their forks are read as forks), and which of
// them have their replica sets listed.
type scope struct {
	named func(service string) bool
	sets  func(service string) bool
}

// read reads, with GETs only, the project's services, and the replica
// sets of each service of the scope whose sets it asks for and that
// exists: one List of the project's services, and one List of sets for
// each such service, up to readsAtOnce of those at once.
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
	return w, w.readSets(ctx, c, projectID, parents, sc)
}

// readsAtOnce bounds the lists of replica sets a read sends at once: as
// many as the steps of a run at the default parallelism.
const readsAtOnce = 10

// readSets lists the replica sets of each of parents (ids to names) whose
// sets sc asks for, readsAtOnce lists at a time, and returns the first
// error.
func (w *world) readSets(ctx context.Context, c *dbcloud.Client, projectID string, parents map[string]string, sc scope) error {
	slots := make(chan struct{}, readsAtOnce)
	errs := make(chan error, len(parents))
	var wg sync.WaitGroup
	for id, name := range parents {
		if !sc.sets(name) {
			continue
		}
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			sets, err := c.ReplicaSets.List(ctx, projectID, id)
			for i := range sets {
				w.putSet(name, id, &sets[i])
			}
			errs <- err
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

// service returns the live service of a name, nil when there is none (or
// several).
func (w *world) service(name string) *entry {
	if found := w.live(dbcloud.KindService, name, name); len(found) == 1 {
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
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.find(kind, svc.ServiceID)
	if e == nil {
		e = &entry{kind: kind, service: service, id: svc.ServiceID}
		w.entries = append(w.entries, e)
	}
	cp := *svc
	if cp.InitialPassword == "" && e.svc != nil {
		cp.InitialPassword = e.svc.InitialPassword
	}
	e.name, e.svc, e.vals = cp.Name, &cp, serviceValues(&cp)
	return e
}

// putSet records a replica set of the service service, of id parentID,
// as read.
func (w *world) putSet(service, parentID string, rs *dbcloud.ReadReplicaSet) *entry {
	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.find(dbcloud.KindReplicaSet, rs.ID)
	if e == nil {
		e = &entry{kind: dbcloud.KindReplicaSet, service: service, id: rs.ID, parentID: parentID}
		w.entries = append(w.entries, e)
	}
	cp := *rs
	e.name, e.set, e.vals = cp.Name, &cp, setValues(&cp)
	return e
}

// plan records a resource a saved plan's check has a create make.
func (w *world) plan(ch *Change) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.entries = append(w.entries, &entry{kind: ch.Kind, service: ch.Service, name: ch.Name, planned: true, vals: &Values{}})
}

// set sets field f of e's settings to to's: what an update that takes
// effect at once leaves.
func (w *world) set(e *entry, f Field, to *Values) {
	w.mu.Lock()
	defer w.mu.Unlock()
	vals := *e.vals
	vals.copyField(f, to)
	e.vals = &vals
}

// remove forgets a resource that is gone.
func (w *world) remove(e *entry) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if i := slices.Index(w.entries, e); i >= 0 {
		w.entries = slices.Delete(w.entries, i, i+1)
	}
}

// clone is a copy of w whose entries' settings can change apart.
func (w *world) clone() *world {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := &world{}
	for _, e := range w.entries {
		cp := *e
		vals := *e.vals
		cp.vals = &vals
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
