package main

import (
	"os"
	"path/filepath"
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

// runDeploy runs the command against srv, named by the environment.
func runDeploy(t *testing.T, srv *dbcloudtest.Server, args ...string) (code int, stdout, stderr string) {
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
	code, out, errOut := runDeploy(t, srv, "-name", "orders")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "127.0.0.1:") || strings.Count(out, "\n") != 1 {
		t.Errorf("stdout = %q, want the live endpoint's host:port alone", out)
	}
	for _, s := range []string{`+ create service "orders"`, `): QUEUED`, `): CONFIGURING`, `): READY`, "orders answers at " + strings.TrimSpace(out)} {
		if !strings.Contains(errOut, s) {
			t.Errorf("stderr lacks %q:\n%s", s, errOut)
		}
	}

	code, again, errOut := runDeploy(t, srv, "-name", "orders")
	if code != 0 || again != out || !strings.Contains(errOut, "no changes") || strings.Contains(errOut, `create service`) {
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
		code, out, errOut := runDeploy(t, srv, "-name", "orders")
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
	if code, _, errOut := runDeploy(t, srv, "-name", "orders"); code != 0 {
		t.Fatal(errOut)
	}
	services, err := srv.Client().Services.List(t.Context(), srv.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.SetStatus(services[0].ServiceID, dbcloud.StatusPaused); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runDeploy(t, srv, "-name", "orders")
	if code != 0 || !strings.Contains(errOut, "status PAUSED -> READY") || !strings.Contains(errOut, "status PAUSED -> READY: done") || !strings.Contains(errOut, "): RESUMING") || !strings.Contains(errOut, "): READY") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

func TestDeployExitCodes(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	frozen := startFake(t, dbcloudtest.WithStep(time.Minute)) // stays QUEUED: nothing moves the clock
	code, out, errOut := runDeploy(t, frozen, "-name", "orders", "-timeout", "300ms")
	if code != 2 || out != "" || !strings.Contains(errOut, "timed out") || !strings.Contains(errOut, "QUEUED") {
		t.Errorf("timeout: exit %d, stdout %q, stderr %q; want 2 with the last status", code, out, errOut)
	}

	srv := startFake(t, dbcloudtest.WithRealTime(), dbcloudtest.WithStep(2*time.Millisecond))
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services", Status: 403, Body: `{"message":"key lacks access"}`})
	if code, _, errOut := runDeploy(t, srv, "-name", "orders"); code != 1 || !strings.Contains(errOut, "key lacks access") {
		t.Errorf("403: exit %d, stderr %q; want 1 with the reason", code, errOut)
	}
	if code, _, _ := runDeploy(t, srv); code != 1 {
		t.Errorf("no -name: exit %d, want 1", code)
	}
	if code, _, _ := runDeploy(t, srv, "-bogus"); code != 1 {
		t.Errorf("bad flag: exit %d, want 1", code)
	}

	c := srv.Client()
	for range 2 { // two services of that name: which to use would be a guess
		if _, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "twin"}); err != nil {
			t.Fatal(err)
		}
	}
	if code, _, errOut := runDeploy(t, srv, "-name", "twin"); code != 1 || !strings.Contains(errOut, `2 services are named "twin"`) {
		t.Errorf("twins: exit %d, stderr %q", code, errOut)
	}
}

// READY is not enough: a database that keeps answering "starting up" makes
// it time out (exit 2) and say why, with nothing on stdout.
func TestDeployWaitsForTheDatabase(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	warming := startFake(t, dbcloudtest.WithConnectDelay(time.Hour)) // READY at once, answering in an hour
	code, out, errOut := runDeploy(t, warming, "-name", "orders", "-timeout", "300ms")
	if code != 2 || out != "" || !strings.Contains(errOut, "): READY") || !strings.Contains(errOut, "starting up") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 with the database's answer", code, out, errOut)
	}
}

// -plan prints what a run would change and stops, sending only GETs.
func TestDeployPlanOnly(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	srv := startFake(t)
	code, out, errOut := runDeploy(t, srv, "-name", "orders", "-pooler", "-plan")
	want := "project proj-fake: 2 change(s)\n  + create service \"orders\"\n  ~ update service \"orders\": pooler off -> on\n"
	if code != 0 || out != "" || errOut != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant:\n%s", code, out, errOut, want)
	}
	for _, r := range srv.Requests() {
		if r.Method != "GET" {
			t.Errorf("-plan sent %s %s", r.Method, r.Path)
		}
	}
}

// The new service's password goes to -password-file, readable by its
// owner alone, in the run that creates the service; -destroy prints its
// plan, deletes the service and waits until it is gone, and a second
// -destroy has nothing to do.
func TestDeployPasswordFileAndDestroy(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	srv := startFake(t, ticking...)
	file := filepath.Join(t.TempDir(), "password")
	if code, _, errOut := runDeploy(t, srv, "-name", "orders", "-password-file", file); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	info, err := os.Stat(file)
	if err != nil || info.Mode().Perm() != 0o600 || info.Size() < 2 {
		t.Fatalf("password file: %v, %v", info, err)
	}
	code, out, errOut := runDeploy(t, srv, "-name", "orders", "-destroy")
	if code != 0 || out != "" || !strings.Contains(errOut, `- delete service "orders"`) || !strings.Contains(errOut, ": done") {
		t.Errorf("destroy: exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	if n := len(srv.Services()); n != 0 {
		t.Errorf("%d services left", n)
	}
	if code, _, errOut := runDeploy(t, srv, "-name", "orders", "-destroy"); code != 0 || !strings.Contains(errOut, "no changes") {
		t.Errorf("second destroy: exit %d, stderr:\n%s", code, errOut)
	}
}
