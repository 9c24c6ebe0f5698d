package dbcloudtest_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// aloneEnv is set in the process that runAlone starts.
const aloneEnv = "DBCLOUDTEST_CHECKGOROUTINES_ALONE"

// leakyT records what CheckGoroutines reports instead of failing the test.
type leakyT struct {
	testing.TB
	cleanups []func()
	failed   bool
	message  string
}

func (l *leakyT) Cleanup(f func()) { l.cleanups = append(l.cleanups, f) }
func (l *leakyT) Errorf(format string, args ...any) {
	l.failed, l.message = true, fmt.Sprintf(format, args...)
}
func (l *leakyT) Helper() {}

// runAlone runs the test that calls it again in a process of its own and
// reports whether this is that process, where the test goes on. There no
// goroutine of an earlier test (a closed client's connection, say) can end
// during a count and hide a leak from it. In the first process it fails t
// when the second fails, and the test returns.
func runAlone(t *testing.T) bool {
	if os.Getenv(aloneEnv) != "" {
		return true
	}
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	// Under -race the runtime sleeps a second at exit, for nothing here.
	cmd.Env = append(os.Environ(), aloneEnv+"=1", "GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()+" ") {
		t.Fatalf("the test did not run in its own process:\n%s", out) // an exit 0 that ran nothing
	}
	return false
}

// TestCheckGoroutines: a goroutine the test started and left running is
// reported, with its stack; one that ended is not, and neither is one that
// a goroutine the test did not start (another test's, say) started during
// the test and left running.
//
// On a synctest bubble's clock: the few seconds a leak is waited for pass
// at once.
func TestCheckGoroutines(t *testing.T) {
	t.Parallel() // the check counts only the test's own goroutines
	synctest.Test(t, checkGoroutines)
}

func checkGoroutines(t *testing.T) {
	// neighbour stands for another test's goroutine: started before the
	// check, it starts a goroutine during it when asked.
	start, neighbourDone := make(chan chan struct{}), make(chan struct{})
	go func() {
		defer close(neighbourDone)
		for release := range start {
			go blockedUntil(release)
		}
	}()
	defer func() { close(start); <-neighbourDone }()

	for _, c := range []struct {
		name              string
		own, ended, other bool
		reported          bool
	}{
		{name: "own goroutine ended", own: true, ended: true},
		{name: "own goroutine left", own: true, reported: true},
		{name: "another's goroutine left", other: true},
	} {
		l := &leakyT{TB: t}
		dbcloudtest.CheckGoroutines(l)
		release, done := make(chan struct{}), make(chan struct{})
		if c.own {
			go func() { defer close(done); blockedUntil(release) }()
		}
		if c.other {
			start <- release
		}
		if c.ended {
			close(release)
			<-done
		}
		for _, f := range l.cleanups {
			f()
		}
		if !c.ended {
			close(release)
		}
		if l.failed != c.reported {
			t.Errorf("%s: reported %v, want %v: %s", c.name, l.failed, c.reported, l.message)
		}
		if c.reported && !strings.Contains(l.message, "1 goroutines") || c.reported && !strings.Contains(l.message, "blockedUntil") {
			t.Errorf("%s: the report does not count the goroutine and show its stack:\n%s", c.name, l.message)
		}
	}
}

// TestGoroutinesLeft: no goroutine left is 0 and no stacks; one left is
// counted once, with the stacks that show it.
// On a synctest bubble's clock, as TestCheckGoroutines.
func TestGoroutinesLeft(t *testing.T) {
	if !runAlone(t) {
		return
	}
	synctest.Test(t, goroutinesLeft)
}

func goroutinesLeft(t *testing.T) {
	before := runtime.NumGoroutine()
	if n, stacks := dbcloudtest.GoroutinesLeft(before); n != 0 || stacks != nil {
		t.Errorf("nothing started: GoroutinesLeft = %d, %d bytes of stacks; want 0, none", n, len(stacks))
	}

	release := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		blockedUntil(release)
	}()
	n, stacks := dbcloudtest.GoroutinesLeft(before)
	close(release)
	<-done
	if n != 1 || !bytes.Contains(stacks, []byte("dbcloudtest_test.blockedUntil")) {
		t.Errorf("one goroutine left: GoroutinesLeft = %d, stacks:\n%s\nwant 1 and its stack", n, stacks)
	}
}

//go:noinline
func blockedUntil(c chan struct{}) { <-c }
