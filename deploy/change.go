package deploy

import (
	"fmt"

	"github.com/dbcloud/dbcloud-go"
)

// Change is one change of a plan: what it does to which resource. It
// holds nothing of a run: what a run made of it is a Record.
type Change struct {
	Action Action `json:"action"`
	// Kind is dbcloud.KindService, dbcloud.KindReplicaSet,
	// dbcloud.KindFork, dbcloud.KindVPC or dbcloud.KindPeering.
	Kind dbcloud.ResourceKind `json:"kind"`
	// Service is the service of the state the resource belongs to: the
	// service itself, or the parent of a replica set or fork; for a VPC,
	// the VPC itself, and a peering's VPC. A run makes the changes of one
	// service (VPC) in the plan's order, and those of different ones at
	// once (see WithParallelism).
	Service string `json:"service"`
	// Name is the resource's name; a peering's is its peer,
	// "account/region/VPC id", since the API gives it none.
	Name string `json:"name"`
	// ID is the resource's id; "" for what does not exist yet (a run's
	// Record has the id its create gives it).
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
}

// Action is what a change does.
type Action string

// The actions of a change.
const (
	Create Action = "create"
	Update Action = "update"
	Delete Action = "delete"
)

// String is the change as one line of a plan:
//
//	~ update service "orders" (svc-1): pooler off -> on
//	~ update replica set "orders-read" of "orders" (rs-1): pooler off -> on
func (c Change) String() string { return c.line(c.ID) }

// line is the change's line with the resource's id as id.
func (c Change) line(id string) string {
	sign := map[Action]string{Create: "+", Update: "~", Delete: "-"}[c.Action]
	s := fmt.Sprintf("%s %s %s", sign, c.Action, subject(c.Kind, c.Service, c.Name))
	if id != "" {
		s += " (" + id + ")"
	}
	switch {
	case c.Action == Update:
		s += fmt.Sprintf(": %s %s -> %s", c.Field, c.From.show(c.Field), c.To.show(c.Field))
	case c.Action == Create && c.To != nil && c.To.describe() != "":
		s += ": " + c.To.describe()
	case c.Action == Delete && c.From.has(FieldStatus):
		s += ": " + c.From.Status + " already, wait until gone"
	}
	return s
}

// subject names a resource in a line of a plan or a run: its kind and
// name, and the service (VPC) it belongs to, unless it is that one.
func subject(kind dbcloud.ResourceKind, service, name string) string {
	s := fmt.Sprintf("%s %q", kind, name)
	if kind != dbcloud.KindService && kind != dbcloud.KindVPC {
		s += fmt.Sprintf(" of %q", service)
	}
	return s
}

// key is the resource a change is about, and its service.
type key struct {
	kind          dbcloud.ResourceKind
	service, name string
}

func (c *Change) key() key { return key{c.Kind, c.Service, c.Name} }
