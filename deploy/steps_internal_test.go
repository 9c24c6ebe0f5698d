package deploy

// The steps Apply is made of, each alone: each checks what it finds before
// it changes anything, also when deployers race, and a read-only client
// refuses nothing more than the changes. (These were the tests of the
// Ensure steps, CreateUnlessExists and ForkUnlessExists, which the steps of
// a plan replace: each test drives the steps through a plan of the changes
// it names, applied with Plan.Apply.)

import (
	"cmp"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
)

// newFake is fixture.NewFake, and fails the test if it leaves a goroutine
// behind: dbcloudtest.CheckGoroutines counts the whole process's, which
// suits deploy's tests, none of them parallel.
func newFake(t testing.TB, opts []dbcloudtest.Option, extra ...dbcloud.Option) (*dbcloud.Client, *dbcloudtest.Server) {
	t.Helper()
	dbcloudtest.CheckGoroutines(t)
	return fixture.NewFake(t, opts, extra...)
}

// plan is a plan of changes to the service named service, as a reviewer
// could have approved it.
func plan(project, service string, changes ...Change) *Plan {
	for i := range changes {
		changes[i].Service = service
	}
	return &Plan{ProjectID: project, Changes: changes, Seen: []Seen{{Kind: dbcloud.KindService, Service: service, Name: service}}}
}

// update is an update change of a field from one value to another.
func update(kind dbcloud.ResourceKind, name string, f Field, from, to Values) Change {
	return Change{Action: Update, Kind: kind, Name: name, Field: f, From: &from, To: &to}
}

// done returns the changes of res that the run made, as "kind field", the
// field "create" for a create.
func done(res *Result) []string {
	var out []string
	for _, r := range res.Records {
		if c := r.Change; r.Outcome == Done {
			out = append(out, string(c.Kind)+" "+cmp.Or(string(c.Field), string(c.Action)))
		}
	}
	return out
}

// A plan of a PROD Postgres service with HA, a pooler, a size and a VPC,
// and a replica set, applied twice against the same server: the second
// run changes nothing, sends nothing but reads, and no request of either
// run fails.
func TestDeployTwiceChangesNothingTheSecondTime(t *testing.T) {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	c := srv.Client()
	svc, rs := dbcloud.KindService, dbcloud.KindReplicaSet
	vpc := fixture.CreateVPC(t, c, srv.ProjectID, "orders-net")
	p := plan(srv.ProjectID, "orders-db",
		Change{Action: Create, Kind: svc, Name: "orders-db", To: &Values{Environment: dbcloud.EnvironmentProd, HAReplicas: new(1), CPUMillis: 1000, MemoryGBs: 4}},
		update(svc, "orders-db", FieldSize, Values{CPUMillis: 1000, MemoryGBs: 4}, Values{CPUMillis: 2000, MemoryGBs: 8}),
		update(svc, "orders-db", FieldHAReplicas, Values{HAReplicas: new(1)}, Values{HAReplicas: new(2)}),
		update(svc, "orders-db", FieldPooler, Values{Pooler: new(false)}, Values{Pooler: new(true)}),
		update(svc, "orders-db", FieldEnvironment, Values{Environment: dbcloud.EnvironmentDev}, Values{Environment: dbcloud.EnvironmentProd}),
		update(svc, "orders-db", FieldVPC, Values{VPCID: new("")}, Values{VPCID: new(vpc)}),
		Change{Action: Create, Kind: rs, Name: "reports", To: &Values{Nodes: 1, CPUMillis: 1000, MemoryGBs: 4}},
		update(rs, "reports", FieldSize, Values{CPUMillis: 1000, MemoryGBs: 4}, Values{CPUMillis: 2000, MemoryGBs: 8}),
		update(rs, "reports", FieldPooler, Values{Pooler: new(false)}, Values{Pooler: new(true)}),
		update(rs, "reports", FieldEnvironment, Values{Environment: dbcloud.EnvironmentProd}, Values{Environment: dbcloud.EnvironmentDev}),
	)
	first, err := p.Apply(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(done(first), ","), "service create,service size,service ha_replicas,service pooler,service vpc,replica set create,replica set size,replica set pooler,replica set environment"; got != want {
		t.Errorf("first run changed %s, want %s", got, want)
	}
	sent := len(srv.Requests())
	second, err := p.Apply(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if changes := done(second); len(changes) != 0 {
		t.Errorf("second run changed %v, want nothing", changes)
	}
	if first.Service("orders-db").ServiceID != second.Service("orders-db").ServiceID || len(srv.Services()) != 1 {
		t.Errorf("second run: service %s (first %s), %d services on the server", second.Service("orders-db").ServiceID, first.Service("orders-db").ServiceID, len(srv.Services()))
	}
	for i, r := range srv.Requests() {
		if r.Status >= 400 || r.Status == 0 {
			t.Errorf("request %d failed: %+v", i, r)
		}
		if i >= sent && r.Method != "GET" {
			t.Errorf("second run sent %s %s", r.Method, r.Path)
		}
	}
	sets, err := c.ReplicaSets.List(t.Context(), srv.ProjectID, second.Service("orders-db").ServiceID)
	if err != nil || len(sets) != 1 || sets[0].PoolerEndpoint() == nil || sets[0].CPUMillis != 2000 || sets[0].Environment() != dbcloud.EnvironmentDev {
		t.Errorf("replica sets: %v, %v", sets, err)
	}
	got, _ := srv.Service(second.Service("orders-db").ServiceID)
	cpu, mem := got.Size()
	if cpu != 2000 || mem != 8 || got.ReplicaCount() != 2 || got.PoolerEndpoint() == nil ||
		got.Environment() != dbcloud.EnvironmentProd || got.VPCEndpoint == nil || got.VPCEndpoint.VPCID != vpc {
		t.Errorf("deployed service: %v", got)
	}
}

// newOrdersService starts a dbcloudtest server configured by opts, closed
// with the test, and creates a service "orders" on it with a client of it.
func newOrdersService(t *testing.T, opts ...dbcloudtest.Option) (*dbcloudtest.Server, *dbcloud.Client, *dbcloud.Service) {
	t.Helper()
	c, srv := newFake(t, opts)
	return srv, c, fixture.CreateService(t, c, srv.ProjectID, "orders")
}

// poolerOn is the change that turns the pooler of the service orders on.
var poolerOn = update(dbcloud.KindService, "orders", FieldPooler, Values{Pooler: new(false)}, Values{Pooler: new(true)})

// Deployers racing on one service with one plan: every run succeeds, and
// the change is made once; the others' 409 is read as "already done".
func TestEnsureRacingDeployers(t *testing.T) {
	c, srv := newFake(t, nil)
	fixture.CreateReady(t, c, srv.ProjectID, "orders")
	p := plan(srv.ProjectID, "orders", poolerOn)
	var wg sync.WaitGroup
	var mu sync.Mutex
	changed := 0
	for range 16 {
		wg.Go(func() {
			res, err := p.Apply(t.Context(), c)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			changed += len(done(res))
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
	stale := `{"service_id":"` + svc.ServiceID + `","name":"orders","status":"READY"}`
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services", Status: 200, Body: "[" + stale + "]"})
	res, err := plan(srv.ProjectID, "orders", poolerOn).Apply(t.Context(), c)
	if len(done(res)) != 0 || err != nil || res.Records[0].Outcome != AlreadyDone {
		t.Errorf("the pooler step after a stale read: %v, %v; want already done, nil", res.Records, err)
	}
	if n := srv.Count("POST", "/projects/*/services/*/enablePooler"); n != 2 {
		t.Errorf("%d enablePooler requests, want 2 (the setup's and the stale step's)", n)
	}
	// Without the state being reached, the 409 is returned.
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services", Status: 200, Body: "[" + stale + "]"})
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services/" + svc.ServiceID, Status: 200, Body: stale})
	if _, err := plan(srv.ProjectID, "orders", poolerOn).Apply(t.Context(), c); !errors.Is(err, dbcloud.ErrConflict) {
		t.Errorf("the pooler step whose second read is still stale: %v, want ErrConflict", err)
	}
}

// Names are not unique: two services with the deploy's name are an error
// naming both, not a silent choice; Plan reports it, and so does a saved
// plan's Apply.
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
	st := &State{Services: []Service{{Name: "orders"}}}
	create := Change{Action: Create, Kind: dbcloud.KindService, Name: "orders", To: &Values{}}
	_, planErr := st.Plan(t.Context(), c)
	res, err := plan(srv.ProjectID, "orders", create).Apply(t.Context(), c)
	for _, err := range []error{planErr, err} {
		dup, ok := errors.AsType[*DuplicateNameError](err)
		if !ok || !errors.Is(err, ErrDuplicateName) || len(dup.IDs) != 2 ||
			!strings.Contains(err.Error(), ids[0]) || !strings.Contains(err.Error(), ids[1]) {
			t.Errorf("a deploy with two services named orders: %v", err)
		}
		if !strings.Contains(err.Error(), `2 services are named "orders"`) {
			t.Errorf("error %q does not say what is named twice", err)
		}
	}
	if len(done(res)) != 0 {
		t.Errorf("created %v", done(res))
	}
	// Replica sets: the same rule, in their own words.
	solo := fixture.CreateReady(t, c, srv.ProjectID, "solo")
	setReq := &dbcloud.CreateReplicaSetRequest{Name: "reports", Nodes: 1, CPUMillis: 1000, MemoryGBs: 4}
	for range 2 {
		if _, err := c.ReplicaSets.Create(t.Context(), srv.ProjectID, solo.ServiceID, setReq); err != nil {
			t.Fatal(err)
		}
	}
	setState := &State{Services: []Service{{Name: "solo", ReplicaSets: []ReplicaSet{{Name: "reports", Nodes: 1, CPUMillis: 1000, MemoryGBs: 4}}}}}
	if _, err := setState.Plan(t.Context(), c); !errors.Is(err, ErrDuplicateName) || !strings.Contains(err.Error(), `2 replica sets are named "reports"`) {
		t.Errorf("a deploy with two replica sets named reports: %v", err)
	}
	// A service being deleted does not count.
	for _, id := range ids {
		if err := c.Services.Delete(t.Context(), srv.ProjectID, id); err != nil {
			t.Fatal(err)
		}
	}
	res, err = st.Apply(t.Context(), c)
	if err != nil || len(done(res)) != 1 || res.Services[0].InitialPassword == "" {
		t.Errorf("after deleting both: created %v, %v", done(res), err)
	}
}

// Each step in both directions: a change the first time, none the second.
// An attach that finds the service attached to another VPC is a stale plan,
// refused before anything is sent; a State that moves the service plans
// the detach and the attach.
func TestEnsureStepsBothWays(t *testing.T) {
	srv, c, svc := newOrdersService(t)
	p, ctx := srv.ProjectID, t.Context()
	id := svc.ServiceID
	s := dbcloud.KindService
	vpc, other := fixture.CreateVPC(t, c, p, "a"), fixture.CreateVPC(t, c, p, "b")
	for _, step := range []struct {
		name   string
		change Change
	}{
		{"pooler on", poolerOn},
		{"pooler off", update(s, "orders", FieldPooler, Values{Pooler: new(true)}, Values{Pooler: new(false)})},
		{"attach", update(s, "orders", FieldVPC, Values{VPCID: new("")}, Values{VPCID: new(vpc)})},
		{"detach", update(s, "orders", FieldVPC, Values{VPCID: new(vpc)}, Values{VPCID: new("")})},
		{"prod", update(s, "orders", FieldEnvironment, Values{Environment: dbcloud.EnvironmentDev}, Values{Environment: dbcloud.EnvironmentProd})},
		{"dev", update(s, "orders", FieldEnvironment, Values{Environment: dbcloud.EnvironmentProd}, Values{Environment: dbcloud.EnvironmentDev})},
		{"ha 1", update(s, "orders", FieldHAReplicas, Values{HAReplicas: new(0)}, Values{HAReplicas: new(1)})},
		{"ha 0", update(s, "orders", FieldHAReplicas, Values{HAReplicas: new(1)}, Values{HAReplicas: new(0)})},
	} {
		for i, want := range []bool{true, false} {
			res, err := plan(p, "orders", step.change).Apply(ctx, c)
			if err != nil || (len(done(res)) == 1) != want {
				t.Errorf("%s, run %d: changed %v, %v; want %v, nil", step.name, i+1, done(res), err, want)
			}
			if _, err := c.Services.WaitForReady(ctx, p, id); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := plan(p, "orders", update(s, "orders", FieldVPC, Values{VPCID: new("")}, Values{VPCID: new(vpc)})).Apply(ctx, c); err != nil {
		t.Fatal(err)
	}
	before := len(srv.Requests())
	_, err := plan(p, "orders", update(s, "orders", FieldVPC, Values{VPCID: new("")}, Values{VPCID: new(other)})).Apply(ctx, c)
	if stale, ok := errors.AsType[*StalePlanError](err); !ok || stale.Field != FieldVPC || *stale.Found.VPCID != vpc || !strings.Contains(err.Error(), "found "+vpc) {
		t.Errorf("attaching to a second VPC: %v", err)
	}
	for _, r := range srv.Requests()[before:] {
		if r.Method != http.MethodGet {
			t.Errorf("attaching to a second VPC sent %s %s, want reads only", r.Method, r.Path)
		}
	}
	if _, err := plan(p, "orders", update(s, "orders", FieldVPC, Values{VPCID: new(other)}, Values{VPCID: new("")})).Apply(ctx, c); !errors.Is(err, ErrStalePlan) {
		t.Errorf("detaching from a VPC it is not attached to: %v, want a stale plan", err)
	}
}

// A fork is made once, found by name and parent on the next run (named,
// and with the API's default name), and a service of the name forked from
// another parent, or not a fork at all, is not taken for it. The PITR
// target comes from the real clock: the test server takes it.
func TestForkUnlessExists(t *testing.T) {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	c, p := srv.Client(), srv.ProjectID
	ctx := t.Context()
	fixture.CreateService(t, c, p, "orders")
	fixture.CreateService(t, c, p, "other")
	for _, fork := range []Fork{
		{Strategy: dbcloud.ForkPITR, TargetTime: time.Now(), Name: "staging"},
		{Strategy: dbcloud.ForkNow, Name: "orders-fork"},
	} {
		st := &State{Services: []Service{{Name: "orders", Forks: []Fork{fork}}}}
		first, err := st.Apply(ctx, c)
		if err != nil || len(done(first)) != 1 || first.Forks[0].InitialPassword == "" {
			t.Fatalf("first fork %+v: created %v, err %v", fork, done(first), err)
		}
		again, err := st.Apply(ctx, c)
		if err != nil || len(again.Records) != 0 || again.Forks[0].ServiceID != first.Forks[0].ServiceID {
			t.Fatalf("second run %+v: %v, err %v; want %s found", fork, again.Records, err, first.Forks[0].ServiceID)
		}
		// The same name under another parent is another fork.
		if fork.Strategy == dbcloud.ForkPITR {
			fork.TargetTime = time.Now()
		}
		other, err := (&State{Services: []Service{{Name: "other", Forks: []Fork{fork}}}}).Apply(ctx, c)
		if err != nil || len(done(other)) != 1 || other.Forks[0].ServiceID == first.Forks[0].ServiceID {
			t.Fatalf("fork of another parent named %s: created %v, err %v", fork.Name, done(other), err)
		}
	}
	// A service of the name that is not a fork is not the fork either.
	fixture.CreateService(t, c, p, "plain")
	res, err := (&State{Services: []Service{{Name: "orders", Forks: []Fork{{Strategy: dbcloud.ForkNow, Name: "plain"}}}}}).Apply(ctx, c)
	if err != nil || len(done(res)) != 1 || res.Forks[0].ForkedFrom == nil {
		t.Fatalf("fork named as a plain service: created %v, err %v", done(res), err)
	}
	if n := srv.Count(http.MethodPost, "/projects/*/services/*/forkService"); n != 5 {
		t.Errorf("%d forks sent, want 5", n)
	}
}

// A PITR target in the future, or before the parent's creation, fails the
// plan and the run with a *ValidationError, and nothing is forked. (The
// SDK's own check, in Services.Fork and ForkServiceRequest.Validate, is the
// root package's TestForkTargetValidated.)
func TestForkTargetValidated(t *testing.T) {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	c, p := srv.Client(), srv.ProjectID
	parent := fixture.CreateService(t, c, p, "orders")
	future, early := time.Now().Add(time.Hour), parent.Created.Add(-time.Minute)
	withFork := func(target time.Time) *State {
		return &State{Services: []Service{{Name: "orders", Forks: []Fork{{Name: "f", Strategy: dbcloud.ForkPITR, TargetTime: target}}}}}
	}
	for _, call := range []func() error{
		func() error { _, err := withFork(future).Plan(t.Context(), c); return err },
		func() error { _, err := withFork(future).Apply(t.Context(), c); return err },
		func() error { _, err := withFork(early).Apply(t.Context(), c); return err },
	} {
		var v *dbcloud.ValidationError
		if err := call(); !errors.As(err, &v) || v.Field != "TargetTime" {
			t.Errorf("err = %v, want a *ValidationError for TargetTime", err)
		}
	}
	if n := srv.Count(http.MethodPost, "/projects/*/services/*/forkService"); n != 0 {
		t.Errorf("%d forks sent", n)
	}
}

// composites are the steps that change something: under WithReadOnly
// their reads work and their changes are refused (TestReadOnlyComposites).
var composites = []string{
	"service pooler", "service vpc", "service environment", "service ha_replicas",
	"service size", "service create", "fork create",
	"replica set pooler", "replica set environment", "replica set size",
	"replica set create",
}

// The steps of a read-only client read, and then refuse the change when
// one is needed, with nothing but GETs sent; when nothing differs they
// answer as on a read-write client.
func TestReadOnlyComposites(t *testing.T) {
	dbcloudtest.CheckGoroutines(t) // as newFake does
	rw, srv, svc, set := fixture.NewFakeWithSet(t)
	ctx, p := t.Context(), srv.ProjectID
	if _, err := rw.ReplicaSets.WaitForActive(ctx, p, svc.ServiceID, set.ID, fixture.FastPolls); err != nil {
		t.Fatal(err)
	}
	env, other := svc.Environment(), dbcloud.EnvironmentProd
	if env == dbcloud.EnvironmentProd {
		other = dbcloud.EnvironmentDev
	}
	ro := srv.Client(fixture.TinyRetries, dbcloud.WithReadOnly())
	srv.ResetRequests()
	s, r := dbcloud.KindService, dbcloud.KindReplicaSet
	cpu, mem := svc.Size()
	changes := map[string]Change{
		"service pooler":          update(s, "db", FieldPooler, Values{Pooler: new(false)}, Values{Pooler: new(true)}),
		"service vpc":             update(s, "db", FieldVPC, Values{VPCID: new("")}, Values{VPCID: new("1234")}),
		"service environment":     update(s, "db", FieldEnvironment, Values{Environment: env}, Values{Environment: other}),
		"service ha_replicas":     update(s, "db", FieldHAReplicas, Values{HAReplicas: new(svc.ReplicaCount())}, Values{HAReplicas: new(2)}),
		"service size":            update(s, "db", FieldSize, Values{CPUMillis: cpu, MemoryGBs: mem}, Values{CPUMillis: 4000, MemoryGBs: 16}),
		"service create":          {Action: Create, Kind: s, Name: "new", To: &Values{}},
		"fork create":             {Action: Create, Kind: dbcloud.KindFork, Name: "new", To: &Values{Strategy: dbcloud.ForkNow}},
		"replica set pooler":      update(r, "r", FieldPooler, Values{Pooler: new(false)}, Values{Pooler: new(true)}),
		"replica set environment": update(r, "r", FieldEnvironment, Values{Environment: env}, Values{Environment: other}),
		"replica set size":        update(r, "r", FieldSize, Values{CPUMillis: 500, MemoryGBs: 2}, Values{CPUMillis: 4000, MemoryGBs: 16}),
		"replica set create":      {Action: Create, Kind: r, Name: "new", To: &Values{Nodes: 1, CPUMillis: 500, MemoryGBs: 2}},
	}
	for _, name := range composites {
		service := "db"
		if name == "service create" {
			service = "new"
		}
		if _, err := plan(p, service, changes[name]).Apply(ctx, ro); !errors.Is(err, dbcloud.ErrReadOnly) {
			t.Errorf("%s of a change: err = %v, want ErrReadOnly", name, err)
		}
	}
	for _, r := range srv.Requests() {
		if r.Method != http.MethodGet {
			t.Errorf("a read-only client sent %s %s", r.Method, r.Path)
		}
	}
	if len(srv.Requests()) == 0 {
		t.Error("no read was sent: the steps did not read first")
	}

	// Nothing to change: the same answers as a read-write client's.
	if res, err := plan(p, "db", update(s, "db", FieldEnvironment, Values{Environment: other}, Values{Environment: env})).Apply(ctx, ro); len(done(res)) != 0 || err != nil {
		t.Errorf("the environment step to the same tag: changed %v, err %v", done(res), err)
	}
	if res, err := plan(p, "db", Change{Action: Create, Kind: s, Name: "db", To: &Values{}}).Apply(ctx, ro); err != nil || len(done(res)) != 0 || res.Services[0].ServiceID != svc.ServiceID {
		t.Errorf("the create step of an existing name: %v, err %v", res, err)
	}
	if res, err := plan(p, "db", Change{Action: Create, Kind: r, Name: "r", To: &Values{Nodes: 1, CPUMillis: 500, MemoryGBs: 2}}).Apply(ctx, ro); err != nil || len(done(res)) != 0 || res.Records[0].ID != set.ID {
		t.Errorf("the replica set create step of an existing name: %v, err %v", res, err)
	}
	fork, err := rw.Services.Fork(ctx, p, svc.ServiceID, &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow})
	if err != nil {
		t.Fatal(err)
	}
	if res, err := plan(p, "db", Change{Action: Create, Kind: dbcloud.KindFork, Name: fork.Name, To: &Values{Strategy: dbcloud.ForkNow}}).Apply(ctx, ro); err != nil || len(done(res)) != 0 || res.Records[0].ID != fork.ServiceID {
		t.Errorf("the fork step of an existing fork: %v, err %v", res, err)
	}
}
