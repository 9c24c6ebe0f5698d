package deploy

// doomed is a resource that Prune deletes: a replica set (set) or a fork.
type doomed struct {
	kind, name, id string
}

func (d doomed) change() Change {
	return Change{Action: Delete, Kind: d.kind, Name: d.name, ID: d.id}
}

// unnamed returns the service's live replica sets and forks that st does
// not name.
func (o *observed) unnamed(st *State) []doomed {
	var out []doomed
	for _, rs := range o.sets {
		if !named(st.ReplicaSets, func(r ReplicaSet) string { return r.Name }, rs.Name) {
			out = append(out, doomed{KindReplicaSet, rs.Name, rs.ID})
		}
	}
	for _, f := range o.forks {
		if !named(st.Forks, func(f Fork) string { return f.Name }, f.Name) {
			out = append(out, doomed{KindFork, f.Name, f.ServiceID})
		}
	}
	return out
}

func named[T any](list []T, name func(T) string, want string) bool {
	for _, v := range list {
		if name(v) == want {
			return true
		}
	}
	return false
}
