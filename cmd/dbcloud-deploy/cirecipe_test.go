package main

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// asCommand, in the environment, makes the test binary the command: the
// CI recipe's shell runs it as dbcloud-deploy.
const asCommand = "DBCLOUD_DEPLOY_TEST_AS_COMMAND"

// TestMain runs main instead of the tests when asCommand is set, so that
// the test binary, which holds the command whole, serves as the command
// that TestCIRecipe would otherwise build (a second of linking).
func TestMain(m *testing.M) {
	if os.Getenv(asCommand) == "1" {
		main()
	}
	os.Exit(m.Run())
}

// The CI recipe of docs/ci.md, run as CI runs it: its state file, its pull
// request's job and its merge's job, each a shell of its own running the
// command (the test binary, as TestMain says), against one test server. So
// the plan is made in one process and applied in another, as reviewed.
func TestCIRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the shell of docs/ci.md")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash: ", err)
	}
	guide, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{}
	for _, m := range regexp.MustCompile("(?ms)^```(json|sh)\n(.*?)^```").FindAllStringSubmatch(string(guide), -1) {
		switch {
		case m[1] == "json":
			blocks["state"] = m[2]
		case strings.Contains(m[2], "dbcloud-deploy plan"):
			blocks["pull request"] = m[2]
		case strings.Contains(m[2], "dbcloud-deploy apply"):
			blocks["merge"] = m[2]
		}
	}
	if len(blocks) != 3 {
		t.Fatalf("the CI recipe of docs/ci.md: found %v, want its state, its pull request's job and its merge's", slices.Collect(maps.Keys(blocks)))
	}

	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir, bin := t.TempDir(), t.TempDir()
	if err := os.Symlink(self, filepath.Join(bin, "dbcloud-deploy")); err != nil {
		t.Fatal(err)
	}
	dbcloudtest.CheckGoroutines(t)
	srv := dbcloudtest.NewServer()
	t.Cleanup(srv.Close)
	srv.Setenv(t)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("RUNNER_TEMP", t.TempDir())
	t.Setenv(asCommand, "1")
	// Under -race, the command does not wait a second at its exit (the
	// race runtime's atexit_sleep_ms): a race it finds is reported when
	// found, and fails the job with exit code 66.
	t.Setenv("GORACE", os.Getenv("GORACE")+" atexit_sleep_ms=0")
	if err := os.WriteFile(filepath.Join(dir, "state.json"), []byte(blocks["state"]), 0o644); err != nil {
		t.Fatal(err)
	}
	job := func(name string) string {
		t.Helper()
		cmd := exec.Command(bash, "-eo", "pipefail", "-c", blocks[name])
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the %s's job: %v\n%s", name, err, out)
		}
		return string(out)
	}

	if out := job("pull request"); out != "changes planned\n" {
		t.Errorf("the pull request's job printed %q", out)
	}
	plan, err := os.ReadFile(filepath.Join(dir, "plan.txt"))
	if err != nil || !strings.Contains(string(plan), `+ create service "orders"`) {
		t.Fatalf("plan.txt: %v\n%s", err, plan)
	}
	out := job("merge")
	if len(srv.Services()) != 2 || !regexp.MustCompile(`(?m)^127\.0\.0\.1:\d+$`).MatchString(out) {
		t.Errorf("after the merge's job, %d services; its output:\n%s", len(srv.Services()), out)
	}
	passwords, err := os.ReadFile(filepath.Join(os.Getenv("RUNNER_TEMP"), "passwords"))
	if err != nil || strings.Count(string(passwords), "\n") != 2 { // the fleet's two services'

		t.Errorf("passwords: %v, %d lines", err, strings.Count(string(passwords), "\n"))
	}
	if out := job("pull request"); out != "no changes\n" {
		t.Errorf("the pull request's job after the merge printed %q", out)
	}
}
