package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/deploy"
)

// The tests run the command as a script does, through run, on -fake: the
// fake of the process is the test's own server, so that the commands of
// one test share it as a script's commands share the real API.

// session is one test's fake, its files and every output of its commands.
type session struct {
	t   *testing.T
	srv *dbcloudtest.Server
	dir string
	// outputs is everything the commands wrote, stdout and stderr, so that
	// a test can check that no password is in any of it.
	outputs strings.Builder
}

// newSession makes srv, with opts, the fake of -fake for the test.
func newSession(t *testing.T, opts ...dbcloudtest.Option) *session {
	t.Helper()
	dbcloudtest.CheckGoroutines(t)
	srv := dbcloudtest.NewServer(opts...)
	fake.Lock()
	fake.srv = srv
	fake.Unlock()
	t.Cleanup(func() {
		fake.Lock()
		fake.srv = nil
		fake.Unlock()
		srv.Close()
	})
	return &session{t: t, srv: srv, dir: t.TempDir()}
}

// file writes a file of the session and returns its path.
func (s *session) file(name, content string) string {
	s.t.Helper()
	path := filepath.Join(s.dir, name)
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		s.t.Fatal(err)
	}
	return path
}

// path is the path of a file of the session.
func (s *session) path(name string) string { return filepath.Join(s.dir, name) }

// run runs the command with args and -fake.
func (s *session) run(args ...string) (code int, stdout, stderr string) {
	s.t.Helper()
	return s.runIn("", append(args, "-fake")...)
}

// runIn runs the command with args and stdin.
func (s *session) runIn(stdin string, args ...string) (code int, stdout, stderr string) {
	s.t.Helper()
	var out, errOut strings.Builder
	code = run(s.t.Context(), args, strings.NewReader(stdin), &out, &errOut)
	s.outputs.WriteString(out.String() + errOut.String())
	return code, out.String(), errOut.String()
}

// passwords returns the passwords of the password file name, checking
// that only its owner may read it.
func (s *session) passwords(name string) map[string]string {
	s.t.Helper()
	path := s.path(name)
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		s.t.Fatalf("password file: %v, %v; want mode 0600", info, err)
	}
	f, err := os.Open(path)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		var p struct {
			Kind      string `json:"kind"`
			Name      string `json:"name"`
			ServiceID string `json:"service_id"`
			Password  string `json:"password"`
		}
		if err := json.Unmarshal(lines.Bytes(), &p); err != nil || p.Password == "" || p.ServiceID == "" {
			s.t.Fatalf("password file line %q: %v", lines.Text(), err)
		}
		out[p.Kind+" "+p.Name] = p.Password
	}
	return out
}

// checkNoPassword checks that none of passwords is in any output so far.
func (s *session) checkNoPassword(passwords map[string]string) {
	s.t.Helper()
	for name, pw := range passwords {
		if strings.Contains(s.outputs.String(), pw) {
			s.t.Errorf("the password of %s is in the output", name)
		}
	}
}

// mutations are the requests other than GET from the n-th on.
func (s *session) mutations(from int) []string {
	var out []string
	for _, r := range s.srv.Requests()[from:] {
		if r.Method != http.MethodGet {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}

const orders = `{
  "services": [{"name": "orders", "cpu_millis": 1000, "memory_gbs": 4, "pooler": true,
    "replica_sets": [{"name": "orders-read", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}],
    "forks": [{"name": "orders-staging", "strategy": "NOW"}]
  }]
}`

// The CI flow: plan (exit 2, the plan on stdout, only GETs sent), apply of
// the saved plan (exit 0, a line per step), plan again (exit 0, no
// changes); a plan saved, then made stale behind its back (exit 3, nothing
// sent); destroy's plan (exit 2), destroy (exit 0, nothing left), and its
// plan again (exit 0). No password in any output: they are in the file.
func TestPlanApplyPlanDestroy(t *testing.T) {
	s := newSession(t)
	state := s.file("state.json", orders)

	code, out, errOut := s.run("plan", state, "-out", s.path("plan.json"))
	want := `project proj-fake: 4 change(s)
  + create service "orders": 1000m CPU / 4 GB
  ~ update service "orders": pooler off -> on
  + create replica set "orders-read" of "orders": 1 node(s), 500m CPU / 2 GB
  + create fork "orders-staging" of "orders": NOW
`
	if code != exitChanges || out != want || errOut != "" {
		t.Fatalf("plan: exit %d, stdout:\n%s\nwant:\n%s\nstderr: %s", code, out, want, errOut)
	}
	if m := s.mutations(0); len(m) != 0 {
		t.Errorf("plan sent %v", m)
	}
	data, err := os.ReadFile(s.path("plan.json"))
	if err != nil {
		t.Fatal(err)
	}
	if p, err := deploy.ParsePlan(data); err != nil || p.String() != want {
		t.Fatalf("plan.json: %v\n%s", err, p)
	}

	code, out, errOut = s.run("apply", s.path("plan.json"), "-password-file", s.path("passwords"))
	if code != exitOK || out != "" {
		t.Fatalf("apply: exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	steps := 0
	for l := range strings.Lines(errOut) {
		if strings.Contains(l, ": done in ") {
			steps++
		}
	}
	if steps != 4 || !strings.HasPrefix(errOut, want) || !strings.Contains(errOut, "dbcloud-deploy: 4 change(s): 4 done in ") {
		t.Errorf("apply: %d step lines, stderr:\n%s", steps, errOut)
	}
	passwords := s.passwords("passwords")
	if len(passwords) != 2 || passwords["service orders"] == "" || passwords["fork orders-staging"] == "" {
		t.Errorf("passwords of %v, want the service's and the fork's", passwords)
	}

	if code, out, _ := s.run("plan", state); code != exitOK || out != "project proj-fake: no changes\n" {
		t.Errorf("plan after apply: exit %d, stdout %q", code, out)
	}

	// A plan of a resize, then the service resized another way.
	bigger := s.file("bigger.json", strings.Replace(orders, `"cpu_millis": 1000, "memory_gbs": 4`, `"cpu_millis": 2000, "memory_gbs": 8`, 1))
	if code, out, _ := s.run("plan", bigger, "-out", s.path("resize.json")); code != exitChanges || !strings.Contains(out, "size 1000m CPU / 4 GB -> 2000m CPU / 8 GB") {
		t.Fatalf("plan of the resize: exit %d\n%s", code, out)
	}
	svc := s.srv.Services()[1]
	if _, err := s.srv.Client().Services.Resize(t.Context(), s.srv.ProjectID, svc.ServiceID, &dbcloud.ResizeRequest{CPUMillis: 4000, MemoryGBs: 16}); err != nil {
		t.Fatal(err)
	}
	mark := len(s.srv.Requests())
	code, _, errOut = s.run("apply", s.path("resize.json"))
	if code != exitStale || !strings.Contains(errOut, "the plan expected 1000m CPU / 4 GB, found 4000m CPU / 16 GB") || !strings.Contains(errOut, "plan again") {
		t.Errorf("apply of a stale plan: exit %d, stderr:\n%s", code, errOut)
	}
	if m := s.mutations(mark); len(m) != 0 {
		t.Errorf("a stale plan sent %v", m)
	}

	code, out, _ = s.run("destroy", state, "-plan")
	if code != exitChanges || strings.Count(out, "  - delete ") != 3 {
		t.Errorf("destroy -plan: exit %d\n%s", code, out)
	}
	code, out, errOut = s.run("destroy", state)
	if code != exitOK || out != "" || strings.Count(errOut, ": done in ") != 3 {
		t.Errorf("destroy: exit %d, stdout %q, stderr:\n%s", code, out, errOut)
	}
	if left := s.srv.Services(); len(left) != 0 {
		t.Errorf("%d services left", len(left))
	}
	if code, out, _ := s.run("destroy", state, "-plan"); code != exitOK || !strings.HasSuffix(out, ": no changes\n") {
		t.Errorf("destroy -plan after destroy: exit %d\n%s", code, out)
	}
	s.checkNoPassword(passwords)
}

// plan -json prints what -out writes, a plan file; destroy -out writes the
// destroy's plan (and -json prints it, as -plan does), which apply
// applies, and applies again as already done; a state can come from
// stdin.
func TestPlanFiles(t *testing.T) {
	s := newSession(t)
	state := s.file("state.json", orders)
	code, out, _ := s.run("plan", state, "-json", "-out", s.path("plan.json"))
	data, err := os.ReadFile(s.path("plan.json"))
	if code != exitChanges || err != nil || out != string(data) || !strings.Contains(out, `"format": "`+deploy.PlanFormat+`"`) {
		t.Fatalf("plan -json: exit %d, %v, stdout:\n%s\nfile:\n%s", code, err, out, data)
	}
	if code, out, _ := s.runIn(orders, "plan", "-", "-fake"); code != exitChanges || !strings.HasPrefix(out, "project proj-fake: 4 change(s)") {
		t.Errorf("plan of stdin: exit %d\n%s", code, out)
	}
	if code, _, errOut := s.run("apply", state, "-password-file", s.path("passwords")); code != exitOK {
		t.Fatalf("apply: %s", errOut)
	}

	if code, out, _ := s.run("destroy", state, "-out", s.path("destroy.json")); code != exitChanges || !strings.Contains(out, `destroy of "orders": 3 change(s)`) {
		t.Fatalf("destroy -out: exit %d\n%s", code, out)
	}
	if code, out, _ := s.run("destroy", state, "-json"); code != exitChanges || !strings.Contains(out, `"destroy": true`) || len(s.srv.Services()) != 2 {
		t.Fatalf("destroy -json: exit %d\n%s", code, out)
	}
	if code, _, errOut := s.run("apply", s.path("destroy.json")); code != exitOK || len(s.srv.Services()) != 0 {
		t.Errorf("apply of the destroy's plan: exit %d, %d services left\n%s", code, len(s.srv.Services()), errOut)
	}
	if code, _, errOut := s.run("apply", s.path("destroy.json")); code != exitOK || !strings.Contains(errOut, "3 change(s): 3 already done") {
		t.Errorf("the destroy's plan again, once all is gone: exit %d\n%s", code, errOut)
	}
	s.checkNoPassword(s.passwords("passwords"))
}

// Credentials and the project come from the environment without -fake.
func TestEnvironment(t *testing.T) {
	s := newSession(t)
	s.srv.Setenv(t)
	state := s.file("state.json", orders)
	if code, out, errOut := s.runIn("", "plan", state); code != exitChanges || !strings.HasPrefix(out, "project proj-fake: 4 change(s)") {
		t.Errorf("plan from the environment: exit %d\n%s%s", code, out, errOut)
	}
	t.Setenv("DBCLOUD_PROJECT_ID", "")
	if code, _, errOut := s.runIn("", "plan", state); code != exitError || !strings.Contains(errOut, "no project") {
		t.Errorf("no project: exit %d, stderr %q", code, errOut)
	}
	withProject := s.file("project.json", `{"project_id": "proj-fake", "services": [{"name": "orders"}]}`)
	if code, out, _ := s.runIn("", "plan", withProject); code != exitChanges || !strings.HasPrefix(out, "project proj-fake: 1 change(s)") {
		t.Errorf("the state's project: exit %d\n%s", code, out)
	}
	t.Setenv("DBCLOUD_API_KEY", "")
	if code, _, errOut := s.runIn("", "plan", state); code != exitError || !strings.Contains(errOut, "DBCLOUD_API_KEY") {
		t.Errorf("no credentials: exit %d, stderr %q", code, errOut)
	}
}

// Exit codes and messages of what goes wrong before a run, and -h.
func TestUsageAndErrors(t *testing.T) {
	s := newSession(t, dbcloudtest.WithStep(time.Minute)) // stays QUEUED: nothing moves the clock
	state := s.file("state.json", orders)
	for _, tc := range []struct {
		args []string
		code int
		want string // in stderr
	}{
		{nil, exitError, "Usage: dbcloud-deploy COMMAND"},
		{[]string{"-h"}, exitOK, "3  apply: the plan is stale"},
		{[]string{"deploy"}, exitError, `unknown command "deploy"`},
		{[]string{"plan", "-h"}, exitOK, "-out string"},
		{[]string{"apply", "-h"}, exitOK, "DBCLOUD_BASE_URL"},
		{[]string{"destroy", "-h"}, exitOK, "2  plan, destroy -plan: changes are planned"},
		{[]string{"wait", "-h"}, exitOK, "-pooler"},
		{[]string{"plan"}, exitError, "want 1 argument(s)"},
		{[]string{"plan", state, state}, exitError, "want 1 argument(s)"},
		{[]string{"plan", state, "-bogus"}, exitError, "flag provided but not defined: -bogus"},
		{[]string{"plan", s.path("none.json")}, exitError, "no such file"},
		{[]string{"plan", s.file("typo.json", "{\n  \"services\": [{\"name\": \"orders\", \"polar\": true}]\n}")}, exitError, "typo.json: line 2: services[0].polar: unknown field"},
		{[]string{"apply", s.file("noname.json", `{"services": [{}]}`)}, exitError, "noname.json: line 1: services[0].name: required, missing"},
		{[]string{"wait"}, exitError, "-service is required"},
		{[]string{"wait", "-service", "nothing"}, exitError, `no service of project proj-fake is named "nothing"`},
		{[]string{"apply", state}, exitError, `the plan creates service "orders"`},
	} {
		code, _, errOut := s.runIn("", append(tc.args, "-fake")...)
		if tc.args == nil {
			code, _, errOut = s.runIn("")
		}
		if code != tc.code || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr:\n%s\nwant exit %d with %q", tc.args, code, errOut, tc.code, tc.want)
		}
	}
	if m := s.mutations(0); len(m) != 0 {
		t.Errorf("sent %v", m)
	}

	// A run that fails: its wait times out.
	code, _, errOut := s.run("apply", state, "-password-file", s.path("passwords"), "-timeout", "300ms")
	if code != exitError || !strings.Contains(errOut, "QUEUED") || !strings.Contains(errOut, "run the same command again") {
		t.Errorf("a wait that times out: exit %d, stderr:\n%s", code, errOut)
	}

	// A plan with problems: printed, with them, and not written.
	c := s.srv.Client()
	for range 2 {
		if _, err := c.Services.Create(t.Context(), s.srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "twin"}); err != nil {
			t.Fatal(err)
		}
	}
	twin := s.file("twin.json", `{"services": [{"name": "twin"}]}`)
	code, out, errOut := s.run("plan", twin, "-out", s.path("twin-plan.json"))
	if _, err := os.Stat(s.path("twin-plan.json")); code != exitError || !strings.Contains(out, `  ! service "twin"`) || !strings.Contains(errOut, `2 services are named "twin"`) || err == nil {
		t.Errorf("twins: exit %d, stdout:\n%s\nstderr:\n%s\nfile: %v", code, out, errOut, err)
	}
	code, _, errOut = s.run("apply", twin)
	if code != exitError || !strings.Contains(errOut, `2 services are named "twin"`) || strings.Contains(errOut, "run the same command again") {
		t.Errorf("apply of twins: exit %d, stderr:\n%s", code, errOut)
	}
}

// The API refuses the key: exit 1, with the API's reason.
func TestForbidden(t *testing.T) {
	s := newSession(t)
	s.srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services", Status: 403, Body: `{"message":"key lacks access"}`})
	if code, _, errOut := s.run("plan", s.file("state.json", orders)); code != exitError || !strings.Contains(errOut, "key lacks access") {
		t.Errorf("403: exit %d, stderr %q; want 1 with the reason", code, errOut)
	}
}
