package dbcloud_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

// callRecorder is an Observer that writes down what it is told.
type callRecorder struct {
	mu     sync.Mutex
	events []string
	calls  []dbcloud.CallInfo
}

type ctxMark struct{}

func (r *callRecorder) add(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, fmt.Sprintf(format, args...))
}

func (r *callRecorder) StartCall(ctx context.Context, call dbcloud.CallInfo) context.Context {
	r.mu.Lock()
	r.calls = append(r.calls, call)
	r.mu.Unlock()
	r.add("start %s", call.Operation)
	return context.WithValue(ctx, ctxMark{}, call.Operation)
}

func (r *callRecorder) StartAttempt(ctx context.Context, call dbcloud.CallInfo, attempt int) context.Context {
	r.add("attempt %d (call context %v)", attempt, ctx.Value(ctxMark{}))
	return context.WithValue(ctx, ctxMark{}, fmt.Sprint("attempt ", attempt))
}

func (r *callRecorder) EndAttempt(ctx context.Context, call dbcloud.CallInfo, a dbcloud.AttemptInfo) {
	r.add("end attempt %d: %d %q retry=%v %q err=%v (context %v)", a.Attempt, a.StatusCode, a.RequestID, a.Retry, a.RetryReason, a.Err != nil, ctx.Value(ctxMark{}))
}

func (r *callRecorder) EndCall(ctx context.Context, call dbcloud.CallInfo, res dbcloud.CallResult) {
	r.add("end %s: %d attempts, %d %q, err=%v (context %v)", call.Operation, res.Attempts, res.StatusCode, res.RequestID, res.Err != nil, ctx.Value(ctxMark{}))
}

// The observer sees each call and attempt in order, with the contexts it
// returned, the retry's reason and the request id of the answer that
// succeeded.
func TestObserverSeesCallsAndAttempts(t *testing.T) {
	t.Parallel()
	rec := &callRecorder{}
	c, mt := mockClient(t, dbcloud.WithObserver(rec))
	mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(503, "").HeaderAdd(http.Header{"X-Request-Id": {"req-1"}}).
		Then(httpmock.NewStringResponder(200, serviceJSON).HeaderAdd(http.Header{"X-Request-Id": {"req-2"}})))
	if _, err := c.Services.Get(t.Context(), "p1", "s1"); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"start Services.Get",
		"attempt 1 (call context Services.Get)",
		`end attempt 1: 503 "req-1" retry=true "status 503" err=true (context attempt 1)`,
		"attempt 2 (call context Services.Get)",
		`end attempt 2: 200 "req-2" retry=false "" err=false (context attempt 2)`,
		`end Services.Get: 2 attempts, 200 "req-2", err=false (context Services.Get)`,
	}
	if diff := cmp.Diff(want, rec.events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	wantCall := dbcloud.CallInfo{Operation: "Services.Get", Method: "GET", Path: "/projects/{project_id}/services/{service_id}", Kind: dbcloud.KindService, ProjectID: "p1", ServiceID: "s1"}
	if diff := cmp.Diff([]dbcloud.CallInfo{wantCall}, rec.calls); diff != "" {
		t.Errorf("CallInfo (-want +got):\n%s", diff)
	}
}

// Every operation of Services and ReplicaSets names itself with a path
// template that holds no id.
func TestEveryOperationHasACallInfo(t *testing.T) {
	t.Parallel()
	rec := &callRecorder{}
	c, srv := fixture.NewFake(t, nil, dbcloud.WithObserver(rec))
	p := srv.ProjectID
	ctx := t.Context()
	svc := fixture.CreateReady(t, c, p, "observed")
	id := svc.ServiceID
	set, err := c.ReplicaSets.Create(ctx, p, id, &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 1000, MemoryGBs: 4})
	if err != nil {
		t.Fatal(err)
	}
	rs := set.ID
	_, _ = c.Services.List(ctx, p)
	_, _ = c.Services.Get(ctx, p, id)
	_, _ = c.Services.Stop(ctx, p, id)
	_, _ = c.Services.Start(ctx, p, id)
	_ = c.Services.AttachToVPC(ctx, p, id, "1")
	_ = c.Services.DetachFromVPC(ctx, p, id, "1")
	_, _ = c.Services.Resize(ctx, p, id, &dbcloud.ResizeRequest{CPUMillis: 1000, MemoryGBs: 4})
	_ = c.Services.EnablePooler(ctx, p, id)
	_ = c.Services.DisablePooler(ctx, p, id)
	_, _ = c.Services.Fork(ctx, p, id, &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow})
	_ = c.Services.UpdatePassword(ctx, p, id, "pw-123456")
	_ = c.Services.SetEnvironment(ctx, p, id, dbcloud.EnvironmentProd)
	_, _ = c.Services.SetHA(ctx, p, id, &dbcloud.SetHARequest{ReplicaCount: new(1)})
	_, _ = c.ReplicaSets.List(ctx, p, id)
	_ = c.ReplicaSets.Resize(ctx, p, id, rs, &dbcloud.ResizeRequest{CPUMillis: 1000, MemoryGBs: 4})
	_ = c.ReplicaSets.EnablePooler(ctx, p, id, rs)
	_ = c.ReplicaSets.DisablePooler(ctx, p, id, rs)
	_ = c.ReplicaSets.SetEnvironment(ctx, p, id, rs, dbcloud.EnvironmentProd)
	_ = c.ReplicaSets.Delete(ctx, p, id, rs)
	_ = c.Services.Delete(ctx, p, id)

	seen := map[string]bool{}
	for _, call := range rec.calls {
		seen[call.Operation] = true
		if call.Method == "" || call.ProjectID != p || strings.Contains(call.Path, p) || strings.Contains(call.Path, id) || !strings.HasPrefix(call.Path, "/projects/{project_id}/services") {
			t.Errorf("CallInfo %+v: want a method, the project id apart and a path template", call)
		}
	}
	var missing []string
	for _, op := range []string{"Services.List", "Services.Create", "Services.Get", "Services.Delete", "Services.Start", "Services.Stop",
		"Services.AttachToVPC", "Services.DetachFromVPC", "Services.Resize", "Services.EnablePooler", "Services.DisablePooler",
		"Services.Fork", "Services.UpdatePassword", "Services.SetEnvironment", "Services.SetHA",
		"ReplicaSets.List", "ReplicaSets.Create", "ReplicaSets.Delete", "ReplicaSets.Resize", "ReplicaSets.EnablePooler",
		"ReplicaSets.DisablePooler", "ReplicaSets.SetEnvironment"} {
		if !seen[op] {
			missing = append(missing, op)
		}
	}
	if len(missing) > 0 {
		t.Errorf("operations the observer never saw: %v", missing)
	}
}
