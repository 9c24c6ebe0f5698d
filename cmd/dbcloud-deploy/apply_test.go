package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// ticking moves the fake half a step per request (and per connection to a
// database): every poll sees the next status, however fast or loaded the
// machine is. A database answers "starting up" for a minute after READY.
var ticking = []dbcloudtest.Option{dbcloudtest.WithTickingClock(30 * time.Second), dbcloudtest.WithStep(time.Minute), dbcloudtest.WithConnectDelay(time.Minute)}

const service = `{"services": [{"name": "orders", "pooler": true}]}`

// A state applied twice: the first run creates, reporting with -v each
// status its waits see; the second has nothing to do and sends nothing
// but its reads.
func TestApplyTwice(t *testing.T) {
	s := newSession(t, ticking...)
	state := s.file("state.json", service)
	code, out, errOut := s.run("apply", state, "-password-file", s.path("passwords"), "-v")
	if code != exitOK || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	id := s.srv.Services()[0].ServiceID
	for _, want := range []string{`+ create service "orders": running`, "): QUEUED", "): CONFIGURING", "): READY",
		`+ create service "orders" (` + id + `): done in `, `pooler off -> on: done in `} {
		if strings.Count(errOut, want) != 1 {
			t.Errorf("stderr has %q %d times, want once:\n%s", want, strings.Count(errOut, want), errOut)
		}
	}
	mark := len(s.srv.Requests())
	code, out, errOut = s.run("apply", state)
	if code != exitOK || out != "" || errOut != "project proj-fake: no changes\n" || len(s.mutations(mark)) != 0 {
		t.Errorf("second apply: exit %d, stdout %q, stderr %q, sent %v", code, out, errOut, s.mutations(mark))
	}
	s.checkNoPassword(s.passwords("passwords"))
}

// A create whose answer is lost after the API made the service, one that
// never reached the API, and one that got a 502: each ends in one READY
// service, whose password (a new one, for a create recovered) is in the
// file.
func TestApplyRecoversALostCreate(t *testing.T) {
	for _, fault := range []dbcloudtest.Fault{{Drop: true, AfterHandling: true}, {Drop: true}, {Status: 502, Body: "bad gateway"}} {
		s := newSession(t, ticking...)
		fault.Method, fault.Path = "POST", "/projects/*/services"
		s.srv.InjectFault(fault)
		code, _, errOut := s.run("apply", s.file("state.json", service), "-password-file", s.path("passwords"))
		if code != exitOK {
			t.Fatalf("%+v: exit %d, stderr:\n%s", fault, code, errOut)
		}
		if all := s.srv.Services(); len(all) != 1 || all[0].Status != dbcloud.StatusReady {
			t.Errorf("%+v: services %v, want one READY", fault, all)
		}
		passwords := s.passwords("passwords")
		if len(passwords) != 1 {
			t.Errorf("%+v: passwords of %v", fault, passwords)
		}
		s.checkNoPassword(passwords)
	}
}

// A paused service is started, and waited for until READY.
func TestApplyStartsAPausedService(t *testing.T) {
	s := newSession(t, ticking...)
	state := s.file("state.json", service)
	if code, _, errOut := s.run("apply", state, "-password-file", s.path("passwords")); code != exitOK {
		t.Fatal(errOut)
	}
	if err := s.srv.SetStatus(s.srv.Services()[0].ServiceID, dbcloud.StatusPaused); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := s.run("apply", state, "-v")
	if code != exitOK || !strings.Contains(errOut, "status PAUSED -> READY: done in ") || !strings.Contains(errOut, "): RESUMING") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut)
	}
}

// What would lose a password is refused before anything is sent: a run
// that creates a service with no file named, a file others may read, a
// file that is not one. A run that creates none needs no file.
func TestPasswordFileRefusals(t *testing.T) {
	s := newSession(t)
	state := s.file("state.json", service)
	loose := s.file("loose", "")
	if err := os.Chmod(loose, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, `the plan creates service "orders", whose password the API hands out once: name a -password-file`},
		{[]string{"-password-file", loose}, "has mode -rw-r--r--, which others may read"},
		{[]string{"-password-file", os.DevNull}, "is not a regular file"},
		{[]string{"-password-file", s.dir}, "is a directory"},
	} {
		code, _, errOut := s.run(append([]string{"apply", state}, tc.args...)...)
		if code != exitError || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr:\n%s\nwant %q", tc.args, code, errOut, tc.want)
		}
	}
	if m := s.mutations(0); len(m) != 0 {
		t.Errorf("sent %v", m)
	}
	if code, _, errOut := s.run("apply", state, "-password-file", s.path("passwords")); code != exitOK {
		t.Fatal(errOut)
	}
	// The service exists: a change needs no file, and makes none.
	if code, _, errOut := s.run("apply", s.file("off.json", `{"services": [{"name": "orders", "pooler": false}]}`), "-password-file", s.path("unused")); code != exitOK {
		t.Fatal(errOut)
	}
	if _, err := os.Stat(s.path("unused")); !os.IsNotExist(err) {
		t.Errorf("a run that creates nothing made the password file: %v", err)
	}
	s.checkNoPassword(s.passwords("passwords"))
}

// A run cut short (the context ends, as on Ctrl-C, right after the create
// reached the API) exits 1 and says to run the same command again, which
// finishes the deploy with no second service.
func TestApplyInterrupted(t *testing.T) {
	s := newSession(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	api := s.srv.Handler()
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		api.ServeHTTP(w, r)
		if r.Method == http.MethodPost {
			cancel()
		}
	}))
	defer proxy.Close()
	s.srv.Setenv(t)
	t.Setenv("DBCLOUD_BASE_URL", proxy.URL+"/v1")
	state := s.file("state.json", service)
	var out, errOut strings.Builder
	code := run(ctx, []string{"apply", state, "-password-file", s.path("passwords")}, strings.NewReader(""), &out, &errOut)
	if code != exitError || !strings.Contains(errOut.String(), "context canceled") || !strings.Contains(errOut.String(), "run the same command again") {
		t.Fatalf("interrupted: exit %d, stderr:\n%s", code, errOut.String())
	}
	s.outputs.WriteString(out.String() + errOut.String())
	if code, _, errOut := s.runIn("", "apply", state, "-password-file", s.path("passwords")); code != exitOK {
		t.Fatalf("the run after: exit %d\n%s", code, errOut)
	}
	if all := s.srv.Services(); len(all) != 1 || all[0].PoolerEndpoint() == nil {
		t.Errorf("services %v, want orders once, with its pooler", all)
	}
	s.checkNoPassword(s.passwords("passwords"))
}
