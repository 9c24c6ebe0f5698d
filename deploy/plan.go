package deploy

import (
	"fmt"
	"strings"

	"github.com/dbcloud/dbcloud-go"
)

// Plan is every change a run makes, in the order it makes them, as of the
// reads that made the plan: State.Plan's, or State.PlanDestroy's. It is
// self-contained: Apply needs nothing else, and a reviewed plan applied
// later (Plan.Apply) makes these changes and no others, or stops with a
// *StalePlanError where the world is no longer as the plan saw it. It
// marshals to JSON as a plan file (MarshalJSON: the tags below, after its
// format), which ParsePlan reads back; String is the text for a log.
type Plan struct {
	ProjectID string `json:"project_id"`
	// Service is the name of the state's service, which the run finds its
	// resources by (replica sets by name in it, forks by name and parent).
	Service string `json:"service"`
	// Destroy marks a plan of State.PlanDestroy: it deletes.
	Destroy bool     `json:"destroy,omitempty"`
	Changes []Change `json:"changes"`
	// Problems are what the plan cannot do; a plan with any is not
	// applied.
	Problems []Problem `json:"problems,omitempty"`
	// Seen is what the plan found of each resource the state names, in
	// the state's order, as planned against: Apply of a saved plan checks
	// the world against it before sending anything.
	Seen []Seen `json:"seen,omitempty"`
}

// Seen is a resource of the state as a plan found it.
type Seen struct {
	Kind dbcloud.ResourceKind `json:"kind"`
	Name string               `json:"name"`
	// ID is the resource's id; "" when the plan found none, and then
	// plans its create.
	ID string `json:"id,omitempty"`
	// Values are the settings the state manages, as they were; nil for a
	// resource the plan found none of, or whose settings the state does
	// not manage (a fork's).
	Values *Values `json:"values,omitempty"`
}

// Empty reports whether the plan has no change. A plan with problems and
// no change is Empty too: see HasProblems.
func (p *Plan) Empty() bool { return len(p.Changes) == 0 }

// HasProblems reports whether the plan has problems: then no Apply runs
// it.
func (p *Plan) HasProblems() bool { return len(p.Problems) > 0 }

// err is the *ProblemError of a plan with problems, or nil.
func (p *Plan) err() error {
	if !p.HasProblems() {
		return nil
	}
	return &ProblemError{Problems: p.Problems}
}

// String is the plan as a reviewer reads it in a CI log: a line for the
// plan, then one per change in the order Apply makes them, "+" create,
// "~" update, "-" delete, then one per problem, "!".
func (p *Plan) String() string {
	var b strings.Builder
	b.WriteString("project " + p.ProjectID)
	if p.Destroy {
		fmt.Fprintf(&b, ", destroy of service %q", p.Service)
	}
	switch {
	case p.Empty() && !p.HasProblems():
		b.WriteString(": no changes\n")
	case p.HasProblems():
		fmt.Fprintf(&b, ": %d change(s), %d problem(s)\n", len(p.Changes), len(p.Problems))
	default:
		fmt.Fprintf(&b, ": %d change(s)\n", len(p.Changes))
	}
	for _, c := range p.Changes {
		b.WriteString("  " + c.String() + "\n")
	}
	for _, pr := range p.Problems {
		b.WriteString("  ! " + pr.String() + "\n")
	}
	return b.String()
}

// targets are the values the plan's changes of a resource's field set.
func (p *Plan) targets(kind dbcloud.ResourceKind, name string, f Field) []string {
	var out []string
	for i := range p.Changes {
		c := &p.Changes[i]
		if c.Kind == kind && c.Name == name && c.Action == Update && c.Field == f {
			out = append(out, c.To.text(f))
		}
	}
	return out
}
