package deploy_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/deploy"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
)

// resized is the trial state with the service and its replica set made
// bigger: a plan of two resizes on the trial.
func resized() *deploy.State {
	st := trial()
	st.Services[0].CPUMillis, st.Services[0].MemoryGBs = 2000, 8
	st.Services[0].ReplicaSets[0].CPUMillis, st.Services[0].ReplicaSets[0].MemoryGBs = 1000, 4
	return st
}

// A plan saved, then the world changed behind it: its Apply reads, finds
// the change, and returns a *StalePlanError naming the resource, the field,
// what the plan expected and what it found, having sent nothing. Without
// the change, the same plan applies as reviewed.
func TestSavedPlanStale(t *testing.T) {
	for _, behind := range []struct {
		name     string
		change   func(t *testing.T, srv *dbcloudtest.Server, c *dbcloud.Client, svc dbcloud.Service)
		kind     dbcloud.ResourceKind
		field    deploy.Field
		expected string
		found    string // "" for a resource gone
	}{
		{"a resize", func(t *testing.T, srv *dbcloudtest.Server, c *dbcloud.Client, svc dbcloud.Service) {
			if _, err := c.Services.Resize(t.Context(), srv.ProjectID, svc.ServiceID, &dbcloud.ResizeRequest{CPUMillis: 4000, MemoryGBs: 16}); err != nil {
				t.Fatal(err)
			}
		}, dbcloud.KindService, deploy.FieldSize, "1000m CPU / 4 GB", "4000m CPU / 16 GB"},
		{"a pooler turned off", func(t *testing.T, srv *dbcloudtest.Server, c *dbcloud.Client, svc dbcloud.Service) {
			if err := c.Services.DisablePooler(t.Context(), srv.ProjectID, svc.ServiceID); err != nil {
				t.Fatal(err)
			}
		}, dbcloud.KindService, deploy.FieldPooler, "on", "off"},
		{"a replica set deleted", func(t *testing.T, srv *dbcloudtest.Server, c *dbcloud.Client, svc dbcloud.Service) {
			if err := c.ReplicaSets.Delete(t.Context(), srv.ProjectID, svc.ServiceID, svc.ReadReplicaSets[0].ID); err != nil {
				t.Fatal(err)
			}
		}, dbcloud.KindReplicaSet, "", "", ""},
		{"nothing", nil, "", "", "", ""},
	} {
		t.Run(behind.name, func(t *testing.T) {
			srv, c := deployed(t)
			plan, err := resized().Plan(t.Context(), srv.Client(dbcloud.WithReadOnly()))
			if err != nil || len(plan.Changes) != 2 {
				t.Fatalf("plan: %v\n%s", err, plan)
			}
			svc, _ := orders(t, srv)
			if behind.change != nil {
				behind.change(t, srv, c, svc)
			}
			mark := len(srv.Requests())
			res, err := plan.Apply(t.Context(), c)
			if behind.change == nil {
				if err != nil || !res.Changed() {
					t.Fatalf("the plan with the world as it saw it: %v", err)
				}
				if again, err := resized().Plan(t.Context(), c); err != nil || !again.Empty() {
					t.Errorf("after the plan: %v\n%s", err, again)
				}
				return
			}
			stale, ok := errors.AsType[*deploy.StalePlanError](err)
			if !ok || !errors.Is(err, deploy.ErrStalePlan) || stale.Kind != behind.kind || stale.Field != behind.field {
				t.Fatalf("err = %v, want a stale plan of the %s's %s", err, behind.kind, behind.field)
			}
			if behind.found == "" && stale.Found != nil || behind.found != "" && !strings.Contains(err.Error(), "expected "+behind.expected+", found "+behind.found) {
				t.Errorf("err = %v, want %s found as %q", err, behind.field, behind.found)
			}
			if n := mutations(srv, mark); n != 0 || res.Changed() {
				t.Errorf("a stale plan sent %d mutating requests (%v)", n, byMethod(srv, mark))
			}
		})
	}
}

// The world changed during a run, between two steps (the set resized
// behind it, and resizing still): the step's request meets the API's 409,
// and the step, reading the set again, finds it neither as the plan saw it
// nor as wanted, and stops the run with the stale plan error.
func TestStaleStepStopsTheRun(t *testing.T) {
	srv, c, advance := stepped(t)
	svc, _ := orders(t, srv)
	rs := svc.ReadReplicaSets[0]
	res, err := resized().Apply(t.Context(), c, advance, deploy.WithProgress(func(p deploy.Progress) {
		if p.Poll == nil && p.Record.Change.Kind == dbcloud.KindService && p.Record.Outcome == deploy.Done {
			if err := c.ReplicaSets.Resize(t.Context(), srv.ProjectID, svc.ServiceID, rs.ID, &dbcloud.ResizeRequest{CPUMillis: 3000, MemoryGBs: 12}); err != nil {
				t.Error(err)
			}
		}
	}))
	stale, ok := errors.AsType[*deploy.StalePlanError](err)
	if !ok || stale.Kind != dbcloud.KindReplicaSet || stale.ID != rs.ID || stale.Found.CPUMillis != 3000 || stale.Expected.CPUMillis != 500 {
		t.Fatalf("err = %v, want the replica set's size found changed", err)
	}
	if got := []deploy.Outcome{res.Records[0].Outcome, res.Records[1].Outcome}; got[0] != deploy.Done || got[1] != deploy.Failed {
		t.Errorf("outcomes %v", got)
	}
	if got, _ := srv.Service(svc.ServiceID); got.ReadReplicaSets[0].CPUMillis != 3000 {
		t.Errorf("the set: %v", got.ReadReplicaSets[0])
	}
}

// A service attached to another VPC: the plan detaches it and attaches it,
// two changes, and Apply makes both.
func TestVPCMove(t *testing.T) {
	srv, c := deployed(t)
	svc, _ := orders(t, srv)
	from, to := fixture.CreateVPC(t, c, srv.ProjectID, "a"), fixture.CreateVPC(t, c, srv.ProjectID, "b")
	if err := c.Services.AttachToVPC(t.Context(), srv.ProjectID, svc.ServiceID, from); err != nil {
		t.Fatal(err)
	}
	st := trial()
	st.Services[0].VPCID = to
	plan, err := st.Plan(t.Context(), c)
	want := `project proj-fake: 2 change(s)
  ~ update service "orders" (` + svc.ServiceID + `): vpc ` + from + ` -> none
  ~ update service "orders" (` + svc.ServiceID + `): vpc none -> ` + to + `
`
	if err != nil || plan.String() != want {
		t.Fatalf("plan: %v\n%s\nwant:\n%s", err, plan, want)
	}
	if _, err := plan.Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	if got, _ := srv.Service(svc.ServiceID); got.VPCEndpoint == nil || got.VPCEndpoint.VPCID != to {
		t.Errorf("after Apply: %+v", got.VPCEndpoint)
	}
	if again, err := st.Plan(t.Context(), c); err != nil || !again.Empty() {
		t.Errorf("after Apply: %v\n%s", err, again)
	}
}
