package deploy

import (
	"slices"

	"github.com/dbcloud/dbcloud-go"
)

// destroyDiff is the plan that deletes what w holds of st: its services,
// then its VPCs, each after its peerings and the detachment of the
// services the plan does not delete.
func (st *State) destroyDiff(projectID string, w *world) *Plan {
	p := &Plan{ProjectID: projectID, Destroy: true, Changes: []Change{}}
	w = w.clone() // the plan's changes are applied to it (Plan.add)
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
				p.delete(st, w, gone[0])
			}
			continue
		}
		for _, f := range w.of(dbcloud.KindFork, want.Name) {
			if st.Prune || slices.ContainsFunc(want.Forks, func(x Fork) bool { return x.Name == f.name }) {
				p.add(w, deletion(f))
			}
		}
		for _, kind := range []dbcloud.ResourceKind{dbcloud.KindReplicaSet, dbcloud.KindService} {
			for _, e := range w.of(kind, want.Name) {
				p.add(w, deletion(e))
			}
		}
	}
	for i := range st.VPCs {
		name := st.VPCs[i].Name
		e, err := w.one(dbcloud.KindVPC, name, name)
		switch {
		case err != nil:
			p.problem(err.(*DuplicateNameError).problem(name))
			continue
		case e == nil:
			p.saw(Seen{Kind: dbcloud.KindVPC, Service: name, Name: name})
			continue
		}
		p.saw(Seen{Kind: dbcloud.KindVPC, Service: name, Name: name, ID: e.id})
		if !slices.Contains(st.Protected, name) {
			for _, pe := range w.of(dbcloud.KindPeering, name) {
				p.add(w, deletion(pe))
			}
		}
		p.deleteVPC(st, w, e)
	}
	return p
}
