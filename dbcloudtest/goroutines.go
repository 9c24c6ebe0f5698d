package dbcloudtest

import (
	"testing"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/goroutines"
)

// CheckGoroutines fails t if, when t ends, goroutines that t started are
// still running: a wait, a log follower or a probe that your code started
// against the fake and never stopped.
//
// Call it first in the test, before starting the Server, so that it checks
// after the Server and every cleanup registered later have run. Goroutines
// get a few seconds to finish, since closing a connection ends its
// goroutines soon rather than at once.
//
// It counts only the test's own goroutines, so it works in tests that run
// in parallel (t.Parallel): it sets a runtime/pprof label on the test's
// goroutine, which every goroutine started from it inherits, as do the ones
// those start. It replaces any pprof labels the test's goroutine had, and
// it cannot see a goroutine that a time.AfterFunc callback starts, since
// those carry no labels.
func CheckGoroutines(t testing.TB) {
	t.Helper()
	goroutines.Check(t)
}

// GoroutinesLeft waits, for up to a few seconds, until no more than before
// goroutines run (a runtime.NumGoroutine taken earlier), and returns how
// many more are left (0 when none) and, when some are, the stacks of all
// goroutines, taken right after that count. It serves harnesses that report
// a leak rather than fail a test with it, such as a soak's summary.
func GoroutinesLeft(before int) (n int, stacks []byte) { return goroutines.Left(before) }
