package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/internal/exampleenv"
	"github.com/dbcloud/dbcloud-go/internal/fakeapi"
	"github.com/dbcloud/dbcloud-go/internal/leakcheck"
)

var fast = []string{"-step", "2ms", "-poll", "1ms"}

func noEnv(string) string { return "" }

func TestQuickstartOnEmbeddedFake(t *testing.T) {
	leakcheck.Check(t)
	var out, errOut strings.Builder
	if code := run(t.Context(), fast, noEnv, &out, &errOut); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errOut.String())
	}
	assertInOrder(t, out.String(),
		"No DBCLOUD_API_KEY set: using an in-process fake API at http://127.0.0.1:",
		"1. Create", "service: READY", "database answering at 127.0.0.1:", " after READY",
		"2. Resize", "resources: 1000 millicores, 4 GB",
		"3. Add a high-availability replica", "HA replicas: 1", "4. Enable the connection pooler", "pooler at 127.0.0.1:",
		"5. Add a read replica set", "replica set: active", "answering at 127.0.0.1:",
		"6. Fork", "fork: READY", "database answering at", "forked from",
		"7. The service's newest log lines", "8. Stop and start", "service: PAUSED", "service: READY", "database answering at",
		"9. Delete everything created", "replica set rs-", "deleted", "Done: every step worked")
	if errOut.Len() != 0 {
		t.Errorf("stderr: %s", errOut.String())
	}
}

// assertInOrder checks that text holds each of parts, in order.
func assertInOrder(t *testing.T, text string, parts ...string) {
	t.Helper()
	rest := text
	for _, s := range parts {
		i := strings.Index(rest, s)
		if i < 0 {
			t.Fatalf("output lacks %q after the previous parts:\n%s", s, text)
		}
		rest = rest[i+len(s):]
	}
}

// With DBCLOUD_* set it uses that API, prints every status it goes through,
// and leaves nothing behind there.
func TestQuickstartOnConfiguredAPI(t *testing.T) {
	leakcheck.Check(t)
	srv := startFake(t)
	var out, errOut strings.Builder
	if code := run(t.Context(), fast, exampleenv.Getenv(srv), &out, &errOut); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	if strings.Contains(out.String(), "in-process fake") {
		t.Error("used the embedded fake although DBCLOUD_* were set")
	}
	assertInOrder(t, out.String(),
		"service: QUEUED", "service: CONFIGURING", "service: READY", // create
		"service: CONFIGURING", "service: READY", // resize
		"service: CONFIGURING", "service: READY", // HA
		"replica set: creating", "replica set: active",
		"fork: QUEUED", "fork: CONFIGURING", "fork: READY",
		"service: PAUSING", "service: PAUSED", "service: RESUMING", "service: READY",
		": DELETING", "deleted")
	assertNothingLeft(t, srv)
}

// A failing step makes it exit 1, and it still deletes what it created.
func TestQuickstartFailureCleansUp(t *testing.T) {
	leakcheck.Check(t)
	srv := startFake(t)
	srv.API.InjectFault(fakeapi.Fault{Method: "POST", Path: "/projects/*/services/*/forkService", Status: 409, Body: `{"code":"CONFLICT","message":"no snapshot yet"}`})
	var out, errOut strings.Builder
	if code := run(t.Context(), fast, exampleenv.Getenv(srv), &out, &errOut); code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(errOut.String(), "no snapshot yet") {
		t.Errorf("stderr does not say why: %s", errOut.String())
	}
	assertNothingLeft(t, srv)
}

func TestQuickstartMissingVariables(t *testing.T) {
	getenv := func(name string) string {
		if name == dbcloud.EnvAPIKey {
			return "some-key"
		}
		return ""
	}
	var out, errOut strings.Builder
	if code := run(t.Context(), fast, getenv, &out, &errOut); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if !strings.Contains(errOut.String(), "DBCLOUD_BASE_URL, DBCLOUD_PROJECT_ID") {
		t.Errorf("stderr = %q, want the missing variables named", errOut.String())
	}
}

// startFake serves a fake whose clock moves half a step per request (and
// per connection to a database), so every poll sees the next status
// whatever the machine's speed. Databases answer "starting up" for a minute
// after READY, a few probes.
func startFake(t *testing.T) *fakeapi.Server {
	t.Helper()
	clock := fakeapi.NewTickingClock(time.Now(), 30*time.Second)
	srv, err := fakeapi.Start("", fakeapi.Options{Clock: clock, Step: time.Minute, ConnectDelay: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

func assertNothingLeft(t *testing.T, srv *fakeapi.Server) {
	t.Helper()
	c, err := dbcloud.NewClient(srv.APIKey, dbcloud.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	left, err := c.Services.List(context.Background(), srv.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Errorf("%d services left behind", len(left))
	}
}
