package dbcloudotel_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// End to end: a Client of the public test server with the Observer set, so
// the spans are the ones the SDK's pipeline really produces.

// e2e returns a test server, a client of it observed by h, and a READY
// service.
func e2e(t *testing.T, h *harness, opts ...dbcloud.Option) (*dbcloudtest.Server, *dbcloud.Client, *dbcloud.Service) {
	t.Helper()
	srv := dbcloudtest.NewServer()
	t.Cleanup(srv.Close)
	setup := srv.Client()
	svc, err := setup.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "db"})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.SetStatus(svc.ServiceID, dbcloud.StatusReady); err != nil {
		t.Fatal(err)
	}
	c := srv.Client(append([]dbcloud.Option{dbcloud.WithObserver(h.obs)}, opts...)...)
	return srv, c, svc
}

// callSpans returns the ended spans named op, and the attempt spans that
// are children of each, in the order they ended.
func callSpans(t *testing.T, h *harness, op string) (calls []sdktrace.ReadOnlySpan, attempts map[sdktrace.ReadOnlySpan][]sdktrace.ReadOnlySpan) {
	t.Helper()
	ended := h.spans.Ended()
	attempts = map[sdktrace.ReadOnlySpan][]sdktrace.ReadOnlySpan{}
	for _, s := range ended {
		if s.Name() != op {
			continue
		}
		calls = append(calls, s)
		for _, a := range ended {
			if a.Parent().SpanID() == s.SpanContext().SpanID() {
				attempts[s] = append(attempts[s], a)
			}
		}
	}
	return calls, attempts
}

// value is attr's value, the zero Value when the span lacks it.
func value(s sdktrace.ReadOnlySpan, key string) attribute.Value {
	v, _ := attr(s, key)
	return v
}

func TestClientPlainCall(t *testing.T) {
	h := newHarness(t)
	srv, c, svc := e2e(t, h)
	if _, err := c.Services.Get(t.Context(), srv.ProjectID, svc.ServiceID); err != nil {
		t.Fatal(err)
	}
	calls, attempts := callSpans(t, h, "Services.Get")
	if len(calls) != 1 || len(attempts[calls[0]]) != 1 {
		t.Fatalf("%d Services.Get spans, %d attempts; want 1 call with 1 attempt", len(calls), len(attempts[calls[0]]))
	}
	call, a := calls[0], attempts[calls[0]][0]
	if got := value(call, "dbcloud.service_id").AsString(); got != svc.ServiceID {
		t.Errorf("dbcloud.service_id = %q, want %q", got, svc.ServiceID)
	}
	if got := value(call, "url.template").AsString(); got != "/projects/{project_id}/services/{service_id}" {
		t.Errorf("url.template = %q", got)
	}
	if a.Name() != "GET /projects/{project_id}/services/{service_id}" || value(a, "http.response.status_code").AsInt64() != 200 {
		t.Errorf("attempt %q, status %v", a.Name(), value(a, "http.response.status_code").String())
	}
	if call.Status().Code == codes.Error || value(call, "dbcloud.attempts").AsInt64() != 1 {
		t.Errorf("call status %v, attempts %v", call.Status(), value(call, "dbcloud.attempts").String())
	}
}

func TestClientRetriedCall(t *testing.T) {
	h := newHarness(t)
	srv, c, svc := e2e(t, h)
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services/*", Status: 503})
	if _, err := c.Services.Get(t.Context(), srv.ProjectID, svc.ServiceID); err != nil {
		t.Fatal(err)
	}
	calls, attempts := callSpans(t, h, "Services.Get")
	if len(calls) != 1 || len(attempts[calls[0]]) != 2 {
		t.Fatalf("%d calls; want 1 with 2 attempts", len(calls))
	}
	first, second := attempts[calls[0]][0], attempts[calls[0]][1]
	if value(first, "http.response.status_code").AsInt64() != 503 || value(first, "dbcloud.retry_reason").AsString() == "" {
		t.Errorf("first attempt: %v", first.Attributes())
	}
	if value(second, "http.request.resend_count").AsInt64() != 1 || value(second, "http.response.status_code").AsInt64() != 200 {
		t.Errorf("second attempt: %v", second.Attributes())
	}
	if value(calls[0], "dbcloud.attempts").AsInt64() != 2 || calls[0].Status().Code == codes.Error {
		t.Errorf("call: %v, %v", calls[0].Attributes(), calls[0].Status())
	}
	if got := counts(t, h.metrics(t)["dbcloud.client.retries"]); len(got) != 1 {
		t.Errorf("retries: %v, want one point", got)
	}
}

// A retried Delete whose first attempt the server handled before the
// connection dropped: the retry's 404 is success, and the call says it was
// reconciled.
func TestClientReconciledCall(t *testing.T) {
	h := newHarness(t)
	srv, c, svc := e2e(t, h)
	srv.InjectFault(dbcloudtest.Fault{Method: "DELETE", Path: "/projects/*/services/*", Drop: true, AfterHandling: true})
	if err := c.Services.Delete(t.Context(), srv.ProjectID, svc.ServiceID); err != nil {
		t.Fatal(err)
	}
	calls, attempts := callSpans(t, h, "Services.Delete")
	if len(calls) != 1 || len(attempts[calls[0]]) != 2 {
		t.Fatalf("%d calls; want 1 with 2 attempts", len(calls))
	}
	call := calls[0]
	if call.Status().Code == codes.Error || !value(call, "dbcloud.reconciled").AsBool() {
		t.Errorf("call: status %v, attributes %v; want success, reconciled", call.Status(), call.Attributes())
	}
	if st := value(call, "http.response.status_code").AsInt64(); st < 400 {
		t.Errorf("status_code %d: want the retry's error answer that was reconciled", st)
	}
}

// A create whose answer was lost after the server made the service, with
// no recovery: the caller's *MaybeCreatedError is error.type maybe_created.
func TestClientAmbiguousCreate(t *testing.T) {
	h := newHarness(t)
	srv, c, _ := e2e(t, h)
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: "/projects/*/services", Drop: true, AfterHandling: true})
	_, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "lost"})
	if !errors.Is(err, dbcloud.ErrMaybeCreated) {
		t.Fatalf("err = %v, want ErrMaybeCreated", err)
	}
	calls, _ := callSpans(t, h, "Services.Create")
	if len(calls) != 1 {
		t.Fatalf("%d Services.Create spans", len(calls))
	}
	if got := value(calls[0], "error.type").AsString(); got != "maybe_created" || calls[0].Status().Code != codes.Error {
		t.Errorf("error.type %q, status %v", got, calls[0].Status())
	}
}

// Every page of AllLogs is a Services.ListLogs call, and a read-only
// client's refusal is a call with error.type read_only and no attempt.
func TestClientLogsAndReadOnly(t *testing.T) {
	h := newHarness(t)
	srv, c, svc := e2e(t, h, dbcloud.WithReadOnly())
	if err := srv.SeedLogs(svc.ServiceID, 600); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, err := range c.Services.AllLogs(t.Context(), srv.ProjectID, svc.ServiceID, nil) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	calls, attempts := callSpans(t, h, "Services.ListLogs")
	if n < 600 || len(calls) < 2 {
		t.Errorf("%d entries in %d Services.ListLogs calls; want every page a call", n, len(calls))
	}
	for _, call := range calls {
		if len(attempts[call]) != 1 || value(call, "url.template").AsString() != "/projects/{project_id}/services/{service_id}/logs" {
			t.Errorf("ListLogs call %v with %d attempts", call.Attributes(), len(attempts[call]))
		}
	}
	if err := c.Services.Delete(context.Background(), srv.ProjectID, svc.ServiceID); !errors.Is(err, dbcloud.ErrReadOnly) {
		t.Fatalf("Delete: %v, want ErrReadOnly", err)
	}
	calls, attempts = callSpans(t, h, "Services.Delete")
	if len(calls) != 1 || len(attempts[calls[0]]) != 0 || value(calls[0], "error.type").AsString() != "read_only" {
		t.Fatalf("%d Services.Delete spans; want 1, with no attempt and error.type read_only", len(calls))
	}
}

// A call on a VPC's peering names the VPC and the peering in its span.
func TestClientVPCAndPeeringIDs(t *testing.T) {
	h := newHarness(t)
	srv, c, _ := e2e(t, h)
	vpc, err := c.VPCs.Create(t.Context(), srv.ProjectID, &dbcloud.CreateVPCRequest{Name: "private", CIDR: "10.0.0.0/16", RegionCode: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := c.Peerings.Create(t.Context(), srv.ProjectID, vpc.ID, &dbcloud.CreatePeeringRequest{
		PeerAccountID: "000011112222", PeerRegionCode: "us-east-1", PeerVPCID: "vpc-0a1b"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Peerings.Get(t.Context(), srv.ProjectID, vpc.ID, p.ID); err != nil {
		t.Fatal(err)
	}
	calls, _ := callSpans(t, h, "Peerings.Get")
	if len(calls) != 1 {
		t.Fatalf("%d Peerings.Get spans, want 1", len(calls))
	}
	if got := value(calls[0], "dbcloud.vpc_id").AsString(); got != vpc.ID {
		t.Errorf("dbcloud.vpc_id = %q, want %q", got, vpc.ID)
	}
	if got := value(calls[0], "dbcloud.peering_id").AsString(); got != p.ID {
		t.Errorf("dbcloud.peering_id = %q, want %q", got, p.ID)
	}
	if _, ok := attr(calls[0], "dbcloud.service_id"); ok {
		t.Error("a peering's call names a service")
	}
}
