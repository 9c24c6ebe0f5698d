package dbcloudtest_test

import (
	"testing"

	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

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
// reported; one that ended is not.
func TestCheckGoroutines(t *testing.T) {
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
