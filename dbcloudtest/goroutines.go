package dbcloudtest

import (
	"runtime"
	"testing"
	"time"
)

// settle is how long goroutines get to finish after a test: closing a
// server or a connection ends its goroutines soon, not at once, and there is
// no event to wait on.
const settle = 3 * time.Second

// CheckGoroutines fails t if, when t ends, more goroutines run than when
// CheckGoroutines was called: a wait, a log follower or a probe that your
// code started against the fake and never stopped.
//
// Call it first in the test, before starting the Server, so that it checks
// after the Server and every cleanup registered later have run. Goroutines
// get a few seconds to finish, since closing a connection ends its
// goroutines soon rather than at once. It counts every goroutine of the
// process, so it suits tests that do not run in parallel with others.
func CheckGoroutines(t testing.TB) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		if n, stacks := GoroutinesLeft(before); n > 0 {
			t.Errorf("%d goroutines left behind (%d before the test):\n%s", n, before, stacks)
		}
	})
}

// GoroutinesLeft waits, for up to a few seconds, until no more than before
// goroutines run (a runtime.NumGoroutine taken earlier), and returns how
// many more are left (0 when none) and, when some are, the stacks of all
// goroutines, taken right after that count. It serves harnesses that report
// a leak rather than fail a test with it, such as a soak's summary.
func GoroutinesLeft(before int) (n int, stacks []byte) {
	deadline := time.Now().Add(settle)
	for {
		n = runtime.NumGoroutine() - before
		if n <= 0 {
			return 0, nil
		}
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			return n, buf[:runtime.Stack(buf, true)]
		}
		time.Sleep(5 * time.Millisecond)
	}
}
