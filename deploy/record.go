package deploy

import (
	"slices"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// Record is what a run made of one change of its plan: a Result holds one
// for each change, in the plan's order, and the progress hook
// (WithProgress) reports each as it starts and ends.
type Record struct {
	Change Change `json:"change"`
	// ID is the resource's id as the run knows it: the plan's, or the one
	// the run's create gave it, from the start of the first change after
	// that create.
	ID      string  `json:"id,omitempty"`
	Outcome Outcome `json:"outcome"`
	// Started is when the run started the change, and Duration how long
	// the change took, its waits included.
	Started  time.Time     `json:"started,omitzero"`
	Duration time.Duration `json:"duration,omitempty"`
}

// Outcome is what a run made of a change.
type Outcome string

// The outcomes of a change.
const (
	// Pending is a change the run did not start: it was cancelled first,
	// or an earlier change of its service (or of the parent of its fork)
	// failed.
	Pending Outcome = "pending"
	// Running is a change under way, as the progress hook reports its
	// start.
	Running Outcome = "running"
	// Done is a change made: its request sent (and its wait over), or,
	// for a resource found in passing (a service CONFIGURING, a set
	// DELETING), waited for until it got there.
	Done Outcome = "done"
	// AlreadyDone is a change the run found made, by an earlier run or
	// another deployer: nothing was sent for it.
	AlreadyDone Outcome = "already done"
	// Failed is a change that ended its service's steps with an error,
	// which the run's error names.
	Failed Outcome = "failed"
)

// String is the record as one line of a run's log: its change, with the
// resource's id, and its outcome.
//
//	~ update service "orders" (svc-1): pooler off -> on: done
func (r Record) String() string {
	return r.Change.line(r.ID) + ": " + string(r.Outcome)
}

// Result is what a run did and what the state's resources are now. Apply
// and Destroy always return one, also with an error: what a run created
// before it failed is in it, with its password.
type Result struct {
	// Records are what the run made of each change of its plan, in the
	// plan's order; those it did not start are Pending.
	Records []Record `json:"records"`
	// Services, ReplicaSets (by the name of their service) and Forks are
	// the state's resources as the run last read them (the plan's read,
	// or the wait that ended a step), in the order of the state: a new
	// service or fork carries its InitialPassword. A change that takes
	// effect at once (a pooler, an environment, a VPC) made after that
	// read is in Records, not in them: read the resource for its new
	// endpoints. After a destroy they are empty.
	Services    []dbcloud.Service                   `json:"services,omitempty"`
	ReplicaSets map[string][]dbcloud.ReadReplicaSet `json:"replica_sets,omitempty"`
	Forks       []dbcloud.Service                   `json:"forks,omitempty"`
	// VPCs and Peerings (by the name of their VPC in the state) are the
	// state's VPCs and peerings, as Services are its services.
	VPCs     []dbcloud.VPC                `json:"vpcs,omitempty"`
	Peerings map[string][]dbcloud.Peering `json:"peerings,omitempty"`
}

// Changed reports whether the run made any change (Outcome Done).
func (r *Result) Changed() bool {
	return slices.ContainsFunc(r.Records, func(c Record) bool { return c.Outcome == Done })
}

// Service returns the state's service of a name as the run last read it,
// nil when it has none.
func (r *Result) Service(name string) *dbcloud.Service {
	if i := slices.IndexFunc(r.Services, func(s dbcloud.Service) bool { return s.Name == name }); i >= 0 {
		return &r.Services[i]
	}
	return nil
}

// records are a run's records of p's changes, none started.
func records(p *Plan) []Record {
	out := make([]Record, len(p.Changes))
	for i, c := range p.Changes {
		out[i] = Record{Change: c, ID: c.ID, Outcome: Pending}
	}
	return out
}
