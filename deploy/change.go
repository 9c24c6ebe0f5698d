package deploy

import (
	"fmt"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// Change is one change of a plan and, once a run has taken it, what
// happened to it: a Plan lists changes with Outcome Pending, a Result the
// same changes with their outcomes, and the progress hook (WithProgress)
// reports each as it starts and ends.
type Change struct {
	Action Action `json:"action"`
	// Kind is dbcloud.KindService, dbcloud.KindReplicaSet or
	// dbcloud.KindFork.
	Kind dbcloud.ResourceKind `json:"kind"`
	Name string               `json:"name"`
	// ID is the resource's id; "" in a plan for what does not exist yet,
	// set by the run once it is created.
	ID string `json:"id,omitempty"`
	// Field is what an update changes; "" for a create or a delete.
	Field Field `json:"field,omitempty"`
	// From is what the plan expected to find: for an update, the Field's
	// value; for a delete of a resource being deleted already, its status;
	// nil for a create, which expects nothing of the name.
	From *Values `json:"from,omitempty"`
	// To is what the change makes: for an update, the Field's value; for
	// a create, every value the create sends; nil for a delete.
	To *Values `json:"to,omitempty"`

	// Outcome is what a run made of the change.
	Outcome Outcome `json:"outcome,omitempty"`
	// Started is when the run started the change, and Duration how long
	// the change took, its waits included.
	Started  time.Time     `json:"started,omitzero"`
	Duration time.Duration `json:"duration,omitempty"`
}

// Action is what a change does.
type Action string

// The actions of a change.
const (
	Create Action = "create"
	Update Action = "update"
	Delete Action = "delete"
)

// Outcome is what a run made of a change.
type Outcome string

// The outcomes of a change.
const (
	// Pending is a change no run has started: every change of a Plan,
	// and those of a Result that the run did not reach.
	Pending Outcome = ""
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
	// Failed is the change that ended the run with its error.
	Failed Outcome = "failed"
)

// String is the change as one line of a plan and, once a run has started
// it, with its outcome:
//
//	~ update service "orders" (svc-1): pooler off -> on: done
func (c Change) String() string {
	sign := map[Action]string{Create: "+", Update: "~", Delete: "-"}[c.Action]
	s := fmt.Sprintf("%s %s %s %q", sign, c.Action, c.Kind, c.Name)
	if c.ID != "" {
		s += " (" + c.ID + ")"
	}
	switch {
	case c.Action == Update:
		s += fmt.Sprintf(": %s %s -> %s", c.Field, orNone(c.From.text(c.Field)), orNone(c.To.text(c.Field)))
	case c.Action == Create && c.To != nil && c.To.describe() != "":
		s += ": " + c.To.describe()
	case c.Action == Delete && c.From.text(FieldStatus) != "":
		s += ": " + c.From.text(FieldStatus) + " already, wait until gone"
	}
	if c.Outcome != Pending {
		s += ": " + string(c.Outcome)
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
