package dbcloudtest_test

import (
	"errors"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/google/go-cmp/cmp"
)

// Service and Services show what a GET and a List show.
func TestServiceIsWhatTheAPIReturns(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithProjects("p1", "p2"))
	c := srv.Client()
	ctx := t.Context()
	first := createReady(t, c, "p1")
	if err := c.Services.EnablePooler(ctx, "p1", first.ServiceID); err != nil {
		t.Fatal(err)
	}
	if err := c.Services.AttachToVPC(ctx, "p1", first.ServiceID, createVPC(t, srv, "p1")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ReplicaSets.Create(ctx, "p1", first.ServiceID, &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 500, MemoryGBs: 2}); err != nil {
		t.Fatal(err)
	}
	second, err := c.Services.Create(ctx, "p2", &dbcloud.CreateServiceRequest{Name: "other", ReplicaCount: new(2)})
	if err != nil {
		t.Fatal(err)
	}
	if second.InitialPassword == "" {
		t.Fatal("no initial password in the create response")
	}

	var fromAPI []dbcloud.Service
	for _, want := range []struct{ project, id string }{{"p2", second.ServiceID}, {"p1", first.ServiceID}} {
		got, err := c.Services.Get(ctx, want.project, want.id)
		if err != nil {
			t.Fatal(err)
		}
		fromAPI = append(fromAPI, *got)
		view, ok := srv.Service(want.id)
		if !ok {
			t.Fatalf("Service(%s) not found", want.id)
		}
		if diff := cmp.Diff(*got, view); diff != "" {
			t.Errorf("Service(%s) differs from Get (-get +Service):\n%s", want.id, diff)
		}
	}
	if fromAPI[1].VPCEndpoint == nil || fromAPI[1].ConnectionPooler == nil || len(fromAPI[1].ReadReplicaSets) != 1 {
		t.Errorf("the compared service lacks the parts under test: %+v", fromAPI[1])
	}
	if diff := cmp.Diff(fromAPI, srv.Services()); diff != "" {
		t.Errorf("Services is not every service, newest first (-want +got):\n%s", diff)
	}

	if err := c.Services.Delete(ctx, "p2", second.ServiceID); err != nil {
		t.Fatal(err)
	}
	if _, ok := srv.Service(second.ServiceID); ok {
		t.Error("Service finds a deleted service")
	}
	if _, ok := srv.Service("no-such-id"); ok {
		t.Error("Service finds an unknown id")
	}
	if n := len(srv.Services()); n != 1 {
		t.Errorf("%d services after the delete", n)
	}
}

// With WithStep(d) statuses move only with Advance, one per d.
func TestStepAndAdvance(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithStep(time.Minute))
	c := srv.Client()
	ctx := t.Context()
	svc := create(t, c, srv.ProjectID)
	status := func() dbcloud.ServiceStatus {
		t.Helper()
		got, err := c.Services.Get(ctx, srv.ProjectID, svc.ServiceID)
		if err != nil {
			t.Fatal(err)
		}
		return got.Status
	}
	start := srv.Now()
	for i, want := range []dbcloud.ServiceStatus{dbcloud.StatusQueued, dbcloud.StatusQueued,
		dbcloud.StatusConfiguring, dbcloud.StatusConfiguring, dbcloud.StatusReady} {
		if i > 0 {
			srv.Advance(30 * time.Second)
		}
		if got := status(); got != want {
			t.Fatalf("at +%v: %s, want %s", srv.Now().Sub(start), got, want)
		}
	}
	if d := srv.Now().Sub(start); d != 2*time.Minute {
		t.Errorf("Now moved %v, want 2m", d)
	}
}

// With the default WithStep(0) every operation is done by the next read.
func TestStepZero(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	ctx := t.Context()
	svc := create(t, c, srv.ProjectID)
	if svc.Status != dbcloud.StatusQueued {
		t.Errorf("create response %s, want QUEUED", svc.Status)
	}
	if got, _ := srv.Service(svc.ServiceID); got.Status != dbcloud.StatusReady {
		t.Errorf("after the create: %s, want READY", got.Status)
	}
	stopped, err := c.Services.Stop(ctx, srv.ProjectID, svc.ServiceID)
	if err != nil || stopped.Status != dbcloud.StatusPausing {
		t.Fatalf("Stop: %v %v", stopped, err)
	}
	if got, _ := srv.Service(svc.ServiceID); got.Status != dbcloud.StatusPaused {
		t.Errorf("after the stop: %s, want PAUSED", got.Status)
	}
}

func TestSetStatus(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithStep(time.Minute))
	c := srv.Client()
	ctx := t.Context()
	svc := create(t, c, srv.ProjectID)
	if err := srv.SetStatus(svc.ServiceID, "MIGRATING"); err != nil {
		t.Fatal(err)
	}
	srv.Advance(time.Hour) // the create's plan would be READY by now: it is cancelled
	if got, _ := srv.Service(svc.ServiceID); got.Status != "MIGRATING" {
		t.Errorf("status %s, want the forced MIGRATING", got.Status)
	}
	if _, err := c.Services.Resize(ctx, srv.ProjectID, svc.ServiceID, &dbcloud.ResizeRequest{CPUMillis: 1000, MemoryGBs: 4}); err == nil {
		t.Error("resize of a MIGRATING service succeeded")
	}

	rs, err := c.ReplicaSets.Create(ctx, srv.ProjectID, svc.ServiceID, &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 500, MemoryGBs: 2})
	if err == nil {
		t.Fatalf("replica set created on a MIGRATING service: %+v", rs)
	}
	if err := srv.SetStatus(svc.ServiceID, dbcloud.StatusReady); err != nil {
		t.Fatal(err)
	}
	if rs, err = c.ReplicaSets.Create(ctx, srv.ProjectID, svc.ServiceID, &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 500, MemoryGBs: 2}); err != nil {
		t.Fatal(err)
	}
	if err := srv.SetReplicaSetStatus(svc.ServiceID, rs.ID, dbcloud.ReplicaSetError); err != nil {
		t.Fatal(err)
	}
	_, err = c.ReplicaSets.WaitForActive(ctx, srv.ProjectID, svc.ServiceID, rs.ID)
	if !errors.Is(err, dbcloud.ErrUnexpectedStatus) {
		t.Errorf("waiting for a set in error: %v", err)
	}

	for name, err := range map[string]error{
		"unknown service":     srv.SetStatus("nope", dbcloud.StatusReady),
		"empty status":        srv.SetStatus(svc.ServiceID, ""),
		"unknown replica set": srv.SetReplicaSetStatus(svc.ServiceID, "rs-nope", dbcloud.ReplicaSetActive),
		"set of no service":   srv.SetReplicaSetStatus("nope", rs.ID, dbcloud.ReplicaSetActive),
		"empty set status":    srv.SetReplicaSetStatus(svc.ServiceID, rs.ID, ""),
	} {
		checkUserError(t, name, err)
	}
}
