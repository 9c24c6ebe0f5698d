package dbcloud

import (
	"fmt"
	"slices"
	"strconv"
	"time"
)

// WaitOption configures the Wait methods. One list can serve waits of
// several kinds: a wait ignores options about another kind.
type WaitOption func(*waitConfig)

type waitConfig struct {
	first, longest time.Duration // WithPollInterval
	timeout        time.Duration
	progress       []func(WaitProgress)
	stop           []string          // WithStopOn, as the API spells the statuses
	conds          []any             // WithCondition: func(*Service) or func(*ReadReplicaSet), (bool, error)
	createdList    []createdResource // WithCreated, each given
	created        createdResource   // the one of the resource waited for: pickCreated
	jitter         time.Duration     // bound of the first poll's random delay: setTimes
	end            time.Time         // when the wait ends: setTimes
	probe          probeConfig       // WaitForConnectable only
}

// createdResource is what WithCreated was given: the resource, and the
// password of a service, which its reads never carry.
type createdResource struct {
	kind     ResourceKind // "" without WithCreated
	id       string
	password Secret
}

// newWaitConfig applies opts to the client's defaults and checks them
// before anything is sent.
func (api *caller) newWaitConfig(opts []WaitOption) (waitConfig, error) {
	cfg := waitConfig{first: api.pollFirst, longest: api.pollLongest, probe: probeConfig{timeout: defaultProbeTimeout}}
	for _, opt := range opts {
		opt(&cfg)
	}
	return cfg, checkPollInterval("WithPollInterval", cfg.first, cfg.longest)
}

// pickCreated takes, of the resources given WithCreated, the one waited
// for (of kind k and id) as c.created. One that names another resource is
// a *ValidationError: a password kept for the wrong service would be
// worse than none.
func (c *waitConfig) pickCreated(k ResourceKind, id string) error {
	for _, cr := range c.createdList {
		if cr.kind != k || cr.id != id {
			return invalid("WithCreated", "the "+string(cr.kind)+" "+strconv.Quote(cr.id)+" is not the "+string(k)+" waited for")
		}
		c.created = cr
	}
	return nil
}

// grace is how long a missing resource is polled through: createdGrace
// after a create, none otherwise.
func (c *waitConfig) grace() time.Duration {
	if c.created.kind == "" {
		return 0
	}
	return createdGrace
}

// WithPollInterval sets this wait's delays between polls, in place of the
// client's (WithDefaultPollInterval); see "Polling" in the package
// documentation for how they grow.
func WithPollInterval(first, longest time.Duration) WaitOption {
	return func(c *waitConfig) { c.first, c.longest = first, longest }
}

// DefaultWaitTimeout bounds a wait with neither a context deadline (which
// replaces it) nor WithWaitTimeout, so a wait forgotten in CI fails within
// the hour; the slowest operations take tens of minutes.
const DefaultWaitTimeout = time.Hour

// WithWaitTimeout bounds the wait, besides any deadline on the context. A wait
// that times out returns a *WaitError for which
// errors.Is(err, context.DeadlineExceeded) is true.
func WithWaitTimeout(d time.Duration) WaitOption {
	return func(c *waitConfig) { c.timeout = d }
}

// WithProgress calls fn after each poll with the resource and the status
// seen, on the waiting goroutine (several at once under WaitForAll).
// Several WithProgress add up, called in order.
func WithProgress(fn func(WaitProgress)) WaitOption {
	return func(c *waitConfig) {
		if fn != nil {
			c.progress = append(c.progress, fn)
		}
	}
}

// WaitProgress is one poll of a wait, as WithProgress reports it: which
// resource, and the status it was seen in.
type WaitProgress struct {
	Kind ResourceKind // KindService, KindReplicaSet or KindPeering
	ID   string       // the resource's id
	Name string       // the resource's name, as the poll read it; a peering's peer VPC id
	// Status is the status seen: a ServiceStatus for a service, a
	// ReplicaSetStatus for a replica set, a PeeringStatus for a peering,
	// so that p.Status == dbcloud.StatusReady compares as it reads.
	Status WaitStatus
	Want   string // what the wait waits for, as WaitError.Want
}

// String reads as one line of a deploy's log:
//
//	service "orders" (svc-1): QUEUED, waiting for READY
func (p WaitProgress) String() string {
	return fmt.Sprintf("%s %q (%s): %s, waiting for %s", p.Kind, p.Name, p.ID, p.Status, p.Want)
}

// report hands one poll to the callbacks of WithProgress; w names the
// resource waited for.
func (c *waitConfig) report(w *WaitError, status WaitStatus) {
	if len(c.progress) == 0 {
		return
	}
	p := WaitProgress{Kind: ResourceKind(w.Resource), ID: w.ID, Name: w.Name, Status: status, Want: w.Want}
	for _, fn := range c.progress {
		fn(p)
	}
}

// WithStopOn names statuses (UNSTABLE, say) that end the wait at once with
// a *WaitError matching ErrStopStatus. The wanted status is never a stop,
// and several WithStopOn add up. Statuses of both kinds may be mixed:
//
//	dbcloud.WithStopOn(dbcloud.StatusUnstable, dbcloud.ReplicaSetError)
func WithStopOn(statuses ...WaitStatus) WaitOption {
	return func(c *waitConfig) {
		for _, s := range statuses {
			if s != nil && !slices.Contains(c.stop, s.waitStatus()) {
				c.stop = append(c.stop, s.waitStatus())
			}
		}
	}
}

// WithCondition adds a condition a wait needs besides the status (HA
// replicas in place, say); waits of the other kind ignore it. fn is called
// on the waiting goroutine with each read in the wanted status: true ends
// the wait, false polls on, an error ends it with a *WaitError whose Err
// it is. All conditions must hold.
//
//	dbcloud.WithCondition(func(svc *dbcloud.Service) (bool, error) { return svc.ReplicaCount() == 2, nil })
func WithCondition[T Service | ReadReplicaSet](fn func(*T) (bool, error)) WaitOption {
	return func(c *waitConfig) {
		if fn != nil {
			c.conds = append(c.conds, fn)
		}
	}
}

// conditionOf is the conditions of cfg that apply to resources of type T,
// as one, or nil when there are none.
func conditionOf[T any](cfg *waitConfig) func(*T) (bool, error) {
	var conds []func(*T) (bool, error)
	for _, c := range cfg.conds {
		if fn, ok := c.(func(*T) (bool, error)); ok {
			conds = append(conds, fn)
		}
	}
	if len(conds) == 0 {
		return nil
	}
	return func(v *T) (bool, error) {
		for _, cond := range conds {
			if ok, err := cond(v); !ok || err != nil {
				return false, err
			}
		}
		return true, nil
	}
}

// createdGrace is how long after the start of a wait given WithCreated a
// missing resource (a 404, or a list without it) is taken as
// read-after-create lag and polled through: services of this kind are
// seen to answer 404 for a moment after a create was accepted, and 30 s
// is far above that moment and far below any wait's timeout.
const createdGrace = 30 * time.Second

// WithCreated starts a wait from the resource a create returned: it polls
// through a 404 for 30 s, and a service wait keeps the InitialPassword,
// which the assignment below would otherwise lose (see Waiting in the
// package documentation). It must be the resource waited for (else a
// *ValidationError); WaitForAll refuses it.
//
//	svc, err = c.Services.WaitForConnectable(ctx, p, svc.ServiceID, dbcloud.WithCreated(svc))
func WithCreated[R *Service | *ReadReplicaSet | *Peering](created R) WaitOption {
	return func(c *waitConfig) {
		var cr createdResource
		switch v := any(created).(type) {
		case *Service:
			cr.kind = KindService
			if v != nil {
				cr.id, cr.password = v.ServiceID, v.InitialPassword
			}
		case *ReadReplicaSet:
			cr.kind = KindReplicaSet
			if v != nil {
				cr.id = v.ID
			}
		case *Peering:
			cr.kind = KindPeering
			if v != nil {
				cr.id = v.ID
			}
		}
		c.createdList = append(c.createdList, cr)
	}
}
