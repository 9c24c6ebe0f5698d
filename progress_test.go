package dbcloud_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// WithProgress names the resource of each poll, for services and replica
// sets, calling each callback given in turn; WithStopOn takes stop
// statuses of both kinds in one option and stops each kind of wait on its
// own.
func TestWaitProgressAndStopOn(t *testing.T) {
	t.Parallel()
	srv, c, svc := newOrdersService(t, dbcloudtest.WithStep(time.Minute))
	ctx, p := t.Context(), srv.ProjectID
	var seen []dbcloud.WaitProgress
	var plain []string
	opts := []dbcloud.WaitOption{
		dbcloud.WithStopOn(dbcloud.StatusUnstable, dbcloud.ReplicaSetResizing),
		dbcloud.WithProgress(func(p dbcloud.WaitProgress) { plain = append(plain, fmt.Sprint(p.Status)) }),
		dbcloud.WithProgress(func(w dbcloud.WaitProgress) { seen = append(seen, w); srv.Advance(time.Minute) }),
	}
	if _, err := c.Services.WaitForReady(ctx, p, svc.ServiceID, opts...); err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 || len(seen) != len(plain) {
		t.Fatalf("%d calls of the second callback, %d of the first", len(seen), len(plain))
	}
	last := seen[len(seen)-1]
	want := dbcloud.WaitProgress{Kind: dbcloud.KindService, ID: svc.ServiceID, Name: "orders", Status: dbcloud.StatusReady, Want: "READY"}
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
	if last := seen[len(seen)-1]; last.Kind != dbcloud.KindReplicaSet || last.Status != dbcloud.ReplicaSetResizing || last.Name != "read" || last.ID != set.ID {
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
