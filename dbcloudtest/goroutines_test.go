package dbcloudtest_test

import (
	"os"
	"os/exec"
	"testing"

	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// aloneEnv is set in the process that TestCheckGoroutines runs itself in.
const aloneEnv = "DBCLOUDTEST_CHECKGOROUTINES_ALONE"

// leakyT records what CheckGoroutines reports instead of failing the test.
type leakyT struct {
	testing.TB
	cleanups []func()
	failed   bool
}

func (l *leakyT) Cleanup(f func())      { l.cleanups = append(l.cleanups, f) }
func (l *leakyT) Errorf(string, ...any) { l.failed = true }
func (l *leakyT) Helper()               {}

// TestCheckGoroutines: a goroutine still running when the test ends is
// reported; one that ended is not. It runs in a process of its own: there,
// no goroutine of an earlier test (a closed client's connection, say) can
// end during the check and hide the leak from the count.
func TestCheckGoroutines(t *testing.T) {
	if os.Getenv(aloneEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCheckGoroutines$", "-test.count=1")
		cmd.Env = append(os.Environ(), aloneEnv+"=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v:\n%s", err, out)
		}
		return
	}
	for _, leak := range []bool{false, true} {
		l := &leakyT{TB: t}
		dbcloudtest.CheckGoroutines(l)
		release, done := make(chan struct{}), make(chan struct{})
		go func() { defer close(done); <-release }()
		if !leak {
			close(release)
			<-done
		}
		for _, f := range l.cleanups {
			f()
		}
		if leak {
			close(release)
			<-done
		}
		if l.failed != leak {
			t.Errorf("goroutine left running %v: reported %v", leak, l.failed)
		}
	}
}
