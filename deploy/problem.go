package deploy

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dbcloud/dbcloud-go"
)

// Problem is what a plan cannot do: a difference the API cannot change (a
// replica set's node count, a service's type, a VPC's range or region), a
// name that several live resources share, a replica set to create without
// its sizes, a peering that failed, the deletion of a protected service
// or VPC. A plan with a problem is not applied.
type Problem struct {
	Kind dbcloud.ResourceKind `json:"kind"`
	// Service is the state's service the resource belongs to, as in
	// Change.Service.
	Service string `json:"service"`
	Name    string `json:"name"`
	// IDs is the resource's id, the ids of the resources sharing the name
	// for a duplicate, or nothing for a resource that does not exist.
	IDs []string `json:"ids,omitempty"`
	// Field is what differs (FieldNodes, FieldType, FieldSize,
	// FieldStatus, FieldCIDR, FieldRegion);
	// "" for a duplicate name.
	Field  Field  `json:"field,omitempty"`
	Reason string `json:"reason"`
}

// String is the problem as one line of a plan, after its "!".
func (p Problem) String() string {
	s := subject(p.Kind, p.Service, p.Name)
	if len(p.IDs) > 0 {
		s += " (" + strings.Join(p.IDs, ", ") + ")"
	}
	return s + ": " + p.Reason
}

// ProblemError is the error of a plan with problems: State.Plan returns it
// with the plan, and every Apply refuses such a plan with it, before
// anything is sent. It names every problem; errors.Is(err,
// ErrDuplicateName) holds when one is a duplicate name.
type ProblemError struct {
	Problems []Problem
}

// Error lists every problem.
func (e *ProblemError) Error() string {
	var lines []string
	for _, p := range e.Problems {
		lines = append(lines, p.String())
	}
	return fmt.Sprintf("deploy: the plan has %d problem(s): %s", len(e.Problems), strings.Join(lines, "; "))
}

// Unwrap returns a *DuplicateNameError for each duplicate name.
func (e *ProblemError) Unwrap() []error {
	var out []error
	for _, p := range e.Problems {
		if p.Field == "" && len(p.IDs) > 1 {
			out = append(out, &DuplicateNameError{Kind: p.Kind, Name: p.Name, IDs: p.IDs})
		}
	}
	return out
}

// ErrDuplicateName matches the error of a deploy whose service, replica
// set or fork name more than one live resource has: see
// DuplicateNameError.
var ErrDuplicateName = errors.New("deploy: more than one resource has this name")

// DuplicateNameError is several live services (or replica sets of the
// service, or forks of it) sharing a name of the state: a deploy cannot
// tell which one it means, and names none rather than guess. Plan reports
// it as a Problem; a saved plan's Apply that meets it returns it.
type DuplicateNameError struct {
	Kind dbcloud.ResourceKind
	Name string
	IDs  []string // the resources with the name, as the API listed them
}

// Error names the resources.
func (e *DuplicateNameError) Error() string {
	return fmt.Sprintf("deploy: %s (%s)", e.reason(), strings.Join(e.IDs, ", "))
}

// reason is what is wrong, as the error and the plan's problem say it.
func (e *DuplicateNameError) reason() string {
	return fmt.Sprintf("%d %ss are named %q: delete the extra ones", len(e.IDs), e.Kind, e.Name)
}

// problem is the duplicate, of the state's service service, as a plan's
// problem.
func (e *DuplicateNameError) problem(service string) Problem {
	return Problem{Kind: e.Kind, Service: service, Name: e.Name, IDs: e.IDs, Reason: e.reason()}
}

// Is makes errors.Is(err, ErrDuplicateName) hold.
func (e *DuplicateNameError) Is(target error) bool { return target == ErrDuplicateName }

// ErrStalePlan matches a *StalePlanError.
var ErrStalePlan = errors.New("deploy: the plan is stale")

// StalePlanError is a plan that no longer fits the world: a change's
// resource is not as the plan saw it, so the change a reviewer approved
// is not the one it would make. Nothing was sent for that change (and,
// for a saved plan found stale when its Apply reads, nothing at all): plan
// again.
type StalePlanError struct {
	Kind dbcloud.ResourceKind
	Name string
	ID   string
	// Field is what differs; "" when the resource itself is gone.
	Field Field
	// Expected is what the plan saw of Field, Found what is there now;
	// Found is nil when the resource is gone.
	Expected, Found *Values
}

// Error names the resource, the field, what the plan expected and what it
// found.
func (e *StalePlanError) Error() string {
	s := fmt.Sprintf("deploy: the plan is stale: %s %q", e.Kind, e.Name)
	if e.ID != "" {
		s += " (" + e.ID + ")"
	}
	if e.Found == nil {
		return s + ": the plan expected it, it is gone"
	}
	return s + fmt.Sprintf(": %s: the plan expected %s, found %s", e.Field, e.Expected.show(e.Field), e.Found.show(e.Field))
}

// Is makes errors.Is(err, ErrStalePlan) hold.
func (e *StalePlanError) Is(target error) bool { return target == ErrStalePlan }

// join is errs as one error: nil, the one, or errors.Join's.
func join(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}
