package deploy

import (
	"sync"

	"github.com/dbcloud/dbcloud-go"
)

// run is one Apply or Destroy: the plan it makes, the world as it knows
// it, and what it did so far.
type run struct {
	c    *dbcloud.Client
	opts options
	p    *Plan
	w    *world
	res  *Result

	// mu makes the hooks' calls one at a time, from whichever service's
	// steps they come.
	mu sync.Mutex
	// creator is c with create recovery, made for the run's first create,
	// so that an ambiguous create is resolved within the run; creatorMu
	// guards it, apart from mu, so that a slow hook holds up no create.
	creatorMu sync.Mutex
	creator   *dbcloud.Client
}

// newRun is a run on c with opts.
func newRun(c *dbcloud.Client, opts []Option) *run {
	r := &run{c: c, res: &Result{}, opts: options{parallelism: DefaultParallelism}}
	for _, opt := range opts {
		opt(&r.opts)
	}
	return r
}

// result is the Result of the run so far: the state's resources as the
// run knows them, in the order the plan saw them (Seen holds every
// resource of the state, those it creates too; not those it deletes by a
// prune, nor a service it only detaches from a VPC).
func (r *run) result() *Result {
	if r.p == nil {
		return r.res
	}
	r.res.Services, r.res.ReplicaSets, r.res.Forks, r.res.VPCs, r.res.Peerings = nil, nil, nil, nil, nil
	seen := map[key]bool{}
	for _, s := range r.p.Seen {
		k := key{s.Kind, s.Service, s.Name}
		e, _ := r.w.one(k.kind, k.service, k.name)
		if seen[k] || e == nil { // a run's world holds only what reads and creates answered
			continue
		}
		seen[k] = true
		switch k.kind {
		case dbcloud.KindService:
			r.res.Services = append(r.res.Services, *e.svc)
		case dbcloud.KindReplicaSet:
			r.res.ReplicaSets = appendTo(r.res.ReplicaSets, k.service, *e.set)
		case dbcloud.KindVPC:
			r.res.VPCs = append(r.res.VPCs, *e.vpc)
		case dbcloud.KindPeering:
			r.res.Peerings = appendTo(r.res.Peerings, k.service, *e.peering)
		default:
			r.res.Forks = append(r.res.Forks, *e.svc)
		}
	}
	return r.res
}

// appendTo appends v to m's list under k, making m on the first: a
// Result's maps stay nil, and out of its JSON, while nothing is in them.
func appendTo[T any](m map[string][]T, k string, v T) map[string][]T {
	if m == nil {
		m = map[string][]T{}
	}
	m[k] = append(m[k], v)
	return m
}
