package main

import (
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

func startFake(t *testing.T, opts ...dbcloudtest.Option) *dbcloudtest.Server {
	t.Helper()
	srv := dbcloudtest.NewServer(opts...)
	t.Cleanup(srv.Close)
	return srv
}

// deploy runs the command against srv, named by the environment.
func deploy(t *testing.T, srv *dbcloudtest.Server, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	srv.Setenv(t)
	var out, errOut strings.Builder
	args = append([]string{"-poll", "1ms", "-create-settle", "20ms"}, args...)
	code = run(t.Context(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// ticking moves the fake half a step per request (and per connection to a
// database): every poll sees the next status, however fast or loaded the
// machine is. A database answers "starting up" for a minute after READY.
var ticking = []dbcloudtest.Option{dbcloudtest.WithTickingClock(30 * time.Second), dbcloudtest.WithStep(time.Minute), dbcloudtest.WithConnectDelay(time.Minute)}

func TestDeployCreatesThenReuses(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	srv := startFake(t, ticking...)
	code, out, errOut := deploy(t, srv, "-name", "orders")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "127.0.0.1:") || strings.Count(out, "\n") != 1 {
		t.Errorf("stdout = %q, want the live endpoint's host:port alone", out)
	}
	for _, s := range []string{"creating orders", "orders is QUEUED", "orders is CONFIGURING", "orders is READY", "orders answers at " + strings.TrimSpace(out)} {
		if !strings.Contains(errOut, s) {
			t.Errorf("stderr lacks %q:\n%s", s, errOut)
		}
	}

	code, again, errOut := deploy(t, srv, "-name", "orders")
	if code != 0 || again != out || !strings.Contains(errOut, "reusing orders") {
		t.Errorf("second deploy: exit %d, stdout %q, stderr %q; want the same service reused", code, again, errOut)
	}
	if n := srv.Count("POST", "/projects/*/services"); n != 1 {
		t.Errorf("creates = %d, want 1", n)
	}
}

// A create whose answer is lost after the API made the service, and one that
// never reached the API, both end in one READY service.
func TestDeployRecoversALostCreate(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	for _, fault := range []dbcloudtest.Fault{{Drop: true, AfterHandling: true}, {Drop: true}, {Status: 502, Body: "bad gateway"}} {
		srv := startFake(t, ticking...)
		fault.Method, fault.Path = "POST", "/projects/*/services"
		srv.InjectFault(fault)
		code, out, errOut := deploy(t, srv, "-name", "orders")
		if code != 0 || !strings.HasPrefix(out, "127.0.0.1:") {
			t.Fatalf("%+v: exit %d, stdout %q, stderr:\n%s", fault, code, out, errOut)
		}
		if list, err := srv.Client().Services.List(t.Context(), srv.ProjectID); err != nil || len(list) != 1 {
			t.Errorf("%+v: %d services (%v), want 1", fault, len(list), err)
		}
	}
}

func TestDeployStartsAPausedService(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	srv := startFake(t, ticking...)
	if code, _, errOut := deploy(t, srv, "-name", "orders"); code != 0 {
		t.Fatal(errOut)
	}
	services, err := srv.Client().Services.List(t.Context(), srv.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.SetStatus(services[0].ServiceID, dbcloud.StatusPaused); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := deploy(t, srv, "-name", "orders")
	if code != 0 || !strings.Contains(errOut, "starting orders") || !strings.Contains(errOut, "orders is RESUMING") || !strings.Contains(errOut, "orders is READY") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

func TestDeployExitCodes(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	frozen := startFake(t, dbcloudtest.WithStep(time.Minute)) // stays QUEUED: nothing moves the clock
	code, out, errOut := deploy(t, frozen, "-name", "orders", "-timeout", "300ms")
	if code != 2 || out != "" || !strings.Contains(errOut, "timed out") || !strings.Contains(errOut, "QUEUED") {
		t.Errorf("timeout: exit %d, stdout %q, stderr %q; want 2 with the last status", code, out, errOut)
	}

	srv := startFake(t, dbcloudtest.WithRealTime(), dbcloudtest.WithStep(2*time.Millisecond))
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services", Status: 403, Body: `{"message":"key lacks access"}`})
	if code, _, errOut := deploy(t, srv, "-name", "orders"); code != 1 || !strings.Contains(errOut, "key lacks access") {
		t.Errorf("403: exit %d, stderr %q; want 1 with the reason", code, errOut)
	}
	if code, _, _ := deploy(t, srv); code != 1 {
		t.Errorf("no -name: exit %d, want 1", code)
	}
	if code, _, _ := deploy(t, srv, "-bogus"); code != 1 {
		t.Errorf("bad flag: exit %d, want 1", code)
	}

	c := srv.Client()
	for range 2 { // two services of that name: which to use would be a guess
		if _, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "twin"}); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, errOut := deploy(t, srv, "-name", "twin"); code != 1 || !strings.Contains(errOut, `2 services are named "twin"`) {
		t.Errorf("twins: exit %d, stderr %q", code, errOut)
	}
}

// READY is not enough: a database that keeps answering "starting up" makes
// it time out (exit 2) and say why, with nothing on stdout.
func TestDeployWaitsForTheDatabase(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	warming := startFake(t, dbcloudtest.WithConnectDelay(time.Hour)) // READY at once, answering in an hour
	code, out, errOut := deploy(t, warming, "-name", "orders", "-timeout", "300ms")
	if code != 2 || out != "" || !strings.Contains(errOut, "orders is READY") || !strings.Contains(errOut, "starting up") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 with the database's answer", code, out, errOut)
	}
}
