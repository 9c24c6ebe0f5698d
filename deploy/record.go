package deploy

import (
	"time"
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
