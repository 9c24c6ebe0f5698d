package dbcloudotel_test

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	dbcloudotel "github.com/dbcloud/dbcloud-go/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// harness is an Observer reporting to in-memory exporters.
type harness struct {
	obs    *dbcloudotel.Observer
	tp     *sdktrace.TracerProvider
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	h := &harness{spans: tracetest.NewSpanRecorder(), reader: sdkmetric.NewManualReader()}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(h.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(h.reader))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()); _ = mp.Shutdown(context.Background()) })
	obs, err := dbcloudotel.New(dbcloudotel.WithTracerProvider(tp), dbcloudotel.WithMeterProvider(mp))
	if err != nil {
		t.Fatal(err)
	}
	h.obs, h.tp = obs, tp
	return h
}

// run drives one call through the Observer, as the SDK's pipeline does.
func (h *harness) run(ctx context.Context, call dbcloud.CallInfo, attempts []dbcloud.AttemptInfo, result dbcloud.CallResult) {
	ctx = h.obs.StartCall(ctx, call)
	for i, a := range attempts {
		a.Attempt = i + 1
		actx := h.obs.StartAttempt(ctx, call, a.Attempt)
		h.obs.EndAttempt(actx, call, a)
	}
	h.obs.EndCall(ctx, call, result)
}

func (h *harness) metrics(t *testing.T) map[string]metricdata.Aggregation {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := h.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]metricdata.Aggregation{}
	for _, sm := range rm.ScopeMetrics {
		if sm.Scope.Name != dbcloudotel.ScopeName {
			t.Errorf("scope %q", sm.Scope.Name)
		}
		for _, m := range sm.Metrics {
			out[m.Name] = m.Data
		}
	}
	return out
}

// counts returns a counter's points as "attr=value,...: count" lines,
// sorted, so a test can compare them whole.
func counts(t *testing.T, data metricdata.Aggregation) []string {
	t.Helper()
	sum, ok := data.(metricdata.Sum[int64])
	if !ok {
		t.Fatalf("%T, want an int64 sum", data)
	}
	var out []string
	for _, p := range sum.DataPoints {
		out = append(out, attrString(p.Attributes)+": "+itoa(p.Value))
	}
	slices.Sort(out)
	return out
}

// checkCounts checks the points of each counter that want names, as
// counts writes them, against want's.
func checkCounts(t *testing.T, m map[string]metricdata.Aggregation, want map[string][]string) {
	t.Helper()
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if got := counts(t, m[name]); !slices.Equal(got, want[name]) {
			t.Errorf("%s:\n got %q\nwant %q", name, got, want[name])
		}
	}
}

func attrString(s attribute.Set) string {
	var parts []string
	for _, kv := range s.ToSlice() {
		parts = append(parts, string(kv.Key)+"="+kv.Value.String())
	}
	return strings.Join(parts, ",")
}

func itoa(n int64) string { return attribute.Int64Value(n).String() }

func attr(span sdktrace.ReadOnlySpan, key string) (attribute.Value, bool) {
	for _, kv := range span.Attributes() {
		if string(kv.Key) == key {
			return kv.Value, true
		}
	}
	return attribute.Value{}, false
}

var getCall = dbcloud.CallInfo{
	Operation: "Services.Get", Method: http.MethodGet,
	Path:      "/projects/{project_id}/services/{service_id}",
	ProjectID: "proj-1", ServiceID: "svc-1",
}

var createCall = dbcloud.CallInfo{
	Operation: "Services.Create", Method: http.MethodPost,
	Path: "/projects/{project_id}/services", ProjectID: "proj-1",
}

const getAttrs = "dbcloud.operation=Services.Get,http.request.method=GET,"

// svcTemplate is the url.template attribute of a call on one service.
const svcTemplate = "url.template=/projects/{project_id}/services/{service_id}"

func TestPlainCall(t *testing.T) {
	h := newHarness(t)
	h.run(t.Context(), getCall,
		[]dbcloud.AttemptInfo{{StatusCode: 200, RequestID: "req-1", Duration: 20 * time.Millisecond}},
		dbcloud.CallResult{Attempts: 1, StatusCode: 200, RequestID: "req-1", Duration: 21 * time.Millisecond})

	spans := h.spans.Ended()
	if len(spans) != 2 {
		t.Fatalf("%d spans, want 2", len(spans))
	}
	attempt, call := spans[0], spans[1]
	if call.Name() != "Services.Get" || call.SpanKind() != trace.SpanKindInternal {
		t.Errorf("call span %q, kind %v", call.Name(), call.SpanKind())
	}
	if attempt.Name() != "GET /projects/{project_id}/services/{service_id}" || attempt.SpanKind() != trace.SpanKindClient {
		t.Errorf("attempt span %q, kind %v", attempt.Name(), attempt.SpanKind())
	}
	if attempt.Parent().SpanID() != call.SpanContext().SpanID() || call.Parent().IsValid() {
		t.Error("the attempt's span is not the child of the call's, or the call's has a parent")
	}
	for _, want := range []struct {
		span sdktrace.ReadOnlySpan
		key  string
		val  string
	}{
		{call, "dbcloud.service_id", "svc-1"}, {call, "dbcloud.project_id", "proj-1"},
		{call, "http.response.status_code", "200"}, {call, "dbcloud.request_id", "req-1"},
		{call, "dbcloud.attempts", "1"}, {attempt, "http.response.status_code", "200"},
		{attempt, "dbcloud.request_id", "req-1"},
	} {
		if v, ok := attr(want.span, want.key); !ok || v.String() != want.val {
			t.Errorf("%s: %s = %q, want %q", want.span.Name(), want.key, v.String(), want.val)
		}
	}
	if call.Status().Code == codes.Error || attempt.Status().Code == codes.Error {
		t.Error("a successful call has an error status")
	}

	m := h.metrics(t)
	checkCounts(t, m, map[string][]string{
		"dbcloud.client.calls":           {"dbcloud.operation=Services.Get,dbcloud.status_class=2xx,http.request.method=GET," + svcTemplate + ": 1"},
		"dbcloud.client.attempts":        {"dbcloud.operation=Services.Get,dbcloud.status_class=2xx,http.request.method=GET," + svcTemplate + ": 1"},
		"dbcloud.client.calls.in_flight": {getAttrs + svcTemplate + ": 0"},
	})
	if _, ok := m["dbcloud.client.retries"]; ok {
		if got := counts(t, m["dbcloud.client.retries"]); len(got) != 0 {
			t.Errorf("retries %q, want none", got)
		}
	}
	hist := m["dbcloud.client.call.duration"].(metricdata.Histogram[float64])
	if len(hist.DataPoints) != 1 || hist.DataPoints[0].Count != 1 || hist.DataPoints[0].Sum != 0.021 {
		t.Errorf("call duration %+v, want one point of 0.021 s", hist.DataPoints)
	}
}

func TestInFlightDuringACall(t *testing.T) {
	h := newHarness(t)
	ctx := h.obs.StartCall(t.Context(), getCall)
	got := counts(t, h.metrics(t)["dbcloud.client.calls.in_flight"])
	h.obs.EndCall(ctx, getCall, dbcloud.CallResult{Attempts: 0, Err: context.Canceled})
	if len(got) != 1 || !strings.HasSuffix(got[0], ": 1") {
		t.Errorf("in flight during the call: %q, want 1", got)
	}
}

func TestRetriedCall(t *testing.T) {
	h := newHarness(t)
	busy := &dbcloud.APIError{StatusCode: 503}
	h.run(t.Context(), getCall, []dbcloud.AttemptInfo{
		{StatusCode: 503, Err: busy, Retry: true, RetryReason: "status 503", Duration: time.Millisecond},
		{StatusCode: 200, Duration: time.Millisecond},
	}, dbcloud.CallResult{Attempts: 2, StatusCode: 200, Duration: 5 * time.Millisecond})

	spans := h.spans.Ended()
	if len(spans) != 3 {
		t.Fatalf("%d spans, want 3", len(spans))
	}
	first, second, call := spans[0], spans[1], spans[2]
	if first.Status().Code != codes.Error || second.Status().Code == codes.Error || call.Status().Code == codes.Error {
		t.Errorf("statuses %v, %v, %v; want the first attempt's only in error", first.Status(), second.Status(), call.Status())
	}
	if v, _ := attr(first, "dbcloud.retry_reason"); v.String() != "status 503" {
		t.Errorf("retry reason %q", v.String())
	}
	if v, _ := attr(second, "http.request.resend_count"); v.String() != "1" {
		t.Errorf("resend count %q", v.String())
	}
	for _, s := range spans[:2] {
		if s.Parent().SpanID() != call.SpanContext().SpanID() {
			t.Errorf("%s is not a child of the call", s.Name())
		}
	}
	checkCounts(t, h.metrics(t), map[string][]string{
		"dbcloud.client.retries": {"dbcloud.operation=Services.Get,dbcloud.retry_reason=status 503,dbcloud.status_class=5xx,http.request.method=GET," + svcTemplate + ": 1"},
		"dbcloud.client.attempts": {
			"dbcloud.operation=Services.Get,dbcloud.status_class=2xx,http.request.method=GET," + svcTemplate + ": 1",
			"dbcloud.operation=Services.Get,dbcloud.status_class=5xx,error.type=503,http.request.method=GET," + svcTemplate + ": 1",
		},
		"dbcloud.client.calls": {"dbcloud.operation=Services.Get,dbcloud.status_class=2xx,http.request.method=GET," + svcTemplate + ": 1"},
	})
}

// A Delete whose first attempt was reset and whose retry got 404, which
// proved the first took effect: the call succeeded with a 404 last.
func TestReconciledRetry(t *testing.T) {
	h := newHarness(t)
	del := dbcloud.CallInfo{Operation: "Services.Delete", Method: http.MethodDelete,
		Path: "/projects/{project_id}/services/{service_id}", ProjectID: "p", ServiceID: "s"}
	h.run(t.Context(), del, []dbcloud.AttemptInfo{
		{Err: errors.New("connection reset by peer"), Retry: true, RetryReason: "network error"},
		{StatusCode: 404, Err: &dbcloud.APIError{StatusCode: 404}},
	}, dbcloud.CallResult{Attempts: 2, StatusCode: 404})

	spans := h.spans.Ended()
	call := spans[len(spans)-1]
	if call.Status().Code == codes.Error {
		t.Errorf("the reconciled call's span is in error: %v", call.Status())
	}
	if v, ok := attr(call, "dbcloud.reconciled"); !ok || !v.AsBool() {
		t.Error("dbcloud.reconciled not set")
	}
	checkCounts(t, h.metrics(t), map[string][]string{
		"dbcloud.client.calls": {"dbcloud.operation=Services.Delete,dbcloud.status_class=4xx,http.request.method=DELETE," + svcTemplate + ": 1"},
		"dbcloud.client.attempts": {
			"dbcloud.operation=Services.Delete,dbcloud.status_class=4xx,error.type=404,http.request.method=DELETE," + svcTemplate + ": 1",
			"dbcloud.operation=Services.Delete,dbcloud.status_class=none,error.type=_OTHER,http.request.method=DELETE," + svcTemplate + ": 1",
		},
	})
}

// A create whose only attempt got a 502: it may have created the service,
// and is not retried.
func TestAmbiguousCreate(t *testing.T) {
	h := newHarness(t)
	gateway := &dbcloud.APIError{StatusCode: 502}
	h.run(t.Context(), createCall,
		[]dbcloud.AttemptInfo{{StatusCode: 502, Err: gateway}},
		dbcloud.CallResult{Attempts: 1, StatusCode: 502, Err: &dbcloud.MaybeCreatedError{Resource: "service", Err: gateway}})

	spans := h.spans.Ended()
	call := spans[len(spans)-1]
	if call.Name() != "Services.Create" || call.Status().Code != codes.Error {
		t.Errorf("call span %q status %v", call.Name(), call.Status())
	}
	if v, _ := attr(call, "error.type"); v.String() != "maybe_created" {
		t.Errorf("error.type = %q, want maybe_created", v.String())
	}
	if _, ok := attr(call, "dbcloud.service_id"); ok {
		t.Error("a create's span has a service id")
	}
	checkCounts(t, h.metrics(t), map[string][]string{
		"dbcloud.client.calls": {"dbcloud.operation=Services.Create,dbcloud.status_class=5xx,error.type=maybe_created,http.request.method=POST,url.template=/projects/{project_id}/services: 1"},
	})
}

// Many concurrent calls on many services: no metric attribute holds an id,
// so the series stay few; every span is ended; nothing races.
func TestMetricsHaveNoIDs(t *testing.T) {
	h := newHarness(t)
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			call := getCall
			call.ServiceID = "svc-" + itoa(int64(i))
			h.run(context.Background(), call, []dbcloud.AttemptInfo{{StatusCode: 200}}, dbcloud.CallResult{Attempts: 1, StatusCode: 200})
		})
	}
	wg.Wait()
	if n := len(h.spans.Ended()); n != 128 {
		t.Errorf("%d spans ended, want 128", n)
	}
	for name, data := range h.metrics(t) {
		var sets []attribute.Set
		switch d := data.(type) {
		case metricdata.Sum[int64]:
			for _, p := range d.DataPoints {
				sets = append(sets, p.Attributes)
			}
		case metricdata.Histogram[float64]:
			for _, p := range d.DataPoints {
				sets = append(sets, p.Attributes)
			}
		}
		if len(sets) != 1 {
			t.Errorf("%s: %d series for one operation, want 1", name, len(sets))
		}
		for _, s := range sets {
			if strings.Contains(attrString(s), "svc-") || strings.Contains(attrString(s), "proj-1") {
				t.Errorf("%s has an id among its attributes: %s", name, attrString(s))
			}
		}
	}
}

// A unit of work that sends nothing itself (a deploy run or step:
// CallInfo.Unit) is a span with the resource's kind, name and ids, whose calls are
// its children; it is counted by no metric, and its failure marks its span.
func TestUnitOfWorkIsASpanAroundItsCalls(t *testing.T) {
	h := newHarness(t)
	step := dbcloud.CallInfo{Operation: "deploy.update", Unit: true, Kind: dbcloud.KindReplicaSet, Name: "orders-read",
		ProjectID: "p1", ServiceID: "s1", ReplicaSetID: "rs1"}
	ctx := h.obs.StartCall(t.Context(), step)
	get := dbcloud.CallInfo{Operation: "ReplicaSets.List", Method: http.MethodGet, Path: "/projects/{project_id}/services/{service_id}/replicaSets", ProjectID: "p1", ServiceID: "s1"}
	h.run(ctx, get, []dbcloud.AttemptInfo{{StatusCode: 200}}, dbcloud.CallResult{Attempts: 1, StatusCode: 200})
	h.obs.EndCall(ctx, step, dbcloud.CallResult{Err: errors.New("stale plan")})

	spans := h.spans.Ended()
	byName := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		byName[s.Name()] = s
	}
	unit, call := byName["deploy.update"], byName["ReplicaSets.List"]
	if unit == nil || call == nil || len(spans) != 3 {
		t.Fatalf("spans %v, want the step, its call and the call's attempt", spans)
	}
	if call.Parent().SpanID() != unit.SpanContext().SpanID() {
		t.Error("the call is not a child of its step")
	}
	want := map[attribute.Key]string{"dbcloud.resource.kind": "replica set", "dbcloud.resource.name": "orders-read",
		"dbcloud.project_id": "p1", "dbcloud.service_id": "s1", "dbcloud.replica_set_id": "rs1", "dbcloud.operation": "deploy.update"}
	for _, kv := range unit.Attributes() {
		if w, ok := want[kv.Key]; ok && kv.Value.AsString() == w {
			delete(want, kv.Key)
		}
	}
	if len(want) != 0 || unit.Status().Code != codes.Error {
		t.Errorf("step span: missing %v, status %v", want, unit.Status())
	}
	if got := counts(t, h.metrics(t)["dbcloud.client.calls"]); len(got) != 1 || !strings.Contains(got[0], "ReplicaSets.List") {
		t.Errorf("calls counted: %v, want the API call alone", got)
	}
}

// A deploy's unit of work names its VPC and peering as a call does: at its
// start the ids it knows, at its end the ids it learnt (a create's).
func TestUnitSpanNamesVPCAndPeering(t *testing.T) {
	h := newHarness(t)
	start := dbcloud.CallInfo{Unit: true, Operation: "deploy.create", Kind: dbcloud.KindPeering, Name: "acct/us-east-1/vpc-1",
		ProjectID: "p", VPCID: "123"}
	ctx := h.obs.StartCall(context.Background(), start)
	end := start
	end.PeeringID = "456"
	h.obs.EndCall(ctx, end, dbcloud.CallResult{})
	spans := h.spans.Ended()
	if len(spans) != 1 {
		t.Fatalf("%d spans, want the unit's", len(spans))
	}
	for key, want := range map[string]string{"dbcloud.project_id": "p", "dbcloud.vpc_id": "123", "dbcloud.peering_id": "456"} {
		if got := value(spans[0], key).AsString(); got != want {
			t.Errorf("%s = %q, want %q", key, got, want)
		}
	}
}
