package dbcloud_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// deploy is a re-runnable deploy of a PROD Postgres service with HA, a
// pooler, a size and a VPC; it returns what it changed.
func deploy(ctx context.Context, c *dbcloud.Client, projectID string) (*dbcloud.Service, []string, error) {
	var changes []string
	svc, created, err := c.Services.CreateUnlessExists(ctx, projectID, &dbcloud.CreateServiceRequest{
		Name: "orders-db", EnvironmentTag: dbcloud.EnvironmentProd, ReplicaCount: new(1), CPUMillis: 1000, MemoryGBs: 4,
	})
	if err != nil {
		return nil, nil, err
	}
	if created {
		changes = append(changes, "created")
	}
	id := svc.ServiceID
	if _, err := c.Services.WaitForReady(ctx, projectID, id); err != nil {
		return nil, nil, err
	}
	for _, step := range []struct {
		name string
		run  func() (bool, error)
	}{
		{"size", func() (bool, error) {
			return c.Services.EnsureSize(ctx, projectID, id, &dbcloud.ResizeRequest{CPUMillis: 2000, MemoryGBs: 8})
		}},
		{"ha", func() (bool, error) {
			return c.Services.EnsureHA(ctx, projectID, id, &dbcloud.SetHARequest{ReplicaCount: new(2)})
		}},
		{"pooler", func() (bool, error) { return c.Services.EnsurePooler(ctx, projectID, id, true) }},
		{"environment", func() (bool, error) { return c.Services.EnsureEnvironment(ctx, projectID, id, dbcloud.EnvironmentProd) }},
		{"vpc", func() (bool, error) { return c.Services.EnsureVPC(ctx, projectID, id, "1234", true) }},
	} {
		changed, err := step.run()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", step.name, err)
		}
		if changed {
			changes = append(changes, step.name)
		}
		if _, err := c.Services.WaitForReady(ctx, projectID, id); err != nil {
			return nil, nil, err
		}
	}
	rs, created, err := c.ReplicaSets.CreateUnlessExists(ctx, projectID, id, &dbcloud.CreateReplicaSetRequest{Name: "reports", Nodes: 1, CPUMillis: 1000, MemoryGBs: 4})
	if err != nil {
		return nil, nil, err
	}
	if created {
		changes = append(changes, "replica set")
	}
	if _, err := c.ReplicaSets.WaitForActive(ctx, projectID, id, rs.ID); err != nil {
		return nil, nil, err
	}
	for _, step := range []struct {
		name string
		run  func() (bool, error)
	}{
		{"replica set size", func() (bool, error) {
			return c.ReplicaSets.EnsureSize(ctx, projectID, id, rs.ID, &dbcloud.ResizeRequest{CPUMillis: 2000, MemoryGBs: 8})
		}},
		{"replica set pooler", func() (bool, error) { return c.ReplicaSets.EnsurePooler(ctx, projectID, id, rs.ID, true) }},
		{"replica set environment", func() (bool, error) {
			return c.ReplicaSets.EnsureEnvironment(ctx, projectID, id, rs.ID, dbcloud.EnvironmentDev)
		}},
	} {
		changed, err := step.run()
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", step.name, err)
		}
		if changed {
			changes = append(changes, step.name)
		}
		if _, err := c.ReplicaSets.WaitForActive(ctx, projectID, id, rs.ID); err != nil {
			return nil, nil, err
		}
	}
	svc, err = c.Services.Get(ctx, projectID, id)
	return svc, changes, err
}

// A deploy run twice against the same server: the second run changes
// nothing, sends nothing but reads, and no request of either run fails.
func TestDeployTwiceChangesNothingTheSecondTime(t *testing.T) {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	c := srv.Client()

	first, changes, err := deploy(t.Context(), c, srv.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(changes, ","), "created,size,ha,pooler,vpc,replica set,replica set size,replica set pooler,replica set environment"; got != want {
		t.Errorf("first run changed %s, want %s", got, want)
	}
	sent := len(srv.Requests())
	second, changes, err := deploy(t.Context(), c, srv.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 0 {
		t.Errorf("second run changed %v, want nothing", changes)
	}
	if first.ServiceID != second.ServiceID || len(srv.Services()) != 1 {
		t.Errorf("second run: service %s (first %s), %d services on the server", second.ServiceID, first.ServiceID, len(srv.Services()))
	}
	for i, r := range srv.Requests() {
		if r.Status >= 400 || r.Status == 0 {
			t.Errorf("request %d failed: %+v", i, r)
		}
		if i >= sent && r.Method != "GET" {
			t.Errorf("second run sent %s %s", r.Method, r.Path)
		}
	}
	sets, err := c.ReplicaSets.List(t.Context(), srv.ProjectID, second.ServiceID)
	if err != nil || len(sets) != 1 || sets[0].PoolerEndpoint() == nil || sets[0].CPUMillis != 2000 || sets[0].Environment() != dbcloud.EnvironmentDev {
		t.Errorf("replica sets: %v, %v", sets, err)
	}
	cpu, mem := second.Size()
	if cpu != 2000 || mem != 8 || second.ReplicaCount() != 2 || second.PoolerEndpoint() == nil ||
		second.Environment() != dbcloud.EnvironmentProd || second.VPCEndpoint == nil || second.VPCEndpoint.VPCID != "1234" {
		t.Errorf("deployed service: %v", second)
	}
}

// newOrdersService starts a dbcloudtest server configured by opts, closed
// with the test, and creates a service "orders" on it with a client of it.
func newOrdersService(t *testing.T, opts ...dbcloudtest.Option) (*dbcloudtest.Server, *dbcloud.Client, *dbcloud.Service) {
	t.Helper()
	c, srv := newFake(t, opts)
	return srv, c, createService(t, c, srv.ProjectID, "orders")
}

// Deployers racing on one service: every ensure step succeeds in each, and
// the change is made once; the others' 409 is read as "already done".
func TestEnsureRacingDeployers(t *testing.T) {
	c, srv := newFake(t, nil)
	svc := createReady(t, c, srv.ProjectID, "orders")
	var wg sync.WaitGroup
	var mu sync.Mutex
	changed := 0
	for range 16 {
		wg.Go(func() {
			ch, err := c.Services.EnsurePooler(t.Context(), srv.ProjectID, svc.ServiceID, true)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			if ch {
				changed++
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	if changed != 1 {
		t.Errorf("%d deployers report enabling the pooler, want 1", changed)
	}
	if n := srv.Count("POST", "/projects/*/services/*/enablePooler"); n < 1 {
		t.Errorf("%d enablePooler requests", n)
	}
}

// Another deployer's change landing between the read and the request: the
// API's 409 is read again and found done, so the step reports no change and
// no error. The stale read is a canned answer of the server.
func TestEnsureConflictAfterAStaleRead(t *testing.T) {
	srv, c, svc := newOrdersService(t)
	if err := c.Services.EnablePooler(t.Context(), srv.ProjectID, svc.ServiceID); err != nil {
		t.Fatal(err)
	}
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services/" + svc.ServiceID, Status: 200,
		Body: `{"service_id":"` + svc.ServiceID + `","name":"orders","status":"READY"}`})
	changed, err := c.Services.EnsurePooler(t.Context(), srv.ProjectID, svc.ServiceID, true)
	if changed || err != nil {
		t.Errorf("EnsurePooler after a stale read: changed %v, %v; want false, nil", changed, err)
	}
	if n := srv.Count("POST", "/projects/*/services/*/enablePooler"); n != 2 {
		t.Errorf("%d enablePooler requests, want 2 (the setup's and the stale step's)", n)
	}
	// Without the state being reached, the 409 is returned.
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services/" + svc.ServiceID, Status: 200, Times: 2,
		Body: `{"service_id":"` + svc.ServiceID + `","name":"orders","status":"READY"}`})
	if _, err := c.Services.EnsurePooler(t.Context(), srv.ProjectID, svc.ServiceID, true); !errors.Is(err, dbcloud.ErrConflict) {
		t.Errorf("EnsurePooler whose second read is still stale: %v, want ErrConflict", err)
	}
}

// Names are not unique: two services with the deploy's name are an error
// naming both, not a silent choice.
func TestCreateUnlessExistsDuplicateName(t *testing.T) {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	c := srv.Client()
	req := &dbcloud.CreateServiceRequest{Name: "orders"}
	var ids []string
	for range 2 {
		svc, err := c.Services.Create(t.Context(), srv.ProjectID, req)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, svc.ServiceID)
	}
	_, created, err := c.Services.CreateUnlessExists(t.Context(), srv.ProjectID, req)
	dup, ok := errors.AsType[*dbcloud.DuplicateNameError](err)
	if created || !ok || !errors.Is(err, dbcloud.ErrDuplicateName) || len(dup.IDs) != 2 ||
		!strings.Contains(err.Error(), ids[0]) || !strings.Contains(err.Error(), ids[1]) {
		t.Errorf("CreateUnlessExists with two services named orders: created %v, %v", created, err)
	}
	if !strings.Contains(err.Error(), `2 services are named "orders"`) {
		t.Errorf("error %q does not say what is named twice", err)
	}
	// Replica sets: the same rule, in their own words.
	setReq := &dbcloud.CreateReplicaSetRequest{Name: "reports", Nodes: 1, CPUMillis: 1000, MemoryGBs: 4}
	for range 2 {
		if _, err := c.ReplicaSets.Create(t.Context(), srv.ProjectID, ids[0], setReq); err != nil {
			t.Fatal(err)
		}
	}
	_, created, err = c.ReplicaSets.CreateUnlessExists(t.Context(), srv.ProjectID, ids[0], setReq)
	if created || !errors.Is(err, dbcloud.ErrDuplicateName) || !strings.Contains(err.Error(), `2 replica sets are named "reports"`) {
		t.Errorf("CreateUnlessExists with two replica sets named reports: created %v, %v", created, err)
	}
	// A service being deleted does not count.
	for _, id := range ids {
		if err := c.Services.Delete(t.Context(), srv.ProjectID, id); err != nil {
			t.Fatal(err)
		}
	}
	svc, created, err := c.Services.CreateUnlessExists(t.Context(), srv.ProjectID, req)
	if err != nil || !created || svc.InitialPassword == "" {
		t.Errorf("after deleting both: created %v, %v", created, err)
	}
}

// Each step in both directions: a change the first time, none the second;
// attaching to a second VPC is refused before anything is sent.
func TestEnsureStepsBothWays(t *testing.T) {
	srv, c, svc := newOrdersService(t)
	p, ctx := srv.ProjectID, t.Context()
	id := svc.ServiceID
	for _, step := range []struct {
		name string
		run  func() (bool, error)
	}{
		{"pooler on", func() (bool, error) { return c.Services.EnsurePooler(ctx, p, id, true) }},
		{"pooler off", func() (bool, error) { return c.Services.EnsurePooler(ctx, p, id, false) }},
		{"attach", func() (bool, error) { return c.Services.EnsureVPC(ctx, p, id, "77", true) }},
		{"detach", func() (bool, error) { return c.Services.EnsureVPC(ctx, p, id, "77", false) }},
		{"prod", func() (bool, error) { return c.Services.EnsureEnvironment(ctx, p, id, dbcloud.EnvironmentProd) }},
		{"dev", func() (bool, error) { return c.Services.EnsureEnvironment(ctx, p, id, dbcloud.EnvironmentDev) }},
		{"ha 1", func() (bool, error) {
			return c.Services.EnsureHA(ctx, p, id, &dbcloud.SetHARequest{ReplicaCount: new(1), SyncReplicaCount: new(1)})
		}},
		{"ha 0", func() (bool, error) {
			return c.Services.EnsureHA(ctx, p, id, &dbcloud.SetHARequest{ReplicaCount: new(0), SyncReplicaCount: new(0)})
		}},
	} {
		for i, want := range []bool{true, false} {
			changed, err := step.run()
			if err != nil || changed != want {
				t.Errorf("%s, run %d: changed %v, %v; want %v, nil", step.name, i+1, changed, err, want)
			}
			if _, err := c.Services.WaitForReady(ctx, p, id); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := c.Services.EnsureVPC(ctx, p, id, "77", true); err != nil {
		t.Fatal(err)
	}
	before := len(srv.Requests())
	if _, err := c.Services.EnsureVPC(ctx, p, id, "78", true); err == nil || !strings.Contains(err.Error(), "attached to VPC 77") {
		t.Errorf("attaching to a second VPC: %v", err)
	}
	if reqs := srv.Requests()[before:]; len(reqs) != 1 || reqs[0].Method != "GET" {
		t.Errorf("attaching to a second VPC sent %+v, want one read", reqs)
	}
	if changed, err := c.Services.EnsureVPC(ctx, p, id, "78", false); changed || err != nil {
		t.Errorf("detaching from a VPC it is not attached to: %v, %v", changed, err)
	}
}
