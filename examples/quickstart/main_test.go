package main

import (
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

var fast = []string{"-step", "2ms", "-poll", "1ms"}

func TestQuickstartOnEmbeddedFake(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	for _, name := range []string{"DBCLOUD_API_KEY", "DBCLOUD_API_KEY_FILE",
		"DBCLOUD_PUBLIC_KEY", "DBCLOUD_SECRET_KEY", "DBCLOUD_SECRET_KEY_FILE"} {
		t.Setenv(name, "")
	}
	out, errOut := runFast(t, 0)
	assertInOrder(t, out,
		"No credentials set: using an in-process fake API at http://127.0.0.1:",
		"1. Create", "service: READY", "database answering at 127.0.0.1:", " after READY",
		"2. Resize", "resources: 1000 millicores, 4 GB",
		"3. Add a high-availability replica", "HA replicas: 1", "4. Enable the connection pooler", "pooler at 127.0.0.1:",
		"5. Add a read replica set", "replica set: active", "answering at 127.0.0.1:",
		"6. Fork", "fork: READY", "database answering at", "forked from",
		"7. The service's newest log lines", "8. Stop and start", "service: PAUSED", "service: READY", "database answering at",
		"9. Delete everything created", "replica set rs-", "deleted", "Done: every step worked")
	if errOut != "" {
		t.Errorf("stderr: %s", errOut)
	}
}

// runFast runs the quickstart with the fast flags and returns what it
// printed, failing the test unless it exits with want.
func runFast(t *testing.T, want int) (stdout, stderr string) {
	t.Helper()
	var out, errOut strings.Builder
	if code := run(t.Context(), fast, &out, &errOut); code != want {
		t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, want, out.String(), errOut.String())
	}
	return out.String(), errOut.String()
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
	dbcloudtest.CheckGoroutines(t)
	srv := startFake(t)
	out, _ := runFast(t, 0)
	if strings.Contains(out, "in-process fake") {
		t.Error("used the embedded fake although DBCLOUD_* were set")
	}
	assertInOrder(t, out,
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
	dbcloudtest.CheckGoroutines(t)
	srv := startFake(t)
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: "/projects/*/services/*/forkService", Status: 409, Body: `{"code":"CONFLICT","message":"no snapshot yet"}`})
	_, errOut := runFast(t, 1)
	if !strings.Contains(errOut, "no snapshot yet") {
		t.Errorf("stderr does not say why: %s", errOut)
	}
	assertNothingLeft(t, srv)
}

// With DBCLOUD_API_KEY set, it uses the API the environment names, and says
// which variable is missing.
func TestQuickstartMissingVariables(t *testing.T) {
	for _, tt := range []struct{ base, project, says string }{
		{"", "", "DBCLOUD_BASE_URL"},
		{"http://127.0.0.1:1/v1", "", "DBCLOUD_PROJECT_ID"},
	} {
		t.Setenv("DBCLOUD_API_KEY", "some-key")
		t.Setenv("DBCLOUD_BASE_URL", tt.base)
		t.Setenv("DBCLOUD_PROJECT_ID", tt.project)
		out, errOut := runFast(t, 1)
		if !strings.Contains(errOut, tt.says) || strings.Contains(out, "in-process fake") {
			t.Errorf("stderr = %q, stdout %q; want %s named and no fake", errOut, out, tt.says)
		}
	}
}

// startFake serves a fake whose clock moves half a step per request (and
// per connection to a database), so every poll sees the next status
// whatever the machine's speed, and points the environment at it.
// Databases answer "starting up" for a minute after READY, a few probes.
func startFake(t *testing.T) *dbcloudtest.Server {
	t.Helper()
	srv := dbcloudtest.NewServer(dbcloudtest.WithTickingClock(30*time.Second),
		dbcloudtest.WithStep(time.Minute), dbcloudtest.WithConnectDelay(time.Minute))
	t.Cleanup(srv.Close)
	srv.Setenv(t)
	return srv
}

func assertNothingLeft(t *testing.T, srv *dbcloudtest.Server) {
	t.Helper()
	if left := srv.Services(); len(left) != 0 {
		t.Errorf("%d services left behind", len(left))
	}
}

// A personal access token alone means the user's API, not the fake: the
// quickstart sends it there (this server accepts only its key, so the
// first call is refused) instead of quietly using the embedded fake.
func TestQuickstartWithATokenUsesTheAPI(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	srv := startFake(t)
	t.Setenv("DBCLOUD_API_KEY", "")
	t.Setenv("DBCLOUD_PUBLIC_KEY", "public-half")
	t.Setenv("DBCLOUD_SECRET_KEY", "secret-half")
	out, errOut := runFast(t, 1)
	if strings.Contains(out, "in-process fake") {
		t.Error("used the embedded fake although a personal access token was set")
	}
	if len(srv.Services()) != 0 || !strings.Contains(errOut, "401") {
		t.Errorf("want the API's 401 and nothing created; stderr: %s", errOut)
	}
}

// A secret key alone is half a personal access token: the quickstart
// reports the SDK's error instead of quietly using the embedded fake.
func TestQuickstartWithHalfATokenFails(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	t.Setenv("DBCLOUD_API_KEY", "")
	t.Setenv("DBCLOUD_API_KEY_FILE", "")
	t.Setenv("DBCLOUD_PUBLIC_KEY", "")
	t.Setenv("DBCLOUD_SECRET_KEY", "secret-half")
	out, errOut := runFast(t, 1)
	if strings.Contains(out, "in-process fake") || !strings.Contains(errOut, "publicKey") {
		t.Errorf("want the SDK's error on the missing public key; stdout: %s; stderr: %s", out, errOut)
	}
}
