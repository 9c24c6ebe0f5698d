package deploy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/dbcloud/dbcloud-go"
)

// PlanFormat is the format of a plan file, its "format" field: ParsePlan
// reads this format and no other, so that a plan written by another
// version of the SDK, whose fields may mean something else, is refused
// rather than misread.
//
// v2 is the plan of a fleet: each change and each resource seen names its
// service ("service"), and the plan no longer has one "service". A v1
// plan, of one service, is refused: plan again.
const PlanFormat = "dbcloud-deploy-plan/v2"

// ParseState reads a state file: a State as JSON, with the fields of its
// json tags (see "Files" in docs/deploy.md for the schema). It refuses,
// with a *ParseError naming the field and its line, an unknown field, a
// field given twice and a required one left out (services, a service's
// name, a replica set's name, a fork's name and strategy, a VPC's name,
// cidr and region_code, a peering's three peer fields); then it checks
// the state as State.Plan would (names unique, sizes in pairs, fork
// targets),
// so that a bad file fails before any request.
func ParseState(data []byte) (*State, error) {
	st := &State{}
	if err := decodeStrict(data, st); err != nil {
		if pe, ok := err.(*ParseError); ok && slices.Contains([]string{"service", "replica_sets", "forks"}, pe.Path) {
			// The one-service form of earlier versions.
			pe.Reason += `; a service, with its replica_sets and forks, is now an element of "services"`
		}
		return nil, err
	}
	if err := st.check(); err != nil {
		return nil, err
	}
	return st, nil
}

// planFile is a Plan as a file holds it: its format first, then its
// fields.
type planFile struct {
	Format string `json:"format"`
	*planFields
}

// planFields is a Plan without its MarshalJSON.
type planFields Plan

// MarshalJSON writes the plan as a plan file: its fields, after its
// format, PlanFormat. ParsePlan reads it back.
func (p Plan) MarshalJSON() ([]byte, error) {
	return json.Marshal(planFile{Format: PlanFormat, planFields: (*planFields)(&p)})
}

// ParsePlan reads a plan file, as json.Marshal of a Plan writes it, for
// Plan.Apply: a plan made in one job, reviewed, and applied in another.
// It refuses a file of another format than PlanFormat, and, with a
// *ParseError naming the field and its line, an unknown field, a field
// given twice, a required one left out (format, project_id, changes; a
// change's action, kind, service and name) and a change that no plan makes
// (an update without its field's values, a delete without an id...).
// What the plan was planned against travels with it (Plan.Seen), so that
// its Apply refuses it when it is stale.
func ParsePlan(data []byte) (*Plan, error) {
	var head struct {
		Format *string `json:"format"`
	}
	// The format first: a plan of another format, or a state, is refused
	// as such, not for a field this version does not know.
	if err := json.Unmarshal(data, &head); err == nil {
		// The object's line, as the strict reading names it for a
		// required field left out; none for a JSON null, which has no
		// object.
		line := 0
		if i := bytes.IndexByte(data, '{'); i >= 0 {
			line = 1 + bytes.Count(data[:i], []byte("\n"))
		}
		switch {
		case head.Format == nil:
			return nil, &ParseError{Line: line, Path: "format", Reason: "required, missing: not a plan file"}
		case *head.Format != PlanFormat:
			return nil, &ParseError{Line: line, Path: "format", Reason: fmt.Sprintf("%q, and this SDK reads %q: plan again with this version", *head.Format, PlanFormat)}
		}
	}
	p := &Plan{}
	if err := decodeStrict(data, &planFile{planFields: (*planFields)(p)}); err != nil {
		return nil, err
	}
	if err := p.validate(); err != nil {
		return nil, err
	}
	return p, nil
}

// The kinds of a plan's resources, and the fields an update of each can
// change.
var updatable = map[dbcloud.ResourceKind][]Field{
	dbcloud.KindService:    append([]Field{FieldStatus}, serviceFields...),
	dbcloud.KindReplicaSet: append([]Field{FieldStatus}, setFields...),
	dbcloud.KindFork:       {FieldStatus},
	dbcloud.KindVPC:        {FieldName},
	dbcloud.KindPeering:    {FieldStatus},
}

// validate refuses what a plan read from a file holds that no plan makes,
// and that a run could not carry out.
func (p *Plan) validate() error {
	bad := func(path, format string, args ...any) error {
		return &ParseError{Path: path, Reason: fmt.Sprintf(format, args...)}
	}
	if p.ProjectID == "" {
		return bad("", "project_id must not be empty")
	}
	for i, s := range p.Seen {
		if _, ok := updatable[s.Kind]; !ok || s.Name == "" || s.Service == "" {
			return bad(fmt.Sprintf("seen[%d]", i), "kind %q, service %q or name %q is not a resource's", s.Kind, s.Service, s.Name)
		}
	}
	for i, c := range p.Changes {
		path := fmt.Sprintf("changes[%d]", i)
		fields, ok := updatable[c.Kind]
		switch {
		case !ok || c.Name == "" || c.Service == "":
			return bad(path, "kind %q, service %q or name %q is not a resource's", c.Kind, c.Service, c.Name)
		case (c.Kind == dbcloud.KindService || c.Kind == dbcloud.KindVPC) && c.Service != c.Name:
			return bad(path+".service", "%q: a %s's change names the %s itself, %q", c.Service, c.Kind, c.Kind, c.Name)
		case c.Action != Create && c.Action != Update && c.Action != Delete:
			return bad(path+".action", "%q is not create, update or delete", c.Action)
		case c.Action == Create && c.To == nil:
			return bad(path+".to", "a create needs what it creates")
		case c.Action == Create && c.Kind == dbcloud.KindReplicaSet && (c.To.Nodes < 1 || c.To.CPUMillis < 1 || c.To.MemoryGBs < 1):
			return bad(path+".to", "a replica set's create needs nodes, cpu_millis and memory_gbs")
		case c.Action == Create && c.Kind == dbcloud.KindFork && c.To.Strategy == "":
			return bad(path+".to", "a fork's create needs its strategy")
		case c.Action == Create && c.Kind == dbcloud.KindVPC && (c.To.CIDR == "" || c.To.RegionCode == ""):
			return bad(path+".to", "a VPC's create needs cidr and region_code")
		case c.Action == Create && c.Kind == dbcloud.KindPeering && (c.To.PeerAccountID == "" || c.To.PeerRegionCode == "" || c.To.PeerVPCID == ""):
			return bad(path+".to", "a peering's create needs peer_account_id, peer_region_code and peer_vpc_id")
		case c.Action == Update && !slices.Contains(fields, c.Field):
			return bad(path+".field", "%q is not a field an update of a %s changes", c.Field, c.Kind)
		case c.Action == Update && (!c.From.has(c.Field) || !c.To.has(c.Field)):
			return bad(path, "an update needs its field's value in from and to")
		case c.Action == Delete && c.ID == "":
			return bad(path+".id", "a delete needs the id of what it deletes")
		}
	}
	return nil
}
