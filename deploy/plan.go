package deploy

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/dbcloud/dbcloud-go"
)

// Plan is every change an Apply run would make, as of the reads Plan made.
// It marshals to JSON with the tags below; String is the text for a log.
type Plan struct {
	ProjectID string   `json:"project_id"`
	Changes   []Change `json:"changes"`
	// Problems are differences Apply cannot resolve (a replica set's node
	// count, a service of another type); Apply refuses to run while any is
	// there.
	Problems []string `json:"problems,omitempty"`
}

// Change is one change of a plan.
type Change struct {
	Action Action `json:"action"`
	Kind   string `json:"kind"` // KindService, KindReplicaSet or KindFork
	Name   string `json:"name"`
	ID     string `json:"id,omitempty"` // "" for what does not exist yet
	// Field, From and To say what an update changes: "status" (a paused
	// service is started), "size", "ha_replicas", "pooler", "environment"
	// or "vpc", from what to what.
	Field string `json:"field,omitempty"`
	From  string `json:"from,omitempty"`
	To    string `json:"to,omitempty"`
}

// Action is what a change does.
type Action string

// The actions of a change.
const (
	Create Action = "create"
	Update Action = "update"
	Delete Action = "delete"
)

// The kinds of resource a change names.
const (
	KindService    = "service"
	KindReplicaSet = "replica set"
	KindFork       = "fork"
)

// Empty reports whether the plan has nothing to do.
func (p *Plan) Empty() bool { return len(p.Changes) == 0 && len(p.Problems) == 0 }

// String is the plan as a reviewer reads it in a CI log: one line per
// change, "+" create, "~" update, "-" delete, "!" a problem.
func (p *Plan) String() string {
	var b strings.Builder
	if p.Empty() {
		fmt.Fprintf(&b, "project %s: no changes\n", p.ProjectID)
		return b.String()
	}
	fmt.Fprintf(&b, "project %s: %d change(s)\n", p.ProjectID, len(p.Changes))
	for _, c := range p.Changes {
		b.WriteString("  " + c.String() + "\n")
	}
	for _, pr := range p.Problems {
		b.WriteString("  ! " + pr + "\n")
	}
	return b.String()
}

// String is the change as one line of a plan.
func (c Change) String() string {
	sign := map[Action]string{Create: "+", Update: "~", Delete: "-"}[c.Action]
	s := fmt.Sprintf("%s %s %s %q", sign, c.Action, c.Kind, c.Name)
	if c.ID != "" {
		s += " (" + c.ID + ")"
	}
	switch {
	case c.Field != "" && c.Action == Update:
		s += fmt.Sprintf(": %s %s -> %s", c.Field, orNone(c.From), orNone(c.To))
	case c.To != "":
		s += ": " + c.To
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// Plan reads the project and returns every change Apply would make to
// bring it to st. It sends only GETs, so it works on a client made with
// dbcloud.WithReadOnly.
func (st *State) Plan(ctx context.Context, c *dbcloud.Client) (*Plan, error) {
	if err := st.check(); err != nil {
		return nil, err
	}
	projectID := projectOf(c, st)
	o, err := observe(ctx, c, projectID, st)
	if err != nil {
		return nil, err
	}
	p := &Plan{ProjectID: projectID}
	svc := o.svc
	if svc == nil {
		want := st.Service
		p.Changes = append(p.Changes, Change{Action: Create, Kind: KindService, Name: want.Name, To: describeService(&want)})
		svc = asCreated(&want)
	} else {
		p.Problems = append(p.Problems, typeProblem(&st.Service, svc)...)
	}
	p.Changes = append(p.Changes, serviceUpdates(&st.Service, svc)...)
	for _, want := range st.ReplicaSets {
		rs := o.setNamed(want.Name)
		if rs == nil {
			p.Changes = append(p.Changes, Change{Action: Create, Kind: KindReplicaSet, Name: want.Name,
				To: fmt.Sprintf("%d node(s), %s", want.Nodes, size(want.CPUMillis, want.MemoryGBs))})
			rs = &dbcloud.ReadReplicaSet{Name: want.Name, Nodes: want.Nodes, CPUMillis: want.CPUMillis, MemoryGBs: want.MemoryGBs,
				Metadata: &dbcloud.Metadata{Environment: cmpOr(st.Service.Environment, serviceEnv(svc))}}
		} else if rs.Nodes != want.Nodes {
			p.Problems = append(p.Problems, fmt.Sprintf("replica set %q (%s) has %d node(s), the state %d: the API cannot change it; delete the set (Prune and another name) to replace it", want.Name, rs.ID, rs.Nodes, want.Nodes))
		}
		p.Changes = append(p.Changes, setUpdates(&want, rs)...)
	}
	for _, want := range st.Forks {
		f := o.forkNamed(want.Name)
		if f == nil {
			p.Changes = append(p.Changes, Change{Action: Create, Kind: KindFork, Name: want.Name, To: describeFork(&want)})
			continue
		}
		if want.Environment != "" && serviceEnv(f) != want.Environment {
			p.Changes = append(p.Changes, Change{Action: Update, Kind: KindFork, Name: f.Name, ID: f.ServiceID, Field: "environment", From: string(serviceEnv(f)), To: string(want.Environment)})
		}
	}
	if st.Prune {
		for _, d := range o.unnamed(st) {
			p.Changes = append(p.Changes, d.change())
		}
	}
	return p, nil
}

func projectOf(c *dbcloud.Client, st *State) string {
	if st.ProjectID != "" {
		return st.ProjectID
	}
	return c.ProjectID()
}

// asCreated is the service as a create from want makes it, for the updates
// that follow the create in a plan.
func asCreated(want *Service) *dbcloud.Service {
	svc := &dbcloud.Service{Name: want.Name, Metadata: &dbcloud.Metadata{Environment: cmpOr(want.Environment, dbcloud.EnvironmentDev)}}
	if want.CPUMillis > 0 {
		svc.Resources = []dbcloud.Resource{{Spec: &dbcloud.ResourceSpec{CPUMillis: want.CPUMillis, MemoryGBs: want.MemoryGBs}}}
	}
	if want.HAReplicas != nil {
		svc.HAReplicas = &dbcloud.HAReplicas{ReplicaCount: *want.HAReplicas}
	}
	return svc
}

// serviceUpdates are the updates that bring svc to want.
func serviceUpdates(want *Service, svc *dbcloud.Service) []Change {
	var out []Change
	add := func(field, from, to string) {
		out = append(out, Change{Action: Update, Kind: KindService, Name: svc.Name, ID: svc.ServiceID, Field: field, From: from, To: to})
	}
	if svc.Status == dbcloud.StatusPaused || svc.Status == dbcloud.StatusPausing {
		add("status", string(svc.Status), string(dbcloud.StatusReady))
	}
	if cpu, mem := serviceSize(svc); want.CPUMillis > 0 && (cpu != want.CPUMillis || mem != want.MemoryGBs) {
		add("size", size(cpu, mem), size(want.CPUMillis, want.MemoryGBs))
	}
	if want.HAReplicas != nil && haReplicas(svc) != *want.HAReplicas {
		add("ha_replicas", strconv.Itoa(haReplicas(svc)), strconv.Itoa(*want.HAReplicas))
	}
	if want.Environment != "" && serviceEnv(svc) != want.Environment {
		add("environment", string(serviceEnv(svc)), string(want.Environment))
	}
	if on := svc.ConnectionPooler != nil; want.Pooler != nil && on != *want.Pooler {
		add("pooler", onOff(on), onOff(*want.Pooler))
	}
	if want.VPCID != "" && vpcOf(svc) != want.VPCID {
		add("vpc", vpcOf(svc), want.VPCID)
	}
	return out
}

// setUpdates are the updates that bring rs to want.
func setUpdates(want *ReplicaSet, rs *dbcloud.ReadReplicaSet) []Change {
	var out []Change
	add := func(field, from, to string) {
		out = append(out, Change{Action: Update, Kind: KindReplicaSet, Name: rs.Name, ID: rs.ID, Field: field, From: from, To: to})
	}
	if rs.CPUMillis != want.CPUMillis || rs.MemoryGBs != want.MemoryGBs {
		add("size", size(rs.CPUMillis, rs.MemoryGBs), size(want.CPUMillis, want.MemoryGBs))
	}
	if want.Environment != "" && setEnv(rs) != want.Environment {
		add("environment", string(setEnv(rs)), string(want.Environment))
	}
	if on := rs.ConnectionPooler != nil; want.Pooler != nil && on != *want.Pooler {
		add("pooler", onOff(on), onOff(*want.Pooler))
	}
	return out
}

// typeProblem reports an existing service whose type the addons would not
// give: a type is chosen at creation, never changed. With both addons the
// type is the time-series one, which carries the AI extensions too.
func typeProblem(want *Service, svc *dbcloud.Service) []string {
	wantType := dbcloud.ServiceTypePostgres
	for _, a := range want.Addons {
		switch a {
		case dbcloud.AddonTimeSeries:
			wantType = dbcloud.ServiceTypeTimeSeries
		case dbcloud.AddonAI:
			if wantType != dbcloud.ServiceTypeTimeSeries {
				wantType = dbcloud.ServiceTypeVector
			}
		}
	}
	if svc.ServiceType == "" || svc.ServiceType == wantType {
		return nil
	}
	return []string{fmt.Sprintf("service %q (%s) is %s, the state's addons make %s: a type cannot change", svc.Name, svc.ServiceID, svc.ServiceType, wantType)}
}

func describeService(s *Service) string {
	parts := []string{}
	if len(s.Addons) > 0 {
		var as []string
		for _, a := range s.Addons {
			as = append(as, string(a))
		}
		parts = append(parts, "addons "+strings.Join(as, ","))
	}
	if s.CPUMillis > 0 {
		parts = append(parts, size(s.CPUMillis, s.MemoryGBs))
	}
	if s.HAReplicas != nil {
		parts = append(parts, strconv.Itoa(*s.HAReplicas)+" HA replica(s)")
	}
	if s.Environment != "" {
		parts = append(parts, string(s.Environment))
	}
	return strings.Join(parts, ", ")
}

func describeFork(f *Fork) string {
	s := string(f.Strategy)
	if f.Strategy == dbcloud.ForkPITR {
		if f.TargetTime.IsZero() {
			s += " as of when the fork step runs"
		} else {
			s += " as of " + f.TargetTime.UTC().Format("2006-01-02T15:04:05Z")
		}
	}
	if f.Environment != "" {
		s += ", " + string(f.Environment)
	}
	return s
}

func size(cpu, mem int) string { return fmt.Sprintf("%dm CPU / %d GB", cpu, mem) }

func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

func cmpOr(a, b dbcloud.Environment) dbcloud.Environment {
	if a != "" {
		return a
	}
	return b
}
