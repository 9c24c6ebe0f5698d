package deploy

// The steps Apply is made of, each alone: they read first and change only
// what differs, also when deployers race, and refuse nothing more than a
// read-only client refuses. (Moved here with the steps from the dbcloud
// package, whose ensure methods they were.)

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// tinyRetries makes a client of the fake retry after a millisecond or two.
var tinyRetries = dbcloud.WithRetryWait(time.Millisecond, 2*time.Millisecond)

// fastPolls makes waits poll every millisecond or two.
var fastPolls = dbcloud.WithPollInterval(time.Millisecond, 2*time.Millisecond)

// newFake starts a dbcloudtest server configured by opts, closed with the
// test, and returns a client of it.
func newFake(t testing.TB, opts []dbcloudtest.Option, extra ...dbcloud.Option) (*dbcloud.Client, *dbcloudtest.Server) {
	t.Helper()
	dbcloudtest.CheckGoroutines(t)
	srv := dbcloudtest.NewServer(opts...)
	t.Cleanup(srv.Close)
	return srv.Client(append([]dbcloud.Option{tinyRetries}, extra...)...), srv
}

// createService creates a service named name, failing the test if it cannot.
func createService(t testing.TB, c *dbcloud.Client, project, name string) *dbcloud.Service {
	t.Helper()
	svc, err := c.Services.Create(context.Background(), project, &dbcloud.CreateServiceRequest{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// createReady creates a service on the fake and waits until it is READY.
func createReady(t testing.TB, c *dbcloud.Client, project, name string) *dbcloud.Service {
	t.Helper()
	svc := createService(t, c, project, name)
	ready, err := c.Services.WaitForReady(context.Background(), project, svc.ServiceID, fastPolls)
	if err != nil {
		t.Fatal(err)
	}
	return ready
}

// newFakeWithSet is a fake with a READY service "db" and a replica set "r"
// of it.
func newFakeWithSet(t *testing.T) (*dbcloud.Client, *dbcloudtest.Server, *dbcloud.Service, *dbcloud.ReadReplicaSet) {
	t.Helper()
	c, srv := newFake(t, nil)
	svc := createReady(t, c, srv.ProjectID, "db")
	set, err := c.ReplicaSets.Create(t.Context(), srv.ProjectID, svc.ServiceID, &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 500, MemoryGBs: 2})
	if err != nil {
		t.Fatal(err)
	}
	return c, srv, svc, set
}

// deploy is a re-runnable deploy of a PROD Postgres service with HA, a
// pooler, a size and a VPC; it returns what it changed.
func deploy(ctx context.Context, c *dbcloud.Client, projectID string) (*dbcloud.Service, []string, error) {
	var changes []string
	svc, created, err := (services{c, projectID}).createUnlessExists(ctx, &dbcloud.CreateServiceRequest{
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
			return (services{c, projectID}).ensureSize(ctx, id, &dbcloud.ResizeRequest{CPUMillis: 2000, MemoryGBs: 8})
		}},
		{"ha", func() (bool, error) {
			return (services{c, projectID}).ensureHA(ctx, id, &dbcloud.SetHARequest{ReplicaCount: new(2)})
		}},
		{"pooler", func() (bool, error) { return (services{c, projectID}).ensurePooler(ctx, id, true) }},
		{"environment", func() (bool, error) {
			return (services{c, projectID}).ensureEnvironment(ctx, id, dbcloud.EnvironmentProd)
		}},
		{"vpc", func() (bool, error) { return (services{c, projectID}).ensureVPC(ctx, id, "1234", true) }},
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
	rs, created, err := (replicaSets{c, projectID, id}).createUnlessExists(ctx, &dbcloud.CreateReplicaSetRequest{Name: "reports", Nodes: 1, CPUMillis: 1000, MemoryGBs: 4})
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
			return (replicaSets{c, projectID, id}).ensureSize(ctx, rs.ID, &dbcloud.ResizeRequest{CPUMillis: 2000, MemoryGBs: 8})
		}},
		{"replica set pooler", func() (bool, error) { return (replicaSets{c, projectID, id}).ensurePooler(ctx, rs.ID, true) }},
		{"replica set environment", func() (bool, error) {
			return (replicaSets{c, projectID, id}).ensureEnvironment(ctx, rs.ID, dbcloud.EnvironmentDev)
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
			ch, err := (services{c, srv.ProjectID}).ensurePooler(t.Context(), svc.ServiceID, true)
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
	changed, err := (services{c, srv.ProjectID}).ensurePooler(t.Context(), svc.ServiceID, true)
	if changed || err != nil {
		t.Errorf("EnsurePooler after a stale read: changed %v, %v; want false, nil", changed, err)
	}
	if n := srv.Count("POST", "/projects/*/services/*/enablePooler"); n != 2 {
		t.Errorf("%d enablePooler requests, want 2 (the setup's and the stale step's)", n)
	}
	// Without the state being reached, the 409 is returned.
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services/" + svc.ServiceID, Status: 200, Times: 2,
		Body: `{"service_id":"` + svc.ServiceID + `","name":"orders","status":"READY"}`})
	if _, err := (services{c, srv.ProjectID}).ensurePooler(t.Context(), svc.ServiceID, true); !errors.Is(err, dbcloud.ErrConflict) {
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
	_, created, err := (services{c, srv.ProjectID}).createUnlessExists(t.Context(), req)
	dup, ok := errors.AsType[*DuplicateNameError](err)
	if created || !ok || !errors.Is(err, ErrDuplicateName) || len(dup.IDs) != 2 ||
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
	_, created, err = (replicaSets{c, srv.ProjectID, ids[0]}).createUnlessExists(t.Context(), setReq)
	if created || !errors.Is(err, ErrDuplicateName) || !strings.Contains(err.Error(), `2 replica sets are named "reports"`) {
		t.Errorf("CreateUnlessExists with two replica sets named reports: created %v, %v", created, err)
	}
	// A service being deleted does not count.
	for _, id := range ids {
		if err := c.Services.Delete(t.Context(), srv.ProjectID, id); err != nil {
			t.Fatal(err)
		}
	}
	svc, created, err := (services{c, srv.ProjectID}).createUnlessExists(t.Context(), req)
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
		{"pooler on", func() (bool, error) { return (services{c, p}).ensurePooler(ctx, id, true) }},
		{"pooler off", func() (bool, error) { return (services{c, p}).ensurePooler(ctx, id, false) }},
		{"attach", func() (bool, error) { return (services{c, p}).ensureVPC(ctx, id, "77", true) }},
		{"detach", func() (bool, error) { return (services{c, p}).ensureVPC(ctx, id, "77", false) }},
		{"prod", func() (bool, error) { return (services{c, p}).ensureEnvironment(ctx, id, dbcloud.EnvironmentProd) }},
		{"dev", func() (bool, error) { return (services{c, p}).ensureEnvironment(ctx, id, dbcloud.EnvironmentDev) }},
		{"ha 1", func() (bool, error) {
			return (services{c, p}).ensureHA(ctx, id, &dbcloud.SetHARequest{ReplicaCount: new(1), SyncReplicaCount: new(1)})
		}},
		{"ha 0", func() (bool, error) {
			return (services{c, p}).ensureHA(ctx, id, &dbcloud.SetHARequest{ReplicaCount: new(0), SyncReplicaCount: new(0)})
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
	if _, err := (services{c, p}).ensureVPC(ctx, id, "77", true); err != nil {
		t.Fatal(err)
	}
	before := len(srv.Requests())
	if _, err := (services{c, p}).ensureVPC(ctx, id, "78", true); err == nil || !strings.Contains(err.Error(), "attached to VPC 77") {
		t.Errorf("attaching to a second VPC: %v", err)
	}
	if reqs := srv.Requests()[before:]; len(reqs) != 1 || reqs[0].Method != "GET" {
		t.Errorf("attaching to a second VPC sent %+v, want one read", reqs)
	}
	if changed, err := (services{c, p}).ensureVPC(ctx, id, "78", false); changed || err != nil {
		t.Errorf("detaching from a VPC it is not attached to: %v, %v", changed, err)
	}
}

// ForkUnlessExists forks once, finds the fork by name and parent on the
// next call (named, and with the API's default name), and does not take a
// service of the name forked from another parent for it. The PITR target
// comes from the real clock: the test server takes it.
func TestForkUnlessExists(t *testing.T) {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	c, p := srv.Client(), srv.ProjectID
	ctx := t.Context()
	parent, err := c.Services.Create(ctx, p, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	other, err := c.Services.Create(ctx, p, &dbcloud.CreateServiceRequest{Name: "other"})
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []*dbcloud.ForkServiceRequest{
		{Strategy: dbcloud.ForkPITR, TargetTime: time.Now(), Name: "staging"},
		{Strategy: dbcloud.ForkNow},
	} {
		first, created, err := (services{c, p}).forkUnlessExists(ctx, parent.ServiceID, req)
		if err != nil || !created || first.InitialPassword == "" {
			t.Fatalf("first fork %+v: created %v, err %v", req, created, err)
		}
		again, created, err := (services{c, p}).forkUnlessExists(ctx, parent.ServiceID, req)
		if err != nil || created || again.ServiceID != first.ServiceID {
			t.Fatalf("second call %+v: %v, created %v, err %v; want %s found", req, again, created, err, first.ServiceID)
		}
		// The same name under another parent is another fork.
		req2 := *req
		req2.Name = first.Name
		if req2.Strategy == dbcloud.ForkPITR {
			req2.TargetTime = time.Now()
		}
		f, created, err := (services{c, p}).forkUnlessExists(ctx, other.ServiceID, &req2)
		if err != nil || !created || f.ServiceID == first.ServiceID {
			t.Fatalf("fork of another parent named %s: created %v, err %v", first.Name, created, err)
		}
	}
	// A service of the name that is not a fork is not the fork either.
	if _, err := c.Services.Create(ctx, p, &dbcloud.CreateServiceRequest{Name: "plain"}); err != nil {
		t.Fatal(err)
	}
	if f, created, err := (services{c, p}).forkUnlessExists(ctx, parent.ServiceID, &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow, Name: "plain"}); err != nil || !created || f.ForkedFrom == nil {
		t.Fatalf("fork named as a plain service: created %v, err %v", created, err)
	}
	if n := srv.Count(http.MethodPost, "/projects/*/services/*/forkService"); n != 5 {
		t.Errorf("%d forks sent, want 5", n)
	}
}

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
		func() error {
			_, _, err := (services{c, p}).forkUnlessExists(t.Context(), parent.ServiceID, future)
			return err
		},
		func() error {
			_, _, err := (services{c, p}).forkUnlessExists(t.Context(), parent.ServiceID, early)
			return err
		},
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

// composites read, then change only what differs: their reads work under
// WithReadOnly and their changes are refused (TestReadOnlyComposites).
var composites = []string{
	"Services.EnsurePooler", "Services.EnsureVPC", "Services.EnsureEnvironment", "Services.EnsureHA",
	"Services.EnsureSize", "Services.CreateUnlessExists", "Services.ForkUnlessExists",
	"ReplicaSets.EnsurePooler", "ReplicaSets.EnsureEnvironment", "ReplicaSets.EnsureSize",
	"ReplicaSets.CreateUnlessExists",
}

// The composite helpers of a read-only client read, and then refuse the
// change when one is needed, with nothing but GETs sent; when nothing
// differs they answer as before.
func TestReadOnlyComposites(t *testing.T) {
	rw, srv, svc, set := newFakeWithSet(t)
	ctx, p := t.Context(), srv.ProjectID
	if _, err := rw.ReplicaSets.WaitForActive(ctx, p, svc.ServiceID, set.ID, fastPolls); err != nil {
		t.Fatal(err)
	}
	other := dbcloud.EnvironmentProd
	if svc.Environment() == dbcloud.EnvironmentProd {
		other = dbcloud.EnvironmentDev
	}
	ro := srv.Client(tinyRetries, dbcloud.WithReadOnly())
	srv.ResetRequests()
	two, bigger := 2, &dbcloud.ResizeRequest{CPUMillis: 4000, MemoryGBs: 16}
	id, rs := svc.ServiceID, set.ID
	refused := map[string]error{}
	_, refused["Services.EnsurePooler"] = (services{ro, p}).ensurePooler(ctx, id, true)
	_, refused["Services.EnsureVPC"] = (services{ro, p}).ensureVPC(ctx, id, "1234", true)
	_, refused["Services.EnsureEnvironment"] = (services{ro, p}).ensureEnvironment(ctx, id, other)
	_, refused["Services.EnsureHA"] = (services{ro, p}).ensureHA(ctx, id, &dbcloud.SetHARequest{ReplicaCount: &two})
	_, refused["Services.EnsureSize"] = (services{ro, p}).ensureSize(ctx, id, bigger)
	_, _, refused["Services.CreateUnlessExists"] = (services{ro, p}).createUnlessExists(ctx, &dbcloud.CreateServiceRequest{Name: "new"})
	_, _, refused["Services.ForkUnlessExists"] = (services{ro, p}).forkUnlessExists(ctx, id, &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow, Name: "new"})
	_, refused["ReplicaSets.EnsurePooler"] = (replicaSets{ro, p, id}).ensurePooler(ctx, rs, true)
	_, refused["ReplicaSets.EnsureEnvironment"] = (replicaSets{ro, p, id}).ensureEnvironment(ctx, rs, other)
	_, refused["ReplicaSets.EnsureSize"] = (replicaSets{ro, p, id}).ensureSize(ctx, rs, bigger)
	_, _, refused["ReplicaSets.CreateUnlessExists"] = (replicaSets{ro, p, id}).createUnlessExists(ctx,
		&dbcloud.CreateReplicaSetRequest{Name: "new", Nodes: 1, CPUMillis: 500, MemoryGBs: 2})
	for _, name := range composites {
		if err := refused[name]; !errors.Is(err, dbcloud.ErrReadOnly) {
			t.Errorf("%s of a change: err = %v, want ErrReadOnly", name, err)
		}
	}
	for _, r := range srv.Requests() {
		if r.Method != http.MethodGet {
			t.Errorf("a read-only client sent %s %s", r.Method, r.Path)
		}
	}
	if len(srv.Requests()) == 0 {
		t.Error("no read was sent: the composites did not read first")
	}

	// Nothing to change: the same answers as a read-write client's.
	if changed, err := (services{ro, p}).ensureEnvironment(ctx, id, svc.Environment()); changed || err != nil {
		t.Errorf("EnsureEnvironment to the same tag: changed %v, err %v", changed, err)
	}
	if got, created, err := (services{ro, p}).createUnlessExists(ctx, &dbcloud.CreateServiceRequest{Name: "db"}); err != nil || created || got.ServiceID != id {
		t.Errorf("CreateUnlessExists of an existing name: %v, created %v, err %v", got, created, err)
	}
	if got, created, err := (replicaSets{ro, p, id}).createUnlessExists(ctx,
		&dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 500, MemoryGBs: 2}); err != nil || created || got.ID != rs {
		t.Errorf("ReplicaSets.CreateUnlessExists of an existing name: %v, created %v, err %v", got, created, err)
	}
	fork, err := rw.Services.Fork(ctx, p, id, &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow})
	if err != nil {
		t.Fatal(err)
	}
	if got, created, err := (services{ro, p}).forkUnlessExists(ctx, id, &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow}); err != nil || created || got.ServiceID != fork.ServiceID {
		t.Errorf("ForkUnlessExists of an existing fork: %v, created %v, err %v", got, created, err)
	}
}
