package mydeploy_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/examples/mydeploy"
)

// These tests are written as a user of the SDK writes them: only the public
// packages, a dbcloudtest server per test, and no sleeps.

var orders = mydeploy.Spec{Name: "orders", CPUMillis: 1000, MemoryGBs: 4, Pooler: true}

// newServer starts a test server that closes with the test, after which no
// goroutine that Deploy started may still run.
func newServer(t *testing.T, opts ...dbcloudtest.Option) *dbcloudtest.Server {
	t.Helper()
	dbcloudtest.CheckGoroutines(t)
	srv := dbcloudtest.NewServer(opts...)
	t.Cleanup(srv.Close)
	return srv
}

// deployed starts a test server, deploys orders on it with a plain client
// and returns the three, failing the test if that deploy fails.
func deployed(t *testing.T) (*dbcloudtest.Server, *dbcloud.Client, *dbcloud.Service) {
	t.Helper()
	srv := newServer(t)
	c := srv.Client()
	svc, err := mydeploy.Deploy(t.Context(), c, srv.ProjectID, orders)
	if err != nil {
		t.Fatal(err)
	}
	return srv, c, svc
}

func TestDeployCreates(t *testing.T) {
	srv, _, svc := deployed(t)
	if svc.Status != dbcloud.StatusReady || svc.ConnectionPooler == nil {
		t.Errorf("deployed %s, pooler %v; want READY with a pooler", svc.Status, svc.ConnectionPooler)
	}
	all := srv.Services()
	if len(all) != 1 {
		t.Fatalf("%d services on the server, want 1", len(all))
	}
	if spec := all[0].Resources[0].Spec; spec.CPUMillis != 1000 || spec.MemoryGBs != 4 {
		t.Errorf("created with %d millicores and %d GB, want 1000 and 4", spec.CPUMillis, spec.MemoryGBs)
	}
}

// A second run changes nothing: the pooler's 409 (already on) is success.
func TestDeployTwice(t *testing.T) {
	srv, c, first := deployed(t)
	second, err := mydeploy.Deploy(t.Context(), c, srv.ProjectID, orders)
	if err != nil {
		t.Fatalf("second run: %v", err)
	}
	if second.ServiceID != first.ServiceID || len(srv.Services()) != 1 {
		t.Errorf("second run deployed %s besides %s", second.ServiceID, first.ServiceID)
	}
	if n := srv.Count("POST", "/projects/*/services"); n != 1 {
		t.Errorf("%d creates sent, want 1", n)
	}
	met409 := false
	for _, r := range srv.Requests() {
		if r.Method == "POST" && r.Status == http.StatusConflict {
			met409 = true
		}
	}
	if !met409 {
		t.Error("the second run never met the pooler's 409: the test does not test it")
	}
}

func TestDeployStartsAPausedService(t *testing.T) {
	srv, c, svc := deployed(t)
	if _, err := c.Services.Stop(t.Context(), srv.ProjectID, svc.ServiceID); err != nil {
		t.Fatal(err)
	}
	if got, _ := srv.Service(svc.ServiceID); got.Status != dbcloud.StatusPaused {
		t.Fatalf("set-up: service is %s, want PAUSED", got.Status)
	}
	if again, err := mydeploy.Deploy(t.Context(), c, srv.ProjectID, orders); err != nil || again.Status != dbcloud.StatusReady {
		t.Fatalf("Deploy of a paused service: %v, %v", again, err)
	}
	if n := srv.Count("POST", "/projects/*/services/*/start"); n != 1 {
		t.Errorf("%d starts, want 1", n)
	}
}

// A service still PAUSING cannot be started yet (the API answers 409):
// Deploy waits for PAUSED first. The test moves the server's clock from
// the progress callback, so each poll sees the next status at once.
func TestDeployWaitsForPausingService(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithStep(time.Minute))
	c := srv.Client()
	created, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	srv.Advance(2 * time.Minute) // QUEUED, CONFIGURING, READY
	if _, err := c.Services.Stop(t.Context(), srv.ProjectID, created.ServiceID); err != nil {
		t.Fatal(err)
	}

	var seen []string
	svc, err := mydeploy.Deploy(t.Context(), c, srv.ProjectID, mydeploy.Spec{Name: "orders"},
		dbcloud.WithPollInterval(time.Millisecond, time.Millisecond),
		dbcloud.WithProgress(func(status string) {
			seen = append(seen, status)
			srv.Advance(time.Minute)
		}))
	if err != nil {
		t.Fatal(err)
	}
	if svc.Status != dbcloud.StatusReady {
		t.Errorf("deployed %s", svc.Status)
	}
	want := []string{"PAUSING", "PAUSED", "RESUMING", "READY"}
	if len(seen) != len(want) {
		t.Fatalf("statuses seen %v, want %v", seen, want)
	}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("statuses seen %v, want %v", seen, want)
		}
	}
}

func TestDeployRefusesAServiceBeingDeleted(t *testing.T) {
	srv, c, svc := deployed(t)
	if err := srv.SetStatus(svc.ServiceID, dbcloud.StatusDeleting); err != nil {
		t.Fatal(err)
	}
	if _, err := mydeploy.Deploy(t.Context(), c, srv.ProjectID, orders); !errors.Is(err, mydeploy.ErrBeingDeleted) {
		t.Errorf("Deploy of a DELETING service: %v", err)
	}
}

// The create's connection breaks after the server made the service. With a
// recovering client Deploy finds it at once; with a plain one the run fails saying the service may exist, and the pipeline's
// next run reuses it. Neither creates a second one.
func TestDeployRecoversFromALostCreateAnswer(t *testing.T) {
	lostAnswer := dbcloudtest.Fault{Method: "POST", Path: "/projects/*/services", Drop: true, AfterHandling: true}

	srv := newServer(t)
	srv.InjectFault(lostAnswer)
	svc, err := mydeploy.Deploy(t.Context(), srv.Client(dbcloud.WithCreateRecovery()), srv.ProjectID, orders)
	if err != nil {
		t.Fatal(err)
	}
	if all := srv.Services(); len(all) != 1 || all[0].ServiceID != svc.ServiceID {
		t.Errorf("services %v, want only the deployed %s", all, svc.ServiceID)
	}

	plain := newServer(t)
	plain.InjectFault(lostAnswer)
	if _, err := mydeploy.Deploy(t.Context(), plain.Client(), plain.ProjectID, orders); !errors.Is(err, dbcloud.ErrMaybeCreated) {
		t.Fatalf("first run without recovery: %v, want ErrMaybeCreated", err)
	}
	again, err := mydeploy.Deploy(t.Context(), plain.Client(), plain.ProjectID, orders)
	if err != nil {
		t.Fatal(err)
	}
	if all := plain.Services(); len(all) != 1 || all[0].ServiceID != again.ServiceID {
		t.Errorf("services %v, want only the one the rerun reused", all)
	}
	for _, s := range []*dbcloudtest.Server{srv, plain} {
		if n := s.Count("POST", "/projects/*/services"); n != 1 {
			t.Errorf("%d creates sent, want 1", n)
		}
	}
}

// A create the API refused with a 503 made nothing: Deploy reports the
// API's answer, and sends the create once (the SDK does not repeat it).
func TestDeployReportsARefusedCreate(t *testing.T) {
	srv := newServer(t)
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: "/projects/*/services", Status: 503,
		Body: `{"code": "UNAVAILABLE", "message": "region at capacity"}`})
	_, err := mydeploy.Deploy(t.Context(), srv.Client(), srv.ProjectID, orders)
	var apiErr *dbcloud.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || apiErr.Message != "region at capacity" {
		t.Fatalf("Deploy under a refused create: %v", err)
	}
	// A 503 may come after the API acted: the SDK says the service may
	// exist, so the pipeline runs Deploy again rather than giving up.
	if !errors.Is(err, dbcloud.ErrMaybeCreated) {
		t.Errorf("err = %v, want it to match ErrMaybeCreated", err)
	}
	if n := len(srv.Services()); n != 0 {
		t.Errorf("%d services made", n)
	}
	if n := srv.Count("POST", "/projects/*/services"); n != 1 {
		t.Errorf("%d creates sent, want 1", n)
	}
}

// Reads that fail (a reset, a 502 from a proxy) are retried by the SDK.
func TestDeployRidesOutFlakyReads(t *testing.T) {
	srv := newServer(t)
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services", Status: 502, Body: "<html>Bad Gateway</html>"})
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services/*", Times: 2, Drop: true})
	if _, err := mydeploy.Deploy(t.Context(), srv.Client(), srv.ProjectID, orders); err != nil {
		t.Fatal(err)
	}
	if n := srv.Count("GET", ""); n < 4 {
		t.Errorf("%d GETs: the faults were not met", n)
	}
}

// A service that never gets READY: the wait's timeout ends Deploy with an
// error that says so. WithStep(time.Hour) and no Advance keep it QUEUED.
func TestDeployTimesOut(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithStep(time.Hour))
	_, err := mydeploy.Deploy(t.Context(), srv.Client(), srv.ProjectID, orders, dbcloud.WithWaitTimeout(10*time.Millisecond))
	var waitErr *dbcloud.WaitError
	if !errors.As(err, &waitErr) || !errors.Is(err, context.DeadlineExceeded) || waitErr.LastStatus != string(dbcloud.StatusQueued) {
		t.Errorf("Deploy of a service that stays QUEUED: %v", err)
	}
}
