package dbcloud_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// A PITR target in the future, or before the parent's creation, is a
// *ValidationError, and nothing is forked.
func TestForkTargetValidated(t *testing.T) {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	c, p := srv.Client(), srv.ProjectID
	parent, err := c.Services.Create(t.Context(), p, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	future := &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkPITR, TargetTime: time.Now().Add(time.Hour)}
	early := &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkPITR, TargetTime: parent.Created.Add(-time.Minute)}
	for _, call := range []func() error{
		func() error { _, err := c.Services.Fork(t.Context(), p, parent.ServiceID, future); return err },
		func() error { return early.Validate(parent) },
	} {
		var v *dbcloud.ValidationError
		if err := call(); !errors.As(err, &v) || v.Field != "TargetTime" {
			t.Errorf("err = %v, want a *ValidationError for TargetTime", err)
		}
	}
	if err := early.Validate(nil); err != nil {
		t.Errorf("without the parent: %v, want nil", err)
	}
	if n := srv.Count(http.MethodPost, "/projects/*/services/*/forkService"); n != 0 {
		t.Errorf("%d forks sent", n)
	}
}

// WithWaitProgress names the resource of each poll, for services and
// replica sets; WithStopOn takes stop statuses of both kinds in one option
// and stops each kind of wait on its own.
func TestWaitProgressAndStopOn(t *testing.T) {
	srv := dbcloudtest.NewServer(dbcloudtest.WithStep(time.Minute))
	defer srv.Close()
	c, p := srv.Client(), srv.ProjectID
	ctx := t.Context()
	svc, err := c.Services.Create(ctx, p, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	var seen []dbcloud.WaitProgress
	var plain []string
	opts := []dbcloud.WaitOption{
		dbcloud.WithStopOn(dbcloud.StatusUnstable, dbcloud.ReplicaSetResizing),
		dbcloud.WithProgress(func(s string) { plain = append(plain, s) }),
		dbcloud.WithWaitProgress(func(w dbcloud.WaitProgress) { seen = append(seen, w); srv.Advance(time.Minute) }),
	}
	if _, err := c.Services.WaitForReady(ctx, p, svc.ServiceID, opts...); err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 || len(seen) != len(plain) {
		t.Fatalf("%d WaitProgress calls, %d WithProgress calls", len(seen), len(plain))
	}
	last := seen[len(seen)-1]
	want := dbcloud.WaitProgress{Kind: "service", ID: svc.ServiceID, Name: "orders", Status: "READY", Want: "READY"}
	if last != want {
		t.Errorf("last progress %+v, want %+v", last, want)
	}
	if got := last.String(); got != `service "orders" (`+svc.ServiceID+`): READY, waiting for READY` {
		t.Errorf("String() = %s", got)
	}
	set, err := c.ReplicaSets.Create(ctx, p, svc.ServiceID, &dbcloud.CreateReplicaSetRequest{Name: "read", Nodes: 1, CPUMillis: 500, MemoryGBs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.SetReplicaSetStatus(svc.ServiceID, set.ID, dbcloud.ReplicaSetResizing); err != nil {
		t.Fatal(err)
	}
	_, err = c.ReplicaSets.WaitForActive(ctx, p, svc.ServiceID, set.ID, opts...)
	if last := seen[len(seen)-1]; last.Kind != "replica set" || last.Name != "read" || last.ID != set.ID {
		t.Errorf("replica set progress %+v", last)
	}
	if !errors.Is(err, dbcloud.ErrStopStatus) {
		t.Errorf("WaitForActive on a resizing set: %v, want ErrStopStatus", err)
	}
	if err := srv.SetStatus(svc.ServiceID, dbcloud.StatusUnstable); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Services.WaitForReady(ctx, p, svc.ServiceID, opts...); !errors.Is(err, dbcloud.ErrStopStatus) {
		t.Errorf("WaitForReady on UNSTABLE: %v, want ErrStopStatus", err)
	}
}
