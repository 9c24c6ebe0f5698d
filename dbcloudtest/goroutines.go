package dbcloudtest

import (
	"testing"

	"github.com/dbcloud/dbcloud-go/internal/leakcheck"
)

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
	leakcheck.Check(t)
}
