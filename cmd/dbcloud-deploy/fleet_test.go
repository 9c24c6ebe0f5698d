package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// A fleet of three services, each with a replica set, the first with a
// fork of it.
const fleetFile = `{
  "services": [
    {"name": "orders", "pooler": true,
     "replica_sets": [{"name": "read", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}],
     "forks": [{"name": "orders-copy", "strategy": "NOW"}]},
    {"name": "billing", "pooler": true,
     "replica_sets": [{"name": "read", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}]},
    {"name": "search", "pooler": true,
     "replica_sets": [{"name": "read", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}]}
  ]
}`

// The command on a fleet file: plan (exit 2, every service's changes, a
// set named with its service), apply with -parallelism (exit 0, a line per
// step naming its service, every password in the file), apply again (exit
// 0, nothing done); one service failing (exit 1, the others done, the
// error naming it), then a re-run finishing it; destroy (exit 0, nothing
// left). No password in any output.
func TestFleetPlanApplyDestroy(t *testing.T) {
	s := newSession(t)
	state := s.file("fleet.json", fleetFile)
	code, out, _ := s.run("plan", state)
	if code != exitChanges || strings.Count(out, "  + create service ") != 3 || !strings.Contains(out, `+ create replica set "read" of "billing"`) ||
		!strings.Contains(out, `+ create fork "orders-copy" of "orders"`) {
		t.Fatalf("plan: exit %d\n%s", code, out)
	}

	// search's create refused, once.
	s.srv.InjectFault(dbcloudtest.Fault{Method: http.MethodPost, Path: "/projects/*/services", Status: http.StatusBadRequest, Body: `{"code":"BAD_REQUEST","message":"no"}`})
	code, _, errOut := s.run("apply", state, "-parallelism", "1", "-password-file", s.path("passwords"))
	if code != exitError || !strings.Contains(errOut, `create service "orders"`) || !strings.Contains(errOut, "run the same command again") {
		t.Fatalf("apply with a refused create: exit %d\n%s", code, errOut)
	}
	for _, line := range []string{`+ create replica set "read" of "billing" (`, `+ create replica set "read" of "search" (`} {
		if !strings.Contains(errOut, line) {
			t.Errorf("apply: no line %q; stderr:\n%s", line, errOut)
		}
	}
	code, _, errOut = s.run("apply", state, "-password-file", s.path("passwords"))
	if code != exitOK || !strings.Contains(errOut, `+ create service "orders" (`) || !strings.Contains(errOut, `+ create fork "orders-copy" of "orders" (`) {
		t.Fatalf("the re-run: exit %d\n%s", code, errOut)
	}
	if n := len(s.srv.Services()); n != 4 {
		t.Errorf("%d services, want 3 and a fork", n)
	}
	passwords := s.passwords("passwords")
	if len(passwords) != 4 {
		t.Errorf("passwords of %v, want the 3 services' and the fork's", passwords)
	}
	if code, out, _ := s.run("plan", state); code != exitOK || out != "project proj-fake: no changes\n" {
		t.Errorf("plan after apply: exit %d\n%s", code, out)
	}

	code, out, _ = s.run("destroy", state, "-plan")
	if code != exitChanges || strings.Count(out, "  - delete ") != 7 {
		t.Errorf("destroy -plan: exit %d\n%s", code, out)
	}
	code, _, errOut = s.run("destroy", state, "-parallelism", "3")
	if code != exitOK || strings.Count(errOut, ": done in ") != 7 || len(s.srv.Services()) != 0 {
		t.Errorf("destroy: exit %d, %d services left\n%s", code, len(s.srv.Services()), errOut)
	}
	s.checkNoPassword(passwords)
}
