package deploy_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/deploy"
)

// trial is the state of the trial in issue 30: a PROD service with 2 HA
// replicas and a pooler, a read replica set with its pooler, and a PITR
// fork as of the moment the fork step runs (from the real clock: no clock
// parameter anywhere).
func trial() *deploy.State {
	return &deploy.State{Services: []deploy.Service{{Name: "orders", Addons: []dbcloud.Addon{dbcloud.AddonTimeSeries},
		CPUMillis: 1000, MemoryGBs: 4, HAReplicas: new(2), Pooler: new(true), Environment: dbcloud.EnvironmentProd,
		ReplicaSets: []deploy.ReplicaSet{{Name: "orders-read", Nodes: 2, CPUMillis: 500, MemoryGBs: 2, Pooler: new(true)}},
		Forks:       []deploy.Fork{{Name: "orders-staging", Strategy: dbcloud.ForkPITR}},
	}}}
}

func newServer(t *testing.T, opts ...dbcloudtest.Option) *dbcloudtest.Server {
	t.Helper()
	dbcloudtest.CheckGoroutines(t)
	srv := dbcloudtest.NewServer(opts...)
	t.Cleanup(srv.Close)
	return srv
}

// deployed is a server with the trial state applied, and a client of it.
func deployed(t *testing.T, opts ...dbcloudtest.Option) (*dbcloudtest.Server, *dbcloud.Client) {
	t.Helper()
	srv := newServer(t, opts...)
	c := srv.Client()
	if _, err := trial().Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	return srv, c
}

// stepped is a server whose statuses last a minute, with the trial
// applied, a client of it, and the progress option that moves the clock at
// each poll of a run.
func stepped(t *testing.T) (*dbcloudtest.Server, *dbcloud.Client, deploy.Option) {
	t.Helper()
	srv := newServer(t, dbcloudtest.WithStep(time.Minute))
	c := srv.Client()
	advance := deploy.WithProgress(func(p deploy.Progress) {
		if p.Poll != nil {
			srv.Advance(time.Minute)
		}
	})
	if _, err := trial().Apply(t.Context(), c, advance); err != nil {
		t.Fatal(err)
	}
	return srv, c, advance
}

// byMethod counts the requests the server saw from the n-th on, by method.
func byMethod(srv *dbcloudtest.Server, from int) map[string]int {
	out := map[string]int{}
	for _, r := range srv.Requests()[from:] {
		out[r.Method]++
	}
	return out
}

// mutations is the number of requests other than GET from the n-th on.
func mutations(srv *dbcloudtest.Server, from int) int {
	n := 0
	for m, c := range byMethod(srv, from) {
		if m != http.MethodGet {
			n += c
		}
	}
	return n
}

// readsOnly fails t for each request other than GET the server saw.
func readsOnly(t *testing.T, srv *dbcloudtest.Server) {
	t.Helper()
	for _, r := range srv.Requests() {
		if r.Method != http.MethodGet {
			t.Errorf("sent %s %s", r.Method, r.Path)
		}
	}
}

// services returns the server's service named orders and its fork.
func orders(t *testing.T, srv *dbcloudtest.Server) (svc, fork dbcloud.Service) {
	t.Helper()
	all := srv.Services()
	if len(all) != 2 {
		t.Fatalf("%d services on the server, want the service and its fork", len(all))
	}
	return all[1], all[0] // newest first
}

// checkDeployed checks that the server holds the trial state exactly once:
// one service and one fork, one replica set, all as the state asks.
func checkDeployed(t *testing.T, srv *dbcloudtest.Server) {
	t.Helper()
	svc, fork := orders(t, srv)
	if svc.Name != "orders" || fork.Name != "orders-staging" || fork.ForkedFrom == nil || fork.ForkedFrom.ServiceID != svc.ServiceID {
		t.Fatalf("services %q and %q (forked from %+v)", svc.Name, fork.Name, fork.ForkedFrom)
	}
	if svc.ReplicaCount() != 2 || svc.PoolerEndpoint() == nil || svc.Environment() != dbcloud.EnvironmentProd || svc.Status != dbcloud.StatusReady {
		t.Errorf("service: %v", svc)
	}
	if len(svc.ReadReplicaSets) != 1 || svc.ReadReplicaSets[0].PoolerEndpoint() == nil || svc.ReadReplicaSets[0].Status != dbcloud.ReplicaSetActive {
		t.Errorf("replica sets: %+v", svc.ReadReplicaSets)
	}
}

// ends returns a progress hook that appends the end of each change.
func ends(into *[]deploy.Record) deploy.Option {
	return deploy.WithProgress(func(p deploy.Progress) {
		if p.Poll == nil && p.Record.Outcome != deploy.Running {
			*into = append(*into, p.Record)
		}
	})
}

// Plan on a read-only client reads, sends only GETs, and lists the trial's
// changes; after Apply, it lists none.
func TestPlanReadOnly(t *testing.T) {
	srv := newServer(t)
	ro := srv.Client(dbcloud.WithReadOnly())
	plan, err := trial().Plan(t.Context(), ro)
	if err != nil {
		t.Fatal(err)
	}
	want := `project proj-fake: 5 change(s)
  + create service "orders": addons time-series, 1000m CPU / 4 GB, 2 HA replica(s), PROD
  ~ update service "orders": pooler off -> on
  + create replica set "orders-read" of "orders": 2 node(s), 500m CPU / 2 GB
  ~ update replica set "orders-read" of "orders": pooler off -> on
  + create fork "orders-staging" of "orders": PITR as of when the fork step runs
`
	if got := plan.String(); got != want {
		t.Errorf("plan text:\n%s\nwant:\n%s", got, want)
	}
	if got := byMethod(srv, 0); len(got) != 1 || got[http.MethodGet] == 0 {
		t.Errorf("Plan sent %v, want GETs only", got)
	}
	if _, err := trial().Apply(t.Context(), srv.Client()); err != nil {
		t.Fatal(err)
	}
	mark := len(srv.Requests())
	plan, err = trial().Plan(t.Context(), ro)
	if err != nil {
		t.Fatal(err)
	}
	if !plan.Empty() || plan.String() != "project proj-fake: no changes\n" {
		t.Errorf("plan after Apply:\n%s", plan)
	}
	if got := byMethod(srv, mark); len(got) != 1 || got[http.MethodGet] == 0 {
		t.Errorf("Plan sent %v, want GETs only", got)
	}
}

// Apply deploys the trial; a second Apply sends no request that changes
// anything, and reports no change.
func TestApplyTwice(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	var lines []string
	res, err := trial().Apply(t.Context(), c, deploy.WithProgress(func(p deploy.Progress) { lines = append(lines, p.String()) }))
	if err != nil {
		t.Fatal(err)
	}
	checkDeployed(t, srv)
	if !res.Changed() || res.Services[0].InitialPassword == "" || len(res.Forks) != 1 || res.Forks[0].InitialPassword == "" {
		t.Errorf("first run: changed %v, passwords kept %v", res.Changed(), res.Services[0].InitialPassword != "")
	}
	if !strings.Contains(strings.Join(lines, "\n"), `replica set "orders-read" of "orders" (`) {
		t.Errorf("progress does not name the replica set:\n%s", strings.Join(lines, "\n"))
	}
	for _, ch := range res.Records {
		if ch.Outcome != deploy.Done || ch.Started.IsZero() || ch.ID == "" {
			t.Errorf("change %v: outcome %q, started %v", ch, ch.Outcome, ch.Started)
		}
	}
	mark := len(srv.Requests())
	res, err = trial().Apply(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if n := mutations(srv, mark); n != 0 || res.Changed() || len(res.Records) != 0 {
		t.Errorf("second run sent %d mutating requests (%v), changed %v", n, byMethod(srv, mark), res.Changed())
	}
	if res.Service("orders") == nil || len(res.ReplicaSets) != 1 || len(res.Forks) != 1 {
		t.Errorf("second run's result lacks the resources: %+v", res)
	}
	checkDeployed(t, srv)
}

// interrupt runs a run cut short after each step in turn (its context
// cancelled when the k-th change ends), each on a fresh server prepared by
// setup; after each cut, finish runs the same run again and must converge
// (check), and a third run must send nothing that changes anything. It
// returns how many steps a whole run has.
func interrupt(t *testing.T, setup func(*dbcloudtest.Server, *dbcloud.Client), run func(context.Context, *dbcloud.Client, ...deploy.Option) (*deploy.Result, error), check func(*dbcloudtest.Server)) int {
	t.Helper()
	for k := 1; ; k++ {
		srv := newServer(t)
		c := srv.Client()
		setup(srv, c)
		ctx, cancel := context.WithCancel(t.Context())
		steps := 0
		_, err := run(ctx, c, deploy.WithProgress(func(p deploy.Progress) {
			if p.Poll == nil && p.Record.Outcome != deploy.Running {
				if steps++; steps == k {
					cancel()
				}
			}
		}))
		cancel()
		if err == nil {
			// A cut after the last step leaves nothing to cut: every
			// step before it was a cut point once.
			if k < steps {
				t.Fatalf("a run cancelled after step %d of %d finished", k, steps)
			}
			return steps
		}
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("step %d: %v", k, err)
		}
		if _, err := run(t.Context(), c); err != nil {
			t.Fatalf("the run after the cut at step %d: %v", k, err)
		}
		check(srv)
		mark := len(srv.Requests())
		if _, err := run(t.Context(), c); err != nil || mutations(srv, mark) != 0 {
			t.Fatalf("cut at step %d: a third run: %v, %d mutating requests", k, err, mutations(srv, mark))
		}
		srv.Close()
	}
}

// savedPlan returns, for interrupt, a setup that runs setup and then
// plans the trial with planOf, and a run that applies that plan.
func savedPlan(t *testing.T, setup func(*dbcloudtest.Server, *dbcloud.Client), planOf func(*deploy.State, context.Context, *dbcloud.Client) (*deploy.Plan, error)) (
	func(*dbcloudtest.Server, *dbcloud.Client), func(context.Context, *dbcloud.Client, ...deploy.Option) (*deploy.Result, error)) {
	var plan *deploy.Plan
	saved := func(srv *dbcloudtest.Server, c *dbcloud.Client) {
		setup(srv, c)
		var err error
		if plan, err = planOf(trial(), t.Context(), c); err != nil {
			t.Fatal(err)
		}
	}
	apply := func(ctx context.Context, c *dbcloud.Client, opts ...deploy.Option) (*deploy.Result, error) {
		return plan.Apply(ctx, c, opts...)
	}
	return saved, apply
}

// A run cut short after each step in turn is finished by the next run,
// with no duplicate and nothing left over, and a third run changes
// nothing: State.Apply, and a saved plan applied again and again.
func TestApplyInterrupted(t *testing.T) {
	check := func(srv *dbcloudtest.Server) { checkDeployed(t, srv) }
	if n := interrupt(t, func(*dbcloudtest.Server, *dbcloud.Client) {}, trial().Apply, check); n != 5 {
		t.Errorf("State.Apply: %d steps, want 5", n)
	}
	saved, apply := savedPlan(t, func(*dbcloudtest.Server, *dbcloud.Client) {}, (*deploy.State).Plan)
	if n := interrupt(t, saved, apply, check); n != 5 {
		t.Errorf("Plan.Apply: %d steps, want 5", n)
	}
}

// Faults on each mutating request, answered or not and landed or not, make
// a run fail at most; the next one converges with no duplicate.
func TestApplyFaults(t *testing.T) {
	paths := []struct{ method, path string }{
		{"POST", "/projects/*/services"},
		{"POST", "/projects/*/services/*/setHA"},
		{"POST", "/projects/*/services/*/enablePooler"},
		{"POST", "/projects/*/services/*/replicaSets"},
		{"POST", "/projects/*/services/*/replicaSets/*/enablePooler"},
		{"POST", "/projects/*/services/*/forkService"},
	}
	faults := []dbcloudtest.Fault{
		{Status: http.StatusServiceUnavailable},
		{Drop: true, AfterHandling: true},
		{Truncate: true},
	}
	for _, p := range paths {
		for i, f := range faults {
			t.Run(fmt.Sprintf("%s %s/%d", p.method, p.path, i), func(t *testing.T) {
				srv := newServer(t)
				c := srv.Client()
				f.Method, f.Path = p.method, p.path
				srv.InjectFault(f)
				if _, err := trial().Apply(t.Context(), c); err != nil {
					t.Logf("first run: %v", err)
					if _, err := trial().Apply(t.Context(), c); err != nil {
						t.Fatalf("second run: %v", err)
					}
				}
				checkDeployed(t, srv)
			})
		}
	}
}

// Without Prune nothing is deleted; with it, the replica set and the fork
// that the state no longer names are deleted, after everything else (the
// plan lists them last, as they run), and a second run does nothing.
func TestApplyPrune(t *testing.T) {
	srv, c := deployed(t)
	st := trial()
	st.Services[0].ReplicaSets, st.Services[0].Forks = []deploy.ReplicaSet{{Name: "reports", Nodes: 1, CPUMillis: 500, MemoryGBs: 2}}, nil
	plan, err := st.Plan(t.Context(), c)
	if err != nil || len(plan.Changes) != 1 || plan.Changes[0].Action != deploy.Create {
		t.Fatalf("without Prune: %v\n%s", err, plan)
	}
	st.Prune = true
	if plan, err = st.Plan(t.Context(), c); err != nil || len(plan.Changes) != 3 ||
		plan.Changes[0].Action != deploy.Create || plan.Changes[1].Action != deploy.Delete || plan.Changes[2].Action != deploy.Delete {
		t.Fatalf("with Prune: %v\n%s", err, plan)
	}
	if _, err := st.Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	all := srv.Services()
	if len(all) != 1 || len(all[0].ReadReplicaSets) != 1 || all[0].ReadReplicaSets[0].Name != "reports" {
		t.Errorf("after the prune: %d services, replica sets %v", len(all), all[0].ReadReplicaSets)
	}
	mark := len(srv.Requests())
	if _, err := st.Apply(t.Context(), c); err != nil || mutations(srv, mark) != 0 {
		t.Errorf("second prune run: %v, %d mutating requests", err, mutations(srv, mark))
	}
}

// A paused service is started (Plan says so), and the run goes on.
func TestApplyStartsAPausedService(t *testing.T) {
	srv, c := deployed(t)
	svc, _ := orders(t, srv)
	id := svc.ServiceID
	if err := srv.SetStatus(id, dbcloud.StatusPaused); err != nil {
		t.Fatal(err)
	}
	plan, err := trial().Plan(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if want := `~ update service "orders" (` + id + `): status PAUSED -> READY`; len(plan.Changes) != 1 || plan.Changes[0].String() != want {
		t.Errorf("plan:\n%s\nwant the one change %s", plan, want)
	}
	res, err := trial().Apply(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	if res.Services[0].Status != dbcloud.StatusReady || srv.Count(http.MethodPost, "/projects/*/services/*/start") != 1 {
		t.Errorf("after Apply: %s, %d starts sent", res.Services[0].Status, srv.Count(http.MethodPost, "/projects/*/services/*/start"))
	}
}

// Changed sizes, environment and pooler are planned and applied; the run
// after changes nothing. A fork is kept as it is: its environment is used
// at creation only.
func TestApplyUpdates(t *testing.T) {
	srv, c := deployed(t)
	st := trial()
	st.Services[0].CPUMillis, st.Services[0].MemoryGBs, st.Services[0].HAReplicas = 2000, 8, new(1)
	st.Services[0].ReplicaSets[0].CPUMillis, st.Services[0].ReplicaSets[0].Environment, st.Services[0].ReplicaSets[0].Pooler = 1000, dbcloud.EnvironmentDev, new(false)
	st.Services[0].Forks[0].Environment = dbcloud.EnvironmentProd
	plan, err := st.Plan(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	var fields []string
	for _, ch := range plan.Changes {
		fields = append(fields, fmt.Sprintf("%s %s %s", ch.Kind, ch.Field, strings.SplitN(ch.String(), string(ch.Field)+" ", 2)[1]))
	}
	want := []string{
		"service size 1000m CPU / 4 GB -> 2000m CPU / 8 GB",
		"service ha_replicas 2 -> 1",
		"replica set size 500m CPU / 2 GB -> 1000m CPU / 2 GB",
		"replica set environment PROD -> DEV",
		"replica set pooler on -> off",
	}
	if strings.Join(fields, "\n") != strings.Join(want, "\n") {
		t.Errorf("plan:\n%s\nwant:\n%s", strings.Join(fields, "\n"), strings.Join(want, "\n"))
	}
	mark := len(srv.Requests())
	if _, err := st.Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	if n := srv.Count(http.MethodPost, "/projects/*/services/*/setEnvironment"); n != 0 {
		t.Errorf("%d setEnvironment sent to a service or fork", n)
	}
	if got := byMethod(srv, mark); got[http.MethodPost] != 5 {
		t.Errorf("Apply sent %v, want the 5 changes", got)
	}
	if plan, err := st.Plan(t.Context(), c); err != nil || !plan.Empty() {
		t.Errorf("after Apply: %v\n%s", err, plan)
	}
}

// What the API cannot change (a replica set's nodes, a service's type) is a
// problem: Plan returns the plan and an error naming every problem, and
// Apply sends nothing.
func TestApplyRefusesProblems(t *testing.T) {
	srv, c := deployed(t)
	st := trial()
	st.Services[0].ReplicaSets[0].Nodes = 3
	st.Services[0].Addons = []dbcloud.Addon{dbcloud.AddonAI}
	st.Services[0].Pooler = new(false)
	plan, err := st.Plan(t.Context(), c)
	pe, ok := errors.AsType[*deploy.ProblemError](err)
	if !ok || plan == nil || len(plan.Problems) != 2 || len(pe.Problems) != 2 || !strings.Contains(plan.String(), `! replica set "orders-read" of "orders"`) ||
		!strings.Contains(plan.String(), "is TIMESERIESDB, the state's addons make VECTOR") ||
		!strings.Contains(plan.String(), "has 2 node(s), the state 3: the API cannot change it") ||
		!strings.Contains(err.Error(), `replica set "orders-read" of "orders"`) || !strings.Contains(err.Error(), "VECTOR") {
		t.Fatalf("plan: %v\n%s", err, plan)
	}
	if p := plan.Problems[0]; p.Kind != dbcloud.KindService || p.Field != deploy.FieldType || len(p.IDs) != 1 {
		t.Errorf("first problem: %+v", p)
	}
	mark := len(srv.Requests())
	if _, err := st.Apply(t.Context(), c); !errors.As(err, &pe) || mutations(srv, mark) != 0 {
		t.Errorf("Apply with a problem: %v, %d mutating requests", err, mutations(srv, mark))
	}
	if _, err := plan.Apply(t.Context(), c); !errors.As(err, &pe) || len(srv.Requests()) != mark+2 {
		t.Errorf("Plan.Apply with a problem: %v, %d requests", err, len(srv.Requests())-mark)
	}
}
