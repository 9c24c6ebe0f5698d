package dbcloudotel_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	dbcloudotel "github.com/dbcloud/dbcloud-go/otel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// dropSpans is a span processor that keeps nothing: what the test counts
// is what the Observer and the SDK's recording spans allocate, not an
// exporter's queue.
type dropSpans struct{}

func (dropSpans) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (dropSpans) OnEnd(sdktrace.ReadOnlySpan)                     {}
func (dropSpans) Shutdown(context.Context) error                  { return nil }
func (dropSpans) ForceFlush(context.Context) error                { return nil }

// TestObserverAllocs bounds the allocations of the four calls the
// pipeline makes for a Get answered at once, spans recorded and metrics
// measured: 17 today, of which the OpenTelemetry SDK makes 10 (two
// recording spans, their contexts, snapshots and attributes). The
// Observer's own are the call span's attributes and options (its ids vary
// per call) and one slice for each span's answer attributes; every
// attribute set, span name and option that depends only on the operation
// is made once. It made 34 when each measurement built its options.
func TestObserverAllocs(t *testing.T) {
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(dropSpans{}))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()); _ = mp.Shutdown(context.Background()) })
	obs, err := dbcloudotel.New(dbcloudotel.WithTracerProvider(tp), dbcloudotel.WithMeterProvider(mp))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	call := dbcloud.CallInfo{Operation: "Services.Get", Method: http.MethodGet,
		Path: "/projects/{project_id}/services/{service_id}", ProjectID: "proj-1", ServiceID: "svc-1"}
	allocs := testing.AllocsPerRun(200, func() {
		cctx := obs.StartCall(ctx, call)
		actx := obs.StartAttempt(cctx, call, 1)
		obs.EndAttempt(actx, call, dbcloud.AttemptInfo{Attempt: 1, StatusCode: 200, RequestID: "req-1", Duration: time.Millisecond})
		obs.EndCall(cctx, call, dbcloud.CallResult{Attempts: 1, StatusCode: 200, RequestID: "req-1", Duration: time.Millisecond})
	})
	t.Logf("%.0f allocations per call", allocs)
	if limit := float64(18 + allocSlack); allocs > limit {
		t.Errorf("a traced and measured call allocated %.0f times, want at most %.0f", allocs, limit)
	}
}
