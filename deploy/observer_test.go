package deploy_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// parentKey carries, in a context, the operation of the call it is under.
type parentKey struct{}

// nesting records, for each call an Observer is told of, the call it runs
// under, from the contexts StartCall returned.
type nesting struct {
	mu    sync.Mutex
	calls []string // "parent > operation"
	units []dbcloud.CallInfo
	ended []dbcloud.CallInfo // the units, as their ends name them
	// mislabelled are the calls whose Unit does not say what they are: a
	// unit of work of the deploy package, or a call of the API.
	mislabelled []dbcloud.CallInfo
	starts      int
	ends        int
}

func (n *nesting) StartCall(ctx context.Context, call dbcloud.CallInfo) context.Context {
	parent, _ := ctx.Value(parentKey{}).(string)
	n.mu.Lock()
	defer n.mu.Unlock()
	n.starts++
	n.calls = append(n.calls, parent+" > "+call.Operation)
	if call.Unit != (call.Method == "") || call.Unit != strings.HasPrefix(call.Operation, "deploy.") {
		n.mislabelled = append(n.mislabelled, call)
	}
	if call.Unit {
		n.units = append(n.units, call)
	}
	return context.WithValue(ctx, parentKey{}, call.Operation)
}

func (n *nesting) StartAttempt(ctx context.Context, _ dbcloud.CallInfo, _ int) context.Context {
	return ctx
}

func (n *nesting) EndAttempt(context.Context, dbcloud.CallInfo, dbcloud.AttemptInfo) {}

func (n *nesting) EndCall(_ context.Context, call dbcloud.CallInfo, res dbcloud.CallResult) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.ends++
	if call.Unit {
		n.ended = append(n.ended, call)
	}
}

// A run is a unit of work of the client's Observer, each of its services'
// (and forks') changes one inside it, each step one inside its service's,
// and every call a step makes, its waits' polls and its recovered creates
// included, runs under the step: a tracer shows run > service > step >
// call. Under the run itself are only the plan's reads and the services.
// A step's end, and a service's, names its resource's id, a create's too.
func TestObserverSeesRunsAndSteps(t *testing.T) {
	srv := newServer(t)
	obs := &nesting{}
	c := srv.Client(dbcloud.WithObserver(obs))
	if _, err := trial().Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	if _, err := trial().Destroy(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	runs, services, steps := 0, 0, 0
	isRun := func(op string) bool { return op == "deploy.Apply" || op == "deploy.Destroy" }
	isService := func(op string) bool { return op == "deploy.service" || op == "deploy.fork" }
	for _, call := range obs.calls {
		parent, op, _ := strings.Cut(call, " > ")
		switch {
		case isRun(op):
			runs++
			if parent != "" {
				t.Errorf("run %s under %q", op, parent)
			}
		case isService(op):
			services++
			if !isRun(parent) {
				t.Errorf("%s under %q", op, parent)
			}
		case strings.HasPrefix(op, "deploy."):
			steps++
			if !isService(parent) {
				t.Errorf("step %s under %q", op, parent)
			}
		case parent == "" || isService(parent) || isRun(parent) && !strings.HasSuffix(op, ".List"):
			// Under a run: only the plan's reads. A create's recovery
			// lists inside the create, under its step.
			t.Errorf("call %s under %q, not a step", op, parent)
		}
	}
	// Apply: the service (and its set), the fork; Destroy: the fork, the
	// service (and its set).
	if runs != 2 || services != 4 || steps != 8 || obs.starts != obs.ends {
		t.Errorf("%d runs, %d services, %d steps (want 2, 4 and 8); %d calls started, %d ended", runs, services, steps, obs.starts, obs.ends)
	}
	for _, call := range obs.mislabelled {
		t.Errorf("CallInfo.Unit is %v for %s %q", call.Unit, call.Operation, call.Method)
	}
	if len(obs.ended) != len(obs.units) {
		t.Errorf("%d units of work started, %d ended as units", len(obs.units), len(obs.ended))
	}
	for _, u := range obs.units {
		run := u.Operation == "deploy.Apply" || u.Operation == "deploy.Destroy" // of a fleet: its project
		if !run && (u.Kind == "" || u.Name == "") || u.ProjectID == "" {
			t.Errorf("a unit of work without its resource: %+v", u)
		}
	}
	if len(obs.units) < 3 {
		t.Fatalf("%d units of work, want the runs, their services and their steps", len(obs.units))
	}
	if got := obs.units[1]; got.Operation != "deploy.service" || got.Kind != dbcloud.KindService || got.Name != "orders" || got.ServiceID != "" {
		t.Errorf("the first service: %+v", got)
	}
	if got := obs.units[2]; got.Operation != "deploy.create" || got.Kind != dbcloud.KindService || got.Name != "orders" || got.ServiceID != "" {
		t.Errorf("the first step: %+v", got)
	}
	// A step ends naming its resource by id, a create's included: the id
	// its create gave it.
	for _, u := range obs.ended {
		id := u.ServiceID
		if u.Kind == dbcloud.KindReplicaSet {
			id = u.ReplicaSetID
		}
		if !isRun(u.Operation) && id == "" {
			t.Errorf("a step or a service ended without its resource's id: %+v", u)
		}
	}
}

var _ dbcloud.Observer = (*nesting)(nil)

// A VPC's changes are a unit of their own ("deploy.vpc"), as is each
// peering's ("deploy.peering"); each ends naming its VPC's id (and the
// peering's), and the services' units name theirs.
func TestObserverSeesVPCsAndPeerings(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithPeerAcceptance(0))
	obs := &nesting{}
	c := srv.Client(dbcloud.WithObserver(obs))
	if _, err := network().Apply(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	if _, err := network().Destroy(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	var ops []string
	for _, u := range obs.ended {
		if u.Operation == "deploy.Apply" || u.Operation == "deploy.Destroy" {
			continue
		}
		ops = append(ops, u.Operation+" "+string(u.Kind))
		ok := u.ServiceID != ""
		switch u.Kind {
		case dbcloud.KindVPC:
			ok = u.VPCID != "" && u.ServiceID == ""
		case dbcloud.KindPeering:
			ok = u.VPCID != "" && u.PeeringID != ""
		}
		if !ok {
			t.Errorf("a unit ended without its ids: %+v", u)
		}
	}
	for _, want := range []string{"deploy.vpc VPC", "deploy.peering VPC peering", "deploy.create VPC", "deploy.create VPC peering", "deploy.delete VPC", "deploy.delete VPC peering"} {
		if !slices.Contains(ops, want) {
			t.Errorf("no unit %q in %q", want, ops)
		}
	}
	for _, call := range obs.calls {
		if parent, op, _ := strings.Cut(call, " > "); (op == "deploy.vpc" || op == "deploy.peering") && parent != "deploy.Apply" && parent != "deploy.Destroy" {
			t.Errorf("%s under %q", op, parent)
		}
	}
}
