package deploy_test

import (
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/deploy"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// A state with every field set goes to JSON and back unchanged.
func TestStateRoundTrip(t *testing.T) {
	st := &deploy.State{
		ProjectID: "proj-1", Prune: true, PruneServices: true, Protected: []string{"legacy"},
		Services: []deploy.Service{{
			Name: "orders", Addons: []dbcloud.Addon{dbcloud.AddonTimeSeries, dbcloud.AddonAI},
			RegionCode: "us-east-1", CPUMillis: 1000, MemoryGBs: 4, HAReplicas: new(0), Pooler: new(false),
			Environment: dbcloud.EnvironmentProd, VPCID: "vpc-1",
			ReplicaSets: []deploy.ReplicaSet{
				{Name: "orders-read", Nodes: 2, CPUMillis: 500, MemoryGBs: 2, Pooler: new(true), Environment: dbcloud.EnvironmentDev},
				{Name: "kept"},
			},
			Forks: []deploy.Fork{
				{Name: "orders-staging", Strategy: dbcloud.ForkPITR, TargetTime: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
					CPUMillis: 500, MemoryGBs: 2, Environment: dbcloud.EnvironmentDev},
				{Name: "orders-copy", Strategy: dbcloud.ForkNow},
			},
		}, {Name: "billing"}},
	}
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	back, err := deploy.ParseState(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if d := cmp.Diff(st, back); d != "" {
		t.Errorf("the state back from JSON (-sent +read):\n%s", d)
	}
}

// poolerOffAndReports is the trial state with the service's pooler off and
// a new replica set: an update and a create on the trial.
func poolerOffAndReports() *deploy.State {
	st := trial()
	st.Services[0].Pooler = new(false)
	st.Services[0].ReplicaSets = append(st.Services[0].ReplicaSets, deploy.ReplicaSet{Name: "reports", Nodes: 1, CPUMillis: 500, MemoryGBs: 2})
	return st
}

// The JSON of a plan names each change's action, kind, name and fields,
// with typed values: a create carries what it will create as fields.
func TestPlanJSON(t *testing.T) {
	srv, c := deployed(t)
	plan, err := poolerOffAndReports().Plan(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(plan.Changes)
	if err != nil {
		t.Fatal(err)
	}
	svc, _ := orders(t, srv)
	want := `[{"action":"update","kind":"service","service":"orders","name":"orders","id":"` + svc.ServiceID + `","field":"pooler","from":{"pooler":true},"to":{"pooler":false}},` +
		`{"action":"create","kind":"replica set","service":"orders","name":"reports","to":{"nodes":1,"cpu_millis":500,"memory_gbs":2}}]`
	if string(b) != want {
		t.Errorf("JSON:\n%s\nwant:\n%s", b, want)
	}
}

// A plan with a change of every action goes to JSON (its format first)
// and back unchanged, and applies as the plan it was: its changes made,
// then nothing left to do. The same file, once the world changed behind
// it, is refused as stale with nothing sent.
func TestPlanRoundTrip(t *testing.T) {
	srv, c := deployed(t)
	st := poolerOffAndReports()
	st.Services[0].Forks, st.Prune = nil, true // deletes the fork
	plan, err := st.Plan(t.Context(), srv.Client(dbcloud.WithReadOnly()))
	if err != nil {
		t.Fatal(err)
	}
	actions := map[deploy.Action]int{}
	for _, ch := range plan.Changes {
		actions[ch.Action]++
	}
	if len(actions) != 3 || len(plan.Seen) != 3 {
		t.Fatalf("the plan has %v and %d resources seen, want every action:\n%s", actions, len(plan.Seen), plan)
	}
	data, err := json.MarshalIndent(plan, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "{\n  \"format\": \""+deploy.PlanFormat+"\",\n") {
		t.Errorf("the file does not start with its format:\n%s", data)
	}
	back, err := deploy.ParsePlan(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if d := cmp.Diff(plan, back); d != "" {
		t.Fatalf("the plan back from JSON (-planned +read):\n%s", d)
	}

	// Applied later, after a change behind it: refused, nothing sent.
	svc, _ := orders(t, srv)
	if err := c.Services.SetEnvironment(t.Context(), srv.ProjectID, svc.ServiceID, dbcloud.EnvironmentDev); err != nil {
		t.Fatal(err)
	}
	mark := len(srv.Requests())
	if _, err := back.Apply(t.Context(), c); !errors.Is(err, deploy.ErrStalePlan) || mutations(srv, mark) != 0 {
		t.Fatalf("the plan applied after the environment changed: %v, %d mutating requests", err, mutations(srv, mark))
	}
	if err := c.Services.SetEnvironment(t.Context(), srv.ProjectID, svc.ServiceID, dbcloud.EnvironmentProd); err != nil {
		t.Fatal(err)
	}

	res, err := back.Apply(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	var applied []deploy.Change
	for _, rec := range res.Records {
		applied = append(applied, rec.Change)
	}
	if d := cmp.Diff(plan.Changes, applied); d != "" || !res.Changed() {
		t.Errorf("applied other changes than planned (-planned +applied):\n%s", d)
	}
	if again, err := st.Plan(t.Context(), c); err != nil || !again.Empty() {
		t.Errorf("after the plan: %v\n%s", err, again)
	}
}

// A state file that is not exactly a state is refused, naming the field
// and its line. A null is a field left out, as in Go.
func TestParseStateRefuses(t *testing.T) {
	for _, tc := range []struct{ name, file, want string }{
		{"an unknown field", `{
  "services": [{"name": "orders",
    "replica_sets": [
      {"name": "a", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2},
      {"name": "b",
       "polar": true}
    ]
  }]
}`, `deploy: line 6: services[0].replica_sets[1].polar: unknown field (the fields here: cpu_millis, environment, memory_gbs, name, nodes, pooler)`},
		{"a field in another case", `{"services": [{"Name": "orders"}]}`, `deploy: line 1: services[0].Name: unknown field`},
		{"a field given twice", "{\"services\": [{\"name\": \"a\",\n\"name\": \"b\"}]}", `deploy: line 2: services[0].name: given twice`},
		{"no services", `{"prune": true}`, `deploy: line 1: services: required, missing`},
		{"the one-service form of v1", `{"service": {"name": "a"}}`, `deploy: line 1: service: unknown field`},
		{"the one-service form's sets", `{"services": [{"name": "a"}], "replica_sets": []}`, `deploy: line 1: replica_sets: unknown field (the fields here: project_id, protected, prune, prune_services, prune_vpcs, services, vpcs); a service, with its replica_sets and forks, is now an element of "services"`},
		{"a service without its name", "{\n\"services\": [{\n  \"cpu_millis\": 1000, \"memory_gbs\": 4}]}", `deploy: line 2: services[0].name: required, missing`},
		{"a fork without its strategy", "{\"services\": [{\"name\": \"a\",\n\"forks\": [{\"name\": \"b\"}]}]}", `deploy: line 2: services[0].forks[0].strategy: required, missing`},
		{"a size of the wrong type", "{\"services\": [{\"name\": \"a\",\n \"cpu_millis\": \"1000\", \"memory_gbs\": 4}]}", `deploy: line 2: services[0].cpu_millis: a JSON string, want an integer`},
		{"a size in a set of the wrong type", "{\"services\": [{\"name\": \"a\",\n\"replica_sets\": [{\"name\": \"r\"}, {\"name\": \"s\",\n \"nodes\": 1.5}]}]}", `deploy: line 3: services[0].replica_sets[1].nodes: 1.5 is not an integer`},
		{"a set that is not an object", `{"services": [{"name": "a", "replica_sets": ["r"]}]}`, `deploy: line 1: services[0].replica_sets[0]: a JSON string, want an object`},
		{"a time that is not a string", `{"services": [{"name": "a", "forks": [{"name": "f", "strategy": "PITR", "target_time": {}}]}]}`, `deploy: line 1: services[0].forks[0].target_time: a JSON object, want a string`},
		{"a null", `{"services": [{"name": "a", "pooler": null, "addons": null, "forks": null}]}`, ``},
		{"a time that is not one", "{\"services\": [{\"name\": \"a\",\n\"forks\": [{\"name\": \"b\", \"strategy\": \"PITR\",\n \"target_time\": \"yesterday\"}]}]}", `deploy: line 3: services[0].forks[0].target_time: parsing time`},
		// A comma left out: where Go's decoders of 1.26 and after agree on
		// the character and its line (for a comma too many, they name the
		// comma or the brace after it).
		{"broken JSON", "{\"services\": [{\"name\": \"a\"}]\n\"prune\": true}", `deploy: line 2: invalid character '"' after object key:value pair`},
		{"cut short", `{"services": [{"name": "a"`, `deploy: line 1: the file ends inside its JSON`},
		{"not an object", `["orders"]`, `deploy: line 1: not a JSON object`},
		{"two objects", "{\"services\": [{\"name\": \"a\"}]}\n{}", `deploy: line 2: more after the object`},
		{"no service at all", `{"services": []}`, `deploy: the state names no service`},
		{"a service named twice", `{"services": [{"name": "a"}, {"name": "a"}]}`, `deploy: service name "a" is empty or repeated`},
		{"a fork named as a service", `{"services": [{"name": "a"}, {"name": "b", "forks": [{"name": "a", "strategy": "NOW"}]}]}`, `deploy: service "b": fork name "a" is empty, or repeats`},
		{"a size without the other", `{"services": [{"name": "a", "cpu_millis": 1000}]}`, `deploy: service "a": CPUMillis and MemoryGBs go together`},
		{"an environment of none", `{"services": [{"name": "a", "replica_sets": [{"name": "r", "environment": "prod"}]}]}`, `deploy: replica set "r": environment "prod" is neither DEV nor PROD`},
		{"an addon of none", `{"services": [{"name": "a", "addons": ["timescale"]}]}`, `deploy: service "a": addon "timescale" is neither "time-series" nor "ai"`},
		{"a fork's environment of none", `{"services": [{"name": "a", "forks": [{"name": "f", "strategy": "NOW", "environment": "QA"}]}]}`, `deploy: fork "f": `},
		{"a strategy of none", `{"services": [{"name": "a", "forks": [{"name": "f", "strategy": "SOON"}]}]}`, `deploy: fork "f": `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, err := deploy.ParseState([]byte(tc.file))
			if tc.want == "" && (err != nil || st == nil) || tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want) || st != nil) {
				t.Errorf("ParseState: %v, want %q", err, tc.want)
			}
		})
	}
	_, err := deploy.ParseState([]byte(`{"services": [{"name": "orders", "pooler": true, "polar": true}]}`))
	if pe, ok := errors.AsType[*deploy.ParseError](err); !ok || pe.Line != 1 || pe.Path != "services[0].polar" {
		t.Errorf("err = %#v, want a *ParseError of services[0].polar on line 1", err)
	}
}

// A plan file of another format, or holding what no plan holds, is
// refused before anything is read or sent.
func TestParsePlanRefuses(t *testing.T) {
	const format = `"format": "` + deploy.PlanFormat + `", "project_id": "p"`
	for _, tc := range []struct{ name, file, want string }{
		{"another format", `{"format": "dbcloud-deploy-plan/v1", "whatever": 1}`, `deploy: line 1: format: "dbcloud-deploy-plan/v1", and this SDK reads "` + deploy.PlanFormat + `"`},
		{"null", "null", `deploy: format: required, missing: not a plan file`},
		{"no format: a state", "\n\n  {\"services\": [{\"name\": \"orders\"}]}", `deploy: line 3: format: required, missing: not a plan file`},
		{"no changes", `{` + format + `}`, `deploy: line 1: changes: required, missing`},
		{"a change that is not an object", `{` + format + `, "changes": [[]]}`, `deploy: line 1: changes[0]: a JSON array, want an object`},
		{"an unknown field of a change", `{` + format + `, "changes": [
  {"action": "update", "kind": "service", "service": "orders", "name": "orders", "field": "pooler",
   "from": {"pooler": false}, "to": {"polar": true}}]}`, `deploy: line 3: changes[0].to.polar: unknown field`},
		{"a change without its service", `{` + format + `, "changes": [
  {"action": "update", "kind": "service", "name": "orders", "field": "pooler", "from": {"pooler": false}, "to": {"pooler": true}}]}`, `deploy: line 2: changes[0].service: required, missing`},
		{"a service's change of another service", `{` + format + `, "changes": [{"action": "update", "kind": "service", "service": "billing", "name": "orders", "field": "pooler", "from": {"pooler": false}, "to": {"pooler": true}}]}`, `deploy: changes[0].service: "billing": a service's change names the service itself`},
		{"an update without its value", `{` + format + `, "changes": [{"action": "update", "kind": "service", "service": "orders", "name": "orders", "field": "pooler", "from": {"pooler": false}}]}`, `deploy: changes[0]: an update needs its field's value in from and to`},
		{"an update of a field no update changes", `{` + format + `, "changes": [{"action": "update", "kind": "replica set", "service": "orders", "name": "r", "field": "vpc", "from": {"vpc_id": ""}, "to": {"vpc_id": "1"}}]}`, `deploy: changes[0].field: "vpc" is not a field an update of a replica set changes`},
		{"a create of nothing", `{` + format + `, "changes": [{"action": "create", "kind": "service", "service": "orders", "name": "orders"}]}`, `deploy: changes[0].to: a create needs what it creates`},
		{"a delete without an id", `{` + format + `, "changes": [{"action": "delete", "kind": "fork", "service": "orders", "name": "f"}]}`, `deploy: changes[0].id: a delete needs the id`},
		{"an action of none", `{` + format + `, "changes": [{"action": "rename", "kind": "fork", "service": "orders", "name": "f"}]}`, `deploy: changes[0].action: "rename" is not create, update or delete`},
		{"a kind of none", `{` + format + `, "changes": [{"action": "create", "kind": "database", "service": "orders", "name": "f", "to": {}}]}`, `deploy: changes[0]: kind "database"`},
		{"a VPC's create without its range", `{` + format + `, "changes": [{"action": "create", "kind": "VPC", "service": "net", "name": "net", "to": {"name": "net", "region_code": "us-east-1"}}]}`, `deploy: changes[0].to: a VPC's create needs cidr and region_code`},
		{"a peering's create without its peer's VPC", `{` + format + `, "changes": [{"action": "create", "kind": "VPC peering", "service": "net", "name": "1/r/", "to": {"peer_account_id": "1", "peer_region_code": "r"}}]}`, `deploy: changes[0].to: a peering's create needs peer_account_id, peer_region_code and peer_vpc_id`},
		{"a VPC's change of another VPC", `{` + format + `, "changes": [{"action": "update", "kind": "VPC", "service": "a", "name": "b", "id": "1", "field": "name", "from": {"name": "c"}, "to": {"name": "b"}}]}`, `deploy: changes[0].service: "a": a VPC's change names the VPC itself`},
		{"a VPC's update of a field no update of it changes", `{` + format + `, "changes": [{"action": "update", "kind": "VPC", "service": "net", "name": "net", "id": "1", "field": "cidr", "from": {"cidr": "10.0.0.0/16"}, "to": {"cidr": "10.1.0.0/16"}}]}`, `deploy: changes[0].field: "cidr" is not a field an update of a VPC changes`},
		{"a run's record", `{` + format + `, "changes": [{"action": "delete", "kind": "fork", "service": "orders", "name": "f", "id": "1", "outcome": "done"}]}`, `deploy: line 1: changes[0].outcome: unknown field`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := deploy.ParsePlan([]byte(tc.file))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) || p != nil {
				t.Errorf("ParsePlan: %v, want %s", err, tc.want)
			}
		})
	}
}

// Whatever a file holds, ParseState and ParsePlan return an error or a
// value that goes to JSON and back unchanged (an empty list may come back
// left out); neither panics.
func FuzzParse(f *testing.F) {
	same := cmpopts.EquateEmpty()
	f.Add([]byte(`{"services": [{"name": "orders", "pooler": true, "ha_replicas": 2, "forks": [{"name": "f", "strategy": "PITR", "target_time": "2026-01-02T03:04:05Z"}]}]}`))
	f.Add([]byte(`{"format": "` + deploy.PlanFormat + `", "project_id": "p", "changes": [
		{"action": "update", "kind": "service", "service": "orders", "name": "orders", "id": "s", "field": "vpc", "from": {"vpc_id": "1"}, "to": {"vpc_id": ""}},
		{"action": "create", "kind": "replica set", "service": "orders", "name": "r", "to": {"nodes": 1, "cpu_millis": 500, "memory_gbs": 2}}],
		"seen": [{"kind": "service", "service": "orders", "name": "orders", "id": "s", "values": {"pooler": false}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if st, err := deploy.ParseState(data); err == nil {
			checkBackFromJSON(t, "state", st, deploy.ParseState, same)
		}
		if p, err := deploy.ParsePlan(data); err == nil {
			checkBackFromJSON(t, "plan", p, deploy.ParsePlan, same)
			_ = p.String()
		}
	})
}

// checkBackFromJSON checks that v, the what that parse read, goes to JSON
// and back through parse unchanged (as same compares).
func checkBackFromJSON[T any](t *testing.T, what string, v *T, parse func([]byte) (*T, error), same cmp.Option) {
	t.Helper()
	again, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if back, err := parse(again); err != nil || cmp.Diff(v, back, same) != "" {
		t.Errorf("the %s back from its JSON: %v\n%s", what, err, cmp.Diff(v, back, same))
	}
}

// The state files the guides show (deploy's and the CI recipe's) are states
// ParseState reads. (A block of JSON lines, a plan's changes one a line, is
// not one.)
func TestDocsStateFilesParse(t *testing.T) {
	block := regexp.MustCompile("(?ms)^```json\n(.*?)^```")
	for _, doc := range []string{"../docs/deploy.md", "../docs/ci.md"} {
		text, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		states := 0
		for _, m := range block.FindAllSubmatch(text, -1) {
			if !json.Valid(m[1]) {
				continue
			}
			states++
			if _, err := deploy.ParseState(m[1]); err != nil {
				t.Errorf("%s: a state file that does not parse: %v\n%s", doc, err, m[1])
			}
		}
		if states == 0 {
			t.Errorf("%s shows no state file", doc)
		}
	}
}
