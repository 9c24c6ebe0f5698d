package deploy_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/deploy"
)

// fleet is a state of services of these names, each with its pooler on
// and one replica set; the first has a fork too.
func fleet(names ...string) *deploy.State {
	st := &deploy.State{}
	for _, n := range names {
		st.Services = append(st.Services, deploy.Service{Name: n, Pooler: new(true),
			ReplicaSets: []deploy.ReplicaSet{{Name: n + "-read", Nodes: 1, CPUMillis: 500, MemoryGBs: 2}}})
	}
	st.Services[0].Forks = []deploy.Fork{{Name: names[0] + "-copy", Strategy: dbcloud.ForkNow}}
	return st
}

// checkFleet checks that the server holds st's services exactly once,
// each with its one replica set and pooler, and its forks.
func checkFleet(t *testing.T, srv *dbcloudtest.Server, st *deploy.State) {
	t.Helper()
	byName := map[string][]dbcloud.Service{}
	for _, svc := range srv.Services() {
		byName[svc.Name] = append(byName[svc.Name], svc)
	}
	for _, want := range st.Services {
		got := byName[want.Name]
		if len(got) != 1 || len(got[0].ReadReplicaSets) != 1 || got[0].PoolerEndpoint() == nil {
			t.Errorf("service %s: %+v", want.Name, got)
			continue
		}
		for _, f := range want.Forks {
			if forks := byName[f.Name]; len(forks) != 1 || forks[0].ForkedFrom == nil || forks[0].ForkedFrom.ServiceID != got[0].ServiceID {
				t.Errorf("fork %s of %s (%s): %+v", f.Name, want.Name, got[0].ServiceID, forks)
			}
		}
	}
	if n := len(srv.Services()); n != len(st.Services)+1 {
		t.Errorf("%d services on the server, want %d", n, len(st.Services)+1)
	}
}

// A fleet's plan reads the project once: one service list, and a list of
// replica sets only for each existing service whose sets the state
// manages or prunes. A fleet with nothing to do sends those reads alone.
func TestFleetPlanRequests(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	st := fleet("a", "b", "c", "d", "e")
	count := func(name string, want int, run func() error) {
		t.Helper()
		mark := len(srv.Requests())
		if err := run(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := len(srv.Requests()) - mark; got != want || mutations(srv, mark) != 0 {
			t.Errorf("%s sent %d requests (%v), want %d GETs", name, got, byMethod(srv, mark), want)
		}
	}
	count("the plan of an empty project", 1, func() error { _, err := st.Plan(t.Context(), c); return err })
	if _, err := st.Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	count("the plan of the fleet", 1+5, func() error { _, err := st.Plan(t.Context(), c); return err })
	count("an Apply with nothing to do", 1+5, func() error { _, err := st.Apply(t.Context(), c); return err })
	noSets := fleet("a", "b", "c", "d", "e")
	for i := range noSets.Services[2:] {
		noSets.Services[2+i].ReplicaSets = nil
	}
	count("a plan that manages the sets of 2 services", 1+2, func() error { _, err := noSets.Plan(t.Context(), c); return err })
	noSets.Prune = true
	count("and prunes every service's", 1+5, func() error { _, err := noSets.Plan(t.Context(), c); return err })
}

// Every problem of every service is in the one *ProblemError, with the
// plan, and no Apply runs a plan with one.
func TestFleetProblemsInOneError(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	st := fleet("a", "b", "c")
	if _, err := st.Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	st.Services[0].ReplicaSets[0].Nodes = 3
	st.Services[2].ReplicaSets[0].Nodes = 2
	st.Services[1].Pooler = new(false)
	plan, err := st.Plan(t.Context(), c)
	pe, ok := errors.AsType[*deploy.ProblemError](err)
	if !ok || len(pe.Problems) != 2 || plan == nil || len(plan.Changes) != 1 ||
		!strings.Contains(err.Error(), `replica set "a-read" of "a"`) || !strings.Contains(err.Error(), `replica set "c-read" of "c"`) {
		t.Fatalf("plan: %v\n%s", err, plan)
	}
	mark := len(srv.Requests())
	if _, err := st.Apply(t.Context(), c); !errors.As(err, &pe) || mutations(srv, mark) != 0 {
		t.Errorf("Apply: %v, %d mutating requests", err, mutations(srv, mark))
	}
}

// A saved fleet plan, one of whose services changed behind it, is refused
// whole, naming that service, with nothing sent for any service; two
// stale services are both named, in one joined error.
func TestFleetSavedPlanStaleInOneService(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	st := fleet("a", "b", "c")
	for i := range st.Services {
		st.Services[i].CPUMillis, st.Services[i].MemoryGBs = 500, 2
	}
	if _, err := st.Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	for i := range st.Services {
		st.Services[i].CPUMillis, st.Services[i].MemoryGBs = 1000, 4
	}
	plan, err := st.Plan(t.Context(), srv.Client(dbcloud.WithReadOnly()))
	if err != nil || len(plan.Changes) != 3 {
		t.Fatalf("plan: %v\n%s", err, plan)
	}
	resize := func(name string) {
		t.Helper()
		for _, svc := range srv.Services() {
			if svc.Name == name {
				if _, err := c.Services.Resize(t.Context(), srv.ProjectID, svc.ServiceID, &dbcloud.ResizeRequest{CPUMillis: 2000, MemoryGBs: 8}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	refused := func(stale ...string) {
		t.Helper()
		mark := len(srv.Requests())
		res, err := plan.Apply(t.Context(), c)
		if !errors.Is(err, deploy.ErrStalePlan) || mutations(srv, mark) != 0 || res.Changed() {
			t.Errorf("stale in %v: %v, %d mutating requests", stale, err, mutations(srv, mark))
		}
		for _, name := range []string{"a", "b", "c"} {
			named := strings.Contains(fmt.Sprint(err), fmt.Sprintf("service %q", name))
			if named != slices.Contains(stale, name) {
				t.Errorf("stale in %v: the error names %s: %v (%v)", stale, name, named, err)
			}
		}
		for _, r := range res.Records {
			if r.Outcome != deploy.Pending {
				t.Errorf("%v: refused whole, yet %s", r.Change, r.Outcome)
			}
		}
	}
	resize("b")
	refused("b")
	resize("c")
	refused("b", "c")
}

// One service failing (its create refused) does not stop the others: they
// finish, the Result records what each change came to, the error names
// the failing service (and an update refused on another, both joined),
// and a re-run finishes the rest.
func TestFleetOneServiceFails(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	if _, err := fleet("a", "c").Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	st := fleet("a", "b", "c", "d")
	for i := range st.Services {
		st.Services[i].Environment = dbcloud.EnvironmentProd
	}
	var d dbcloud.Service
	for _, svc := range srv.Services() {
		if svc.Name == "c" {
			d = svc
		}
	}
	// The creates of b and d: one refused (the second create, whichever
	// it is); c's environment change refused.
	srv.InjectFault(dbcloudtest.Fault{Method: http.MethodPost, Path: "/projects/*/services", Status: http.StatusBadRequest, Body: `{"code":"BAD_REQUEST","message":"refused"}`})
	srv.InjectFault(dbcloudtest.Fault{Method: http.MethodPost, Path: "/projects/*/services/" + d.ServiceID + "/setEnvironment", Status: http.StatusUnprocessableEntity, Body: `{"code":"NO","message":"not now"}`})
	res, err := st.Apply(t.Context(), c, deploy.WithParallelism(1))
	if err == nil {
		t.Fatal("no error")
	}
	failed := map[string]bool{}
	for _, r := range res.Records {
		switch r.Outcome {
		case deploy.Failed:
			failed[r.Change.Service] = true
			if !strings.Contains(err.Error(), fmt.Sprintf("%s %s %q", r.Change.Action, r.Change.Kind, r.Change.Name)) {
				t.Errorf("the error does not name %v: %v", r.Change, err)
			}
		case deploy.Pending:
			if !failed[r.Change.Service] {
				t.Errorf("%v pending, yet its service did not fail", r.Change)
			}
		}
	}
	if len(failed) != 2 || !failed["c"] || !(failed["b"] || failed["d"]) {
		t.Fatalf("failed services %v, want c and one of b and d: %v", failed, err)
	}
	for _, r := range res.Records {
		if !failed[r.Change.Service] && r.Outcome != deploy.Done {
			t.Errorf("%v: %s, want done", r.Change, r.Outcome)
		}
	}
	if len(res.Services) != 3 { // the one whose create was refused is not
		t.Errorf("result services: %d", len(res.Services))
	}
	if _, err := st.Apply(t.Context(), c); err != nil {
		t.Fatalf("the re-run: %v", err)
	}
	checkFleet(t, srv, st)
	if again, err := st.Plan(t.Context(), c); err != nil || !again.Empty() {
		t.Errorf("after the re-run: %v\n%s", err, again)
	}
}

// A run of a 3-service fleet cut at each change in turn is finished by
// the next run, with no duplicate and nothing left over, and a third run
// sends nothing that changes anything.
func TestFleetCutAtEveryChange(t *testing.T) {
	st := fleet("a", "b", "c")
	plan, err := st.Plan(t.Context(), newServer(t).Client())
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= len(plan.Changes); k++ {
		srv := newServer(t)
		c := srv.Client()
		ctx, cancel := context.WithCancel(t.Context())
		ends := 0
		_, err := st.Apply(ctx, c, deploy.WithProgress(func(p deploy.Progress) {
			if p.Poll == nil && p.Record.Outcome != deploy.Running {
				if ends++; ends == k {
					cancel()
				}
			}
		}))
		cancel()
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Fatalf("cut at change %d: %v", k, err)
		}
		if _, err := st.Apply(t.Context(), c); err != nil {
			t.Fatalf("the run after the cut at change %d: %v", k, err)
		}
		checkFleet(t, srv, st)
		mark := len(srv.Requests())
		if _, err := st.Apply(t.Context(), c); err != nil || mutations(srv, mark) != 0 {
			t.Fatalf("cut at change %d: a third run: %v, %d mutating requests", k, err, mutations(srv, mark))
		}
		srv.Close()
	}
}

// A cancelled context stops every service before its next step: nothing
// starts after the cancel but what was under way, and the run's error
// says it was cancelled.
func TestFleetCancelStopsEveryService(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	st := fleet("a", "b", "c", "d")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	started, afterCancel := 0, 0
	res, err := st.Apply(ctx, c, deploy.WithParallelism(2), deploy.WithProgress(func(p deploy.Progress) {
		if p.Poll != nil || p.Record.Outcome != deploy.Running {
			return
		}
		if started++; started == 1 {
			cancel()
		} else if ctx.Err() != nil {
			afterCancel++
		}
	}))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want the cancel", err)
	}
	pending := 0
	for _, r := range res.Records {
		if r.Outcome == deploy.Pending {
			pending++
		}
	}
	// At most the other slot's step, started as the cancel came.
	if afterCancel > 1 || pending < len(res.Records)-2 {
		t.Errorf("%d steps started after the cancel, %d of %d changes pending", afterCancel, pending, len(res.Records))
	}
	if _, err := st.Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	checkFleet(t, srv, st)
}

// A run makes at most WithParallelism services' changes at once, each
// service's in the plan's order, and a fork's after its parent's last.
func TestFleetParallelismAndOrder(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	st := fleet("a", "b", "c", "d", "e", "f")
	plan, err := st.Plan(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	running, most := 0, 0
	var order []deploy.Change // the ends, as they came
	if _, err := plan.Apply(t.Context(), c, deploy.WithParallelism(2), deploy.WithProgress(func(p deploy.Progress) {
		switch {
		case p.Poll != nil:
		case p.Record.Outcome == deploy.Running:
			running++
			most = max(most, running)
		default:
			running--
			order = append(order, p.Record.Change)
		}
	})); err != nil {
		t.Fatal(err)
	}
	if most > 2 || len(order) != len(plan.Changes) {
		t.Errorf("%d steps at once, want at most 2; %d of %d changes ended", most, len(order), len(plan.Changes))
	}
	for _, svc := range st.Services {
		var want, got []deploy.Change
		for _, ch := range plan.Changes {
			if ch.Service == svc.Name && ch.Kind != dbcloud.KindFork {
				want = append(want, ch)
			}
		}
		for _, ch := range order {
			if ch.Service == svc.Name && ch.Kind != dbcloud.KindFork {
				got = append(got, ch)
			}
		}
		if !slices.EqualFunc(want, got, func(a, b deploy.Change) bool { return a.String() == b.String() }) {
			t.Errorf("service %s's changes ran as %v, planned %v", svc.Name, got, want)
		}
	}
	fork := slices.IndexFunc(order, func(ch deploy.Change) bool { return ch.Kind == dbcloud.KindFork })
	lastOfA := -1
	for i, ch := range order {
		if ch.Service == "a" && ch.Kind != dbcloud.KindFork {
			lastOfA = i
		}
	}
	if fork < lastOfA {
		t.Errorf("the fork of a ended at %d, before a's last change at %d", fork, lastOfA)
	}
	checkFleet(t, srv, st)
}

// A fork's parent is the service of the state that lists it, made in the
// same run: the fork is made of it once it is as the state wants it. Its
// destroy deletes the fork before its parent.
func TestForkOfAnotherServiceOfTheState(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	st := &deploy.State{Services: []deploy.Service{
		{Name: "orders", Pooler: new(true)},
		{Name: "billing", Pooler: new(true), Forks: []deploy.Fork{{Name: "billing-copy", Strategy: dbcloud.ForkNow}}},
	}}
	res, err := st.Apply(t.Context(), c)
	if err != nil {
		t.Fatal(err)
	}
	billing := res.Service("billing")
	if len(res.Forks) != 1 || res.Forks[0].ForkedFrom == nil || billing == nil || res.Forks[0].ForkedFrom.ServiceID != billing.ServiceID {
		t.Fatalf("the fork: %+v, billing %+v", res.Forks, billing)
	}
	var done []deploy.Record
	if _, err := st.Destroy(t.Context(), c, ends(&done)); err != nil {
		t.Fatal(err)
	}
	fork := slices.IndexFunc(done, func(r deploy.Record) bool { return r.Change.Kind == dbcloud.KindFork })
	parent := slices.IndexFunc(done, func(r deploy.Record) bool { return r.Change.Name == "billing" })
	if fork < 0 || parent < fork || len(srv.Services()) != 0 {
		t.Errorf("destroy ended %v; %d services left", done, len(srv.Services()))
	}
}

// A protected service is never deleted: not by PruneServices, not by a
// destroy. Either plan has a problem instead, and nothing is sent.
func TestProtectedService(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	st := fleet("a", "b")
	if _, err := st.Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "legacy"}); err != nil {
		t.Fatal(err)
	}
	st.Protected = []string{"legacy", "b"}
	st.PruneServices = true
	mark := len(srv.Requests())
	plan, err := st.Plan(t.Context(), c)
	if pe, ok := errors.AsType[*deploy.ProblemError](err); !ok || len(pe.Problems) != 1 || pe.Problems[0].Name != "legacy" || !strings.Contains(plan.String(), `! service "legacy"`) {
		t.Errorf("prune of a protected service: %v\n%s", err, plan)
	}
	if _, err := st.Apply(t.Context(), c); !errors.As(err, new(*deploy.ProblemError)) {
		t.Errorf("Apply: %v", err)
	}
	if _, err := st.Destroy(t.Context(), c); !errors.As(err, new(*deploy.ProblemError)) || !strings.Contains(err.Error(), `service "b"`) {
		t.Errorf("destroy of a protected service: %v", err)
	}
	if mutations(srv, mark) != 0 || len(srv.Services()) != 4 {
		t.Errorf("%d mutating requests, %d services", mutations(srv, mark), len(srv.Services()))
	}
	st.Protected = []string{"b"}
	plan, err = st.Plan(t.Context(), c)
	if err != nil || len(plan.Changes) != 1 || plan.Changes[0].Name != "legacy" || plan.Changes[0].Action != deploy.Delete {
		t.Errorf("PruneServices of an unprotected service: %v\n%s", err, plan)
	}
}

// The start report of a change to a resource the run just created names
// its id, as its polls and its end do.
func TestStartReportOfACreatedResourceHasItsID(t *testing.T) {
	srv := newServer(t)
	st := &deploy.State{Services: []deploy.Service{{Name: "orders", Pooler: new(true)}}}
	var starts []deploy.Record
	res, err := st.Apply(t.Context(), srv.Client(), deploy.WithProgress(func(p deploy.Progress) {
		if p.Poll == nil && p.Record.Outcome == deploy.Running {
			starts = append(starts, p.Record)
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	id := res.Service("orders").ServiceID
	if len(starts) != 2 || starts[0].ID != "" || starts[1].ID != id || !strings.Contains(starts[1].String(), "("+id+")") {
		t.Errorf("starts %v, want the pooler change's with %s", starts, id)
	}
}

// A fork step cancelled before its create says that the fork's create was
// not sent, naming the fork.
func TestForkCancelledBeforeItsCreate(t *testing.T) {
	srv := newServer(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	_, err := trial().Apply(ctx, srv.Client(), deploy.WithProgress(func(p deploy.Progress) {
		if p.Poll == nil && p.Record.Change.Kind == dbcloud.KindFork && p.Record.Outcome == deploy.Running {
			cancel()
		}
	}))
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), `create fork "orders-staging": the fork create was not sent`) || strings.Contains(err.Error(), "service create") {
		t.Errorf("err = %v", err)
	}
	if n := len(srv.Services()); n != 1 {
		t.Errorf("%d services, want the parent alone", n)
	}
}

// A service found UNSTABLE, with the run told to stop on it, fails alone:
// the other services' changes are made, the error names it, and once it
// is READY again a re-run finishes its changes.
func TestFleetUnstableServiceFailsAlone(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	st := fleet("a", "b", "c")
	if _, err := st.Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	var b string
	for _, svc := range srv.Services() {
		if svc.Name == "b" {
			b = svc.ServiceID
		}
	}
	if err := srv.SetStatus(b, dbcloud.StatusUnstable); err != nil {
		t.Fatal(err)
	}
	for i := range st.Services {
		st.Services[i].Pooler = new(false)
		st.Services[i].CPUMillis, st.Services[i].MemoryGBs = 2000, 8
	}
	res, err := st.Apply(t.Context(), c, deploy.WithWaitOptions(dbcloud.WithStopOn(dbcloud.StatusUnstable)))
	if err == nil || !strings.Contains(err.Error(), `service "b"`) || strings.Contains(err.Error(), `service "a"`) {
		t.Fatalf("err = %v", err)
	}
	for _, r := range res.Records {
		if (r.Change.Service == "b") == (r.Outcome == deploy.Done) {
			t.Errorf("%v: %s", r.Change, r.Outcome)
		}
	}
	if err := srv.SetStatus(b, dbcloud.StatusReady); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	if again, err := st.Plan(t.Context(), c); err != nil || !again.Empty() {
		t.Errorf("after the re-run: %v\n%s", err, again)
	}
}
