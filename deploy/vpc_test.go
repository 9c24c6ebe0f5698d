package deploy_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/deploy"
)

// A state's VPCs and their peerings: planned, applied, run again with
// nothing to do, and destroyed in order.

var peer = deploy.Peering{PeerAccountID: "123456789012", PeerRegionCode: "eu-central-1", PeerVPCID: "vpc-0a1b2c3d"}

// network is a fleet of two services attached to the state's VPC "net",
// by its name, which has one peering.
func network() *deploy.State {
	return &deploy.State{
		VPCs: []deploy.VPC{{Name: "net", CIDR: "10.0.0.0/16", RegionCode: "us-east-1", Peerings: []deploy.Peering{peer}}},
		Services: []deploy.Service{
			{Name: "api", VPC: "net"},
			{Name: "worker", VPC: "net"},
		},
	}
}

// accept is a progress hook that answers, as the peer's side, each
// peering the run waits for, once, when a poll first sees it pending (a
// poll already under way may see it pending again): it accepts it, or,
// with a message, fails it.
func accept(t *testing.T, srv *dbcloudtest.Server, message string) deploy.Option {
	answered := map[string]bool{} // the run's hooks are called one at a time
	return deploy.WithProgress(func(p deploy.Progress) {
		if p.Poll == nil || p.Record.Change.Kind != dbcloud.KindPeering || p.Poll.Status != dbcloud.PeeringPending || answered[p.Poll.ID] {
			return
		}
		answered[p.Poll.ID] = true
		answer := srv.AcceptPeering
		if message != "" {
			answer = func(id string) error { return srv.FailPeering(id, message) }
		}
		if err := answer(p.Poll.ID); err != nil {
			t.Error(err)
		}
	})
}

// vpcOf returns the only VPC of the fake's project.
func vpcOf(t *testing.T, c *dbcloud.Client, projectID string) dbcloud.VPC {
	t.Helper()
	vpcs, err := c.VPCs.List(t.Context(), projectID)
	if err != nil || len(vpcs) != 1 {
		t.Fatalf("VPCs on the server: %v, %v; want one", vpcs, err)
	}
	return vpcs[0]
}

func TestVPCFleetPlannedAppliedRerunDestroyed(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	st := network()
	plan, err := st.Plan(t.Context(), c)
	want := `project proj-fake: 6 change(s)
  + create VPC "net": 10.0.0.0/16, region us-east-1
  + create VPC peering "123456789012/eu-central-1/vpc-0a1b2c3d" of "net"
  + create service "api"
  ~ update service "api": vpc none -> "net"
  + create service "worker"
  ~ update service "worker": vpc none -> "net"
`
	if err != nil || plan.String() != want {
		t.Fatalf("plan: %v\n%s\nwant:\n%s", err, plan, want)
	}
	// As a reviewed plan: written, read back, applied.
	data, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	saved, err := deploy.ParsePlan(data)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	res, err := saved.Apply(t.Context(), c, accept(t, srv, ""), deploy.WithProgress(func(p deploy.Progress) {
		if p.Poll == nil && p.Record.Outcome == deploy.Done {
			order = append(order, string(p.Record.Change.Kind)+" "+p.Record.Change.Name+" "+string(p.Record.Change.Action))
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	vpc := vpcOf(t, c, srv.ProjectID)
	for _, name := range []string{"api", "worker"} {
		if !slices.Contains(order, "VPC net create") || slices.Index(order, "VPC net create") > slices.Index(order, "service "+name+" update") {
			t.Errorf("service %q attached before its VPC was created: %v", name, order)
		}
		if svc := res.Service(name); svc == nil {
			t.Errorf("no service %q in the result", name)
		} else if got, _ := srv.Service(svc.ServiceID); got.VPCEndpoint == nil || got.VPCEndpoint.VPCID != vpc.ID {
			t.Errorf("service %q: VPC endpoint %+v, want VPC %s", name, got.VPCEndpoint, vpc.ID)
		}
	}
	peerings, err := c.Peerings.List(t.Context(), srv.ProjectID, vpc.ID)
	if err != nil || len(peerings) != 1 || peerings[0].Status != dbcloud.PeeringActive || peerings[0].PeerVPCID != peer.PeerVPCID {
		t.Errorf("peerings: %+v, %v; want one, active", peerings, err)
	}
	if len(res.VPCs) != 1 || res.VPCs[0].ID != vpc.ID || len(res.Peerings["net"]) != 1 {
		t.Errorf("result: VPCs %+v, peerings %+v", res.VPCs, res.Peerings)
	}

	// Run again: the plan's reads, and nothing else.
	srv.ResetRequests()
	again, err := st.Apply(t.Context(), c)
	if err != nil || again.Changed() {
		t.Fatalf("re-run: changed %v, %v", again.Changed(), err)
	}
	var got []string
	for _, r := range srv.Requests() {
		got = append(got, r.Method+" "+r.Path)
	}
	slices.Sort(got)
	reads := []string{
		"GET /projects/proj-fake/services",
		"GET /projects/proj-fake/vpcs",
		"GET /projects/proj-fake/vpcs/" + vpc.ID + "/peerings",
	}
	if !slices.Equal(got, reads) {
		t.Errorf("re-run sent %d request(s) %q, want the plan's %d reads %q", len(got), got, len(reads), reads)
	}

	// Destroy: the services, then the peering and the VPC.
	destroy, err := st.PlanDestroy(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	want = `project proj-fake, destroy of "api", "worker", VPC "net": 4 change(s)
  - delete service "api" (` + res.Service("api").ServiceID + `)
  - delete service "worker" (` + res.Service("worker").ServiceID + `)
  - delete VPC peering "123456789012/eu-central-1/vpc-0a1b2c3d" of "net" (` + peerings[0].ID + `)
  - delete VPC "net" (` + vpc.ID + `)
`
	if destroy.String() != want {
		t.Errorf("destroy plan:\n%s\nwant:\n%s", destroy, want)
	}
	order = nil
	if _, err := destroy.Apply(t.Context(), c, deploy.WithParallelism(100), deploy.WithProgress(func(p deploy.Progress) {
		if p.Poll == nil && p.Record.Outcome == deploy.Done {
			order = append(order, string(p.Record.Change.Kind)+" "+p.Record.Change.Name)
		}
	})); err != nil {
		t.Fatal(err)
	}
	if len(order) != 4 || !slices.Contains(order[:2], "service api") || !slices.Contains(order[:2], "service worker") || order[3] != "VPC net" {
		t.Errorf("destroy order %q: the services first, the VPC last", order)
	}
	if vpcs, err := c.VPCs.List(t.Context(), srv.ProjectID); err != nil || len(vpcs) != 0 || len(srv.Services()) != 0 {
		t.Errorf("after destroy: VPCs %v (%v), services %v", vpcs, err, srv.Services())
	}
}

// A VPC's range and region are chosen at creation: a state that changes
// either has a problem, and no run sends anything.
func TestVPCCIDRChangeIsAProblem(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithPeerAcceptance(0))
	c := srv.Client()
	if _, err := network().Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	st := network()
	st.VPCs[0].CIDR = "10.1.0.0/16"
	srv.ResetRequests()
	plan, err := st.Plan(t.Context(), c)
	pe, ok := errors.AsType[*deploy.ProblemError](err)
	if !ok || len(pe.Problems) != 1 || pe.Problems[0].Field != deploy.FieldCIDR || pe.Problems[0].Kind != dbcloud.KindVPC {
		t.Fatalf("plan: %v\n%s", err, plan)
	}
	if !strings.Contains(plan.String(), `! VPC "net" (`) || !strings.Contains(err.Error(), "cidr 10.0.0.0/16, the state 10.1.0.0/16") {
		t.Errorf("plan:\n%s\nerror: %v", plan, err)
	}
	if _, err := st.Apply(t.Context(), c); !errors.As(err, &pe) {
		t.Errorf("Apply: %v, want the *ProblemError", err)
	}
	readsOnly(t, srv)
}

// A protected VPC is not deleted by a destroy: its plan has a problem, and
// the destroy sends nothing.
func TestProtectedVPCRefusedByDestroy(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithPeerAcceptance(0))
	c := srv.Client()
	st := network()
	st.Protected = []string{"net"}
	if _, err := st.Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	srv.ResetRequests()
	res, err := st.Destroy(t.Context(), c)
	pe, ok := errors.AsType[*deploy.ProblemError](err)
	if !ok || len(pe.Problems) != 1 || pe.Problems[0].Kind != dbcloud.KindVPC || !strings.Contains(pe.Problems[0].Reason, "protected") {
		t.Fatalf("Destroy: %v, want the protected VPC's problem", err)
	}
	if res.Changed() {
		t.Error("a refused destroy changed something")
	}
	readsOnly(t, srv)
	vpcOf(t, c, srv.ProjectID)
}

// A VPC whose name changed is renamed only when the state names its id;
// found by name, it would be another VPC.
func TestVPCRenamedWhenTheStateNamesItsID(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	old, err := c.VPCs.Create(t.Context(), srv.ProjectID, &dbcloud.CreateVPCRequest{Name: "old", CIDR: "10.0.0.0/16", RegionCode: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	st := &deploy.State{VPCs: []deploy.VPC{{Name: "new", ID: old.ID, CIDR: "10.0.0.0/16", RegionCode: "us-east-1"}},
		Services: []deploy.Service{{Name: "api", VPC: "new"}}}
	plan, err := st.Plan(t.Context(), c)
	want := `project proj-fake: 3 change(s)
  ~ update VPC "new" (` + old.ID + `): name "old" -> "new"
  + create service "api"
  ~ update service "api": vpc none -> "new" (` + old.ID + `)
`
	if err != nil || plan.String() != want {
		t.Fatalf("plan: %v\n%s\nwant:\n%s", err, plan, want)
	}
	if _, err := plan.Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	if got := vpcOf(t, c, srv.ProjectID); got.ID != old.ID || got.Name != "new" {
		t.Errorf("VPC %+v, want %s renamed new", got, old.ID)
	}
	if again, err := st.Plan(t.Context(), c); err != nil || !again.Empty() {
		t.Errorf("after the rename: %v\n%s", err, again)
	}
	// The plan applied again renames nothing: the name is as it wants.
	if res, err := plan.Apply(t.Context(), c); err != nil || res.Changed() {
		t.Errorf("the plan again: changed %v, %v", res.Changed(), err)
	}
}

// A peering that the peer's side fails ends its chain with the API's
// message, in the run's error and its record; the services, which do not
// wait for it, are made.
func TestPeeringFailureReportedWithItsMessage(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	res, err := network().Apply(t.Context(), c, accept(t, srv, "the peer account refused the request"))
	if !errors.Is(err, dbcloud.ErrPeeringFailed) || !strings.Contains(err.Error(), "the peer account refused the request") ||
		!strings.Contains(err.Error(), `create VPC peering "123456789012/eu-central-1/vpc-0a1b2c3d"`) {
		t.Fatalf("Apply: %v, want the peering's failure with its message", err)
	}
	for _, rec := range res.Records {
		want := deploy.Done
		if rec.Change.Kind == dbcloud.KindPeering {
			want = deploy.Failed
		}
		if rec.Outcome != want {
			t.Errorf("%s, want %s", rec, want)
		}
	}
	// The next plan shows the failure, with its message, as a problem.
	plan, err := network().Plan(t.Context(), c)
	if !errors.As(err, new(*deploy.ProblemError)) || !strings.Contains(plan.String(), "failed (the peer account refused the request)") {
		t.Errorf("plan after the failure: %v\n%s", err, plan)
	}
}

// PruneVPCs deletes a VPC the state does not name, once the services on
// it are detached; a VPC the state protects stays.
func TestPruneVPCsDetachesFirst(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	st := &deploy.State{Services: []deploy.Service{{Name: "api"}}, PruneVPCs: true}
	for _, name := range []string{"gone", "kept"} {
		v, err := c.VPCs.Create(t.Context(), srv.ProjectID, &dbcloud.CreateVPCRequest{Name: name, CIDR: "10.0.0.0/16", RegionCode: "us-east-1"})
		if err != nil {
			t.Fatal(err)
		}
		if name == "gone" {
			st.Services = append(st.Services, deploy.Service{Name: "db", VPCID: ""})
			svc, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "db"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Services.WaitForReady(t.Context(), srv.ProjectID, svc.ServiceID); err != nil {
				t.Fatal(err)
			}
			if err := c.Services.AttachToVPC(t.Context(), srv.ProjectID, svc.ServiceID, v.ID); err != nil {
				t.Fatal(err)
			}
		}
	}
	st.Protected = []string{"kept"}
	plan, err := st.Plan(t.Context(), c)
	if !errors.As(err, new(*deploy.ProblemError)) || !strings.Contains(plan.String(), `! VPC "kept"`) {
		t.Fatalf("plan: %v\n%s", err, plan)
	}
	st.Protected = nil
	st.VPCs = []deploy.VPC{{Name: "kept", CIDR: "10.0.0.0/16", RegionCode: "us-east-1"}}
	plan, err = st.Plan(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(plan.String()), "\n")
	if len(lines) != 4 || !strings.Contains(lines[2], `update service "db"`) || !strings.Contains(lines[2], "-> none") ||
		!strings.HasPrefix(strings.TrimSpace(lines[3]), `- delete VPC "gone"`) {
		t.Fatalf("plan:\n%s", plan)
	}
	if _, err := plan.Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	if got := vpcOf(t, c, srv.ProjectID); got.Name != "kept" {
		t.Errorf("left %+v, want kept", got)
	}
}

// A state file's VPCs are read strictly, and checked before any request.
func TestParseStateVPCs(t *testing.T) {
	st, err := deploy.ParseState([]byte(`{"services": [{"name": "api", "vpc": "net"}],
 "vpcs": [{"name": "net", "cidr": "10.0.0.0/16", "region_code": "us-east-1",
  "peerings": [{"peer_account_id": "1", "peer_region_code": "eu-central-1", "peer_vpc_id": "vpc-1"}]}],
 "prune_vpcs": true, "protected": ["net"]}`))
	if err != nil || len(st.VPCs) != 1 || st.VPCs[0].Peerings[0].PeerVPCID != "vpc-1" || st.Services[0].VPC != "net" || !st.PruneVPCs {
		t.Fatalf("ParseState: %+v, %v", st, err)
	}
	for _, tc := range []struct{ name, file, want string }{
		{"no cidr", `{"services": [], "vpcs": [{"name": "net", "region_code": "us-east-1"}]}`, "line 1: vpcs[0].cidr: required, missing"},
		{"a peer field left out", `{"services": [], "vpcs": [{"name": "net", "cidr": "10.0.0.0/16", "region_code": "r",
  "peerings": [{"peer_account_id": "1", "peer_vpc_id": "vpc-1"}]}]}`, "line 2: vpcs[0].peerings[0].peer_region_code: required, missing"},
		{"a range with host bits", `{"services": [], "vpcs": [{"name": "net", "cidr": "10.0.0.1/16", "region_code": "r"}]}`, `cidr "10.0.0.1/16" is not an IPv4 range`},
		{"a VPC not of the state", `{"services": [{"name": "api", "vpc": "other"}], "vpcs": [{"name": "net", "cidr": "10.0.0.0/16", "region_code": "r"}]}`, `vpc "other" is not a VPC of the state`},
		{"a VPC by name and by id", `{"services": [{"name": "api", "vpc": "net", "vpc_id": "1"}], "vpcs": [{"name": "net", "cidr": "10.0.0.0/16", "region_code": "r"}]}`, "or vpc_id is given too"},
		{"a repeated peering", `{"services": [], "vpcs": [{"name": "net", "cidr": "10.0.0.0/16", "region_code": "r", "peerings": [
  {"peer_account_id": "1", "peer_region_code": "r", "peer_vpc_id": "v"}, {"peer_account_id": "1", "peer_region_code": "r", "peer_vpc_id": "v"}]}]}`, "is repeated"},
		{"a slash in a peer field", `{"services": [], "vpcs": [{"name": "net", "cidr": "10.0.0.0/16", "region_code": "r", "peerings": [
  {"peer_account_id": "1/2", "peer_region_code": "r", "peer_vpc_id": "v"}]}]}`, `has a "/" in one`},
	} {
		if _, err := deploy.ParseState([]byte(tc.file)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

// A saved plan is stale once a VPC it saw was renamed behind it: its
// Apply refuses it whole, with nothing sent.
func TestSavedPlanStaleOnceItsVPCIsRenamed(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithPeerAcceptance(0))
	c := srv.Client()
	if _, err := network().Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	st := network()
	st.Services[0].Pooler = new(true)
	plan, err := st.Plan(t.Context(), c)
	if err != nil || len(plan.Changes) != 1 {
		t.Fatalf("plan: %v\n%s", err, plan)
	}
	if err := c.VPCs.Rename(t.Context(), srv.ProjectID, vpcOf(t, c, srv.ProjectID).ID, "renamed"); err != nil {
		t.Fatal(err)
	}
	srv.ResetRequests()
	_, err = plan.Apply(t.Context(), c)
	if stale, ok := errors.AsType[*deploy.StalePlanError](err); !ok || stale.Kind != dbcloud.KindVPC || stale.Field != deploy.FieldName {
		t.Fatalf("Apply: %v, want the VPC's name stale", err)
	}
	readsOnly(t, srv)
}

// A run whose attachment is refused stops that service's chain alone; the
// same Apply again finishes it, attaching to the VPC the first run made.
func TestVPCRunCutRerunFinishes(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithPeerAcceptance(0))
	c := srv.Client()
	srv.InjectFault(dbcloudtest.Fault{Method: http.MethodPost, Path: "/projects/*/services/*/attachToVPC", Status: http.StatusBadRequest, Body: `{"code":"BAD_REQUEST","message":"no"}`})
	if _, err := network().Apply(t.Context(), c, deploy.WithParallelism(1)); err == nil || !strings.Contains(err.Error(), `update service "api"`) {
		t.Fatalf("first run: %v, want api's attachment refused", err)
	}
	res, err := network().Apply(t.Context(), c)
	if err != nil || len(res.Records) != 1 || res.Records[0].Change.Field != deploy.FieldVPC || res.Records[0].Outcome != deploy.Done {
		t.Fatalf("re-run: %v, %v", res.Records, err)
	}
	vpc := vpcOf(t, c, srv.ProjectID)
	for _, svc := range srv.Services() {
		if svc.VPCEndpoint == nil || svc.VPCEndpoint.VPCID != vpc.ID {
			t.Errorf("service %q: %+v, want attached to %s", svc.Name, svc.VPCEndpoint, vpc.ID)
		}
	}
}
