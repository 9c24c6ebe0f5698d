package deploy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dbcloud/dbcloud-go"
)

// Plan is every change a run makes, as of the reads that made the plan:
// State.Plan's, or State.PlanDestroy's. The changes of one service (the
// service, its replica sets, its forks) and of one VPC (the VPC, its
// peerings) are in the order a run makes them;
// a run makes those of different services at once (see WithParallelism).
// It is self-contained: Apply needs nothing else, and a reviewed plan
// applied later (Plan.Apply) makes these changes and no others, or stops
// with a *StalePlanError where the world is no longer as the plan saw it.
// It marshals to JSON as a plan file (MarshalJSON: the tags below, after
// its format), which ParsePlan reads back; String is the text for a log.
type Plan struct {
	ProjectID string `json:"project_id"`
	// Destroy marks a plan of State.PlanDestroy: it deletes.
	Destroy bool     `json:"destroy,omitempty"`
	Changes []Change `json:"changes"`
	// Problems are what the plan cannot do; a plan with any is not
	// applied.
	Problems []Problem `json:"problems,omitempty"`
	// Seen is what the plan found of each resource the state names, in
	// the state's order, as planned against: Apply of a saved plan checks
	// the world against it before sending anything. Its services are the
	// state's.
	Seen []Seen `json:"seen,omitempty"`
}

// Seen is a resource of the state as a plan found it.
type Seen struct {
	Kind dbcloud.ResourceKind `json:"kind"`
	// Service is the state's service the resource belongs to, as in
	// Change.Service.
	Service string `json:"service"`
	Name    string `json:"name"`
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
// plan, then one per change, "+" create, "~" update, "-" delete, each
// service's in the order Apply makes them, then one per problem, "!".
func (p *Plan) String() string {
	var b strings.Builder
	b.WriteString("project " + p.ProjectID)
	if p.Destroy {
		var names []string
		for _, s := range p.Seen {
			switch s.Kind {
			case dbcloud.KindService:
				names = append(names, fmt.Sprintf("%q", s.Name))
			case dbcloud.KindVPC:
				names = append(names, fmt.Sprintf("%s %q", s.Kind, s.Name))
			}
		}
		b.WriteString(", destroy of " + strings.Join(names, ", "))
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

// scope is what Apply of the plan reads: the services of its Seen are the
// state's, and the sets of a service are listed when the plan saw or
// changes one of them.
func (p *Plan) scope() scope {
	has := func(kind dbcloud.ResourceKind, service string) bool {
		return slices.ContainsFunc(p.Seen, func(s Seen) bool { return s.Kind == kind && s.Service == service }) ||
			slices.ContainsFunc(p.Changes, func(c Change) bool { return c.Kind == kind && c.Service == service })
	}
	return scope{
		named: func(name string) bool {
			return slices.ContainsFunc(p.Seen, func(s Seen) bool { return s.Kind == dbcloud.KindService && s.Name == name })
		},
		sets: func(service string) bool { return has(dbcloud.KindReplicaSet, service) },
		vpcs: slices.ContainsFunc(p.Seen, func(s Seen) bool { return s.Kind == dbcloud.KindVPC }) ||
			slices.ContainsFunc(p.Changes, func(c Change) bool { return c.Kind == dbcloud.KindVPC || c.Kind == dbcloud.KindPeering }),
		vpcName: func(id, name string) string {
			if i := slices.IndexFunc(p.Seen, func(s Seen) bool { return s.Kind == dbcloud.KindVPC && s.ID == id }); i >= 0 {
				return p.Seen[i].Name
			}
			return name
		},
		peerings: func(vpc string) bool { return has(dbcloud.KindPeering, vpc) },
	}
}
