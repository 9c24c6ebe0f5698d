package dbcloudotel_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/deploy"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// One deploy, as a user traces it: a span of the user's own, the deploy
// run under it, a span per step with its resource, each step's calls
// under it (its wait's polls included), each call's attempts under the
// call. Statuses last a minute, moved on at each poll, so every wait polls
// several times.
func TestDeploySpanTree(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	srv := dbcloudtest.NewServer(dbcloudtest.WithStep(time.Minute))
	t.Cleanup(srv.Close)
	st := &deploy.State{Services: []deploy.Service{{
		Name: "orders", Pooler: new(true),
		ReplicaSets: []deploy.ReplicaSet{{Name: "orders-read", Nodes: 1, CPUMillis: 500, MemoryGBs: 2}},
		Forks:       []deploy.Fork{{Name: "orders-staging", Strategy: dbcloud.ForkNow}},
	}}}
	for _, run := range []struct {
		op string
		do func(context.Context, *dbcloud.Client, ...deploy.Option) (*deploy.Result, error)
	}{{"deploy.Apply", st.Apply}, {"deploy.Destroy", st.Destroy}} {
		t.Run(run.op, func(t *testing.T) {
			h := newHarness(t)
			c := srv.Client(dbcloud.WithObserver(h.obs))
			polls := map[int]int{} // the polls of each change, by its index in the plan
			var changes []deploy.Record
			progress := deploy.WithProgress(func(p deploy.Progress) {
				if p.Poll != nil {
					polls[len(changes)]++
					srv.Advance(time.Minute)
				} else if p.Record.Outcome != deploy.Running {
					changes = append(changes, p.Record)
				}
			})
			ctx, pipeline := h.tp.Tracer("test").Start(t.Context(), "pipeline")
			res, err := run.do(ctx, c, progress)
			pipeline.End()
			if err != nil {
				t.Fatal(err)
			}
			checkDeployTree(t, h.spans.Ended(), pipeline.SpanContext(), run.op, res.Records, polls)
		})
	}
}

// checkDeployTree checks the spans of one run under the span root: the
// run, named op, is root's only child; the run's children are the plan's
// reads and a span per service's (or fork's) changes, whose children are
// one span per change, in order, each with its resource's kind,
// name and id, and the reads of its wait as children (polls[i] reported
// for the i-th change); every call's children are its attempts (and, for a
// recovered create, its recovery's reads), every attempt a leaf.
func checkDeployTree(t *testing.T, spans []sdktrace.ReadOnlySpan, root trace.SpanContext, op string, changes []deploy.Record, polls map[int]int) {
	t.Helper()
	children := map[trace.SpanID][]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		children[s.Parent().SpanID()] = append(children[s.Parent().SpanID()], s)
	}
	top := children[root.SpanID()]
	if len(top) != 1 || top[0].Name() != op {
		t.Fatalf("under the user's span: %v, want the run %s alone", names(top), op)
	}
	runSpan := top[0]
	if v := value(runSpan, "dbcloud.project_id").AsString(); v != "proj-fake" {
		t.Errorf("run: dbcloud.project_id %q, want the fleet's project", v)
	}
	var steps []sdktrace.ReadOnlySpan
	for _, s := range children[runSpan.SpanContext().SpanID()] {
		switch {
		case s.Name() == "deploy.service" || s.Name() == "deploy.fork":
			for _, step := range children[s.SpanContext().SpanID()] {
				if !strings.HasPrefix(step.Name(), "deploy.") {
					t.Errorf("%s directly under %s: only its steps belong there", step.Name(), s.Name())
				}
				steps = append(steps, step)
			}
		case s.Name() != "Services.List" && s.Name() != "ReplicaSets.List":
			t.Errorf("%s directly under the run: only the plan's reads and the services belong there", s.Name())
		}
	}
	slices.SortFunc(steps, func(a, b sdktrace.ReadOnlySpan) int { return a.StartTime().Compare(b.StartTime()) })
	if len(steps) != len(changes) {
		t.Fatalf("%d steps %v for %d changes", len(steps), names(steps), len(changes))
	}
	multiPoll := false
	for i, step := range steps {
		rec := changes[i]
		ch := rec.Change
		if i > 0 && step.StartTime().Before(steps[i-1].EndTime()) {
			t.Errorf("step %d starts before step %d ends", i, i-1)
		}
		idKey := "dbcloud.service_id"
		if ch.Kind == dbcloud.KindReplicaSet {
			idKey = "dbcloud.replica_set_id"
		}
		got := fmt.Sprintf("%s %s %q %s", step.Name(), value(step, "dbcloud.resource.kind").AsString(), value(step, "dbcloud.resource.name").AsString(), value(step, idKey).AsString())
		if want := fmt.Sprintf("deploy.%s %s %q %s", ch.Action, ch.Kind, ch.Name, rec.ID); got != want || rec.ID == "" {
			t.Errorf("step %d: %s, want %s", i, got, want)
		}
		reads := 0
		for _, call := range children[step.SpanContext().SpanID()] {
			if call.StartTime().Before(step.StartTime()) || call.EndTime().After(step.EndTime()) {
				t.Errorf("step %d: %s outside its step's time", i, call.Name())
			}
			if value(call, "http.request.method").AsString() == "GET" {
				reads++
			}
			checkCall(t, call, children)
		}
		// Each poll is a read of the step, and a step has no other reads
		// of its own (a create's recovery reads inside its create). The
		// read that finds a deleted resource gone reports no status.
		want := polls[i]
		if ch.Action == deploy.Delete {
			want++
		}
		if reads != want {
			t.Errorf("step %d (%s): %d reads under it, want %d: its wait's polls", i, ch, reads, want)
		}
		multiPoll = multiPoll || reads > 1
	}
	if !multiPoll {
		t.Error("no wait polled twice: the test does not test where polls go")
	}
}

// checkCall checks that a call span's children are its attempts, each a
// leaf of kind client, or calls of its own (a create's recovery).
func checkCall(t *testing.T, call sdktrace.ReadOnlySpan, children map[trace.SpanID][]sdktrace.ReadOnlySpan) {
	t.Helper()
	if call.SpanKind() != trace.SpanKindInternal || value(call, "dbcloud.operation").AsString() != call.Name() {
		t.Errorf("%s: not a call's span", call.Name())
		return
	}
	attempts := 0
	for _, s := range children[call.SpanContext().SpanID()] {
		if s.SpanKind() != trace.SpanKindClient {
			checkCall(t, s, children)
			continue
		}
		attempts++
		if len(children[s.SpanContext().SpanID()]) != 0 {
			t.Errorf("attempt %s has children", s.Name())
		}
	}
	if attempts == 0 {
		t.Errorf("%s: no attempt under the call", call.Name())
	}
}

func names(spans []sdktrace.ReadOnlySpan) []string {
	var out []string
	for _, s := range spans {
		out = append(out, s.Name())
	}
	return out
}

// A fleet's run, as a user traces it: the run is the one child of the
// user's span, each service's changes a span under the run, naming the
// service and its id, and each step a span under its service's, one per
// record of the run, naming its resource.
func TestFleetSpanTree(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	srv := dbcloudtest.NewServer()
	t.Cleanup(srv.Close)
	h := newHarness(t)
	c := srv.Client(dbcloud.WithObserver(h.obs))
	st := &deploy.State{}
	for _, name := range []string{"orders", "billing", "search"} {
		st.Services = append(st.Services, deploy.Service{Name: name, Pooler: new(true),
			ReplicaSets: []deploy.ReplicaSet{{Name: "read", Nodes: 1, CPUMillis: 500, MemoryGBs: 2}}})
	}
	ctx, pipeline := h.tp.Tracer("test").Start(t.Context(), "pipeline")
	res, err := st.Apply(ctx, c)
	pipeline.End()
	if err != nil {
		t.Fatal(err)
	}
	children := map[trace.SpanID][]sdktrace.ReadOnlySpan{}
	for _, s := range h.spans.Ended() {
		children[s.Parent().SpanID()] = append(children[s.Parent().SpanID()], s)
	}
	top := children[pipeline.SpanContext().SpanID()]
	if len(top) != 1 || top[0].Name() != "deploy.Apply" {
		t.Fatalf("under the user's span: %v", names(top))
	}
	steps := map[string]int{} // by "kind name of service"
	for _, svc := range children[top[0].SpanContext().SpanID()] {
		if svc.Name() != "deploy.service" {
			continue
		}
		service := value(svc, "dbcloud.resource.name").AsString()
		if res.Service(service) == nil || value(svc, "dbcloud.service_id").AsString() != res.Service(service).ServiceID {
			t.Errorf("a service's span: %s %s", service, value(svc, "dbcloud.service_id").AsString())
		}
		for _, s := range children[svc.SpanContext().SpanID()] {
			steps[fmt.Sprintf("%s %s %s of %s", s.Name(), value(s, "dbcloud.resource.kind").AsString(), value(s, "dbcloud.resource.name").AsString(), service)]++
		}
	}
	for _, r := range res.Records {
		key := fmt.Sprintf("deploy.%s %s %s of %s", r.Change.Action, r.Change.Kind, r.Change.Name, r.Change.Service)
		if steps[key] != 1 {
			t.Errorf("%d spans of the step %s, want 1; the run's steps: %v", steps[key], key, steps)
		}
	}
	if len(steps) != len(res.Records) {
		t.Errorf("%d step spans for %d records: %v", len(steps), len(res.Records), steps)
	}
}
