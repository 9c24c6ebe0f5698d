// The tests of this package run in parallel (t.Parallel), but for those
// that measure the process (its live heap, the connections it opens, how
// late its timers fire) or set its environment (t.Setenv): those run first,
// one at a time, before any parallel test starts. A test that leaves a
// goroutine running is found in parallel too, since
// dbcloudtest.CheckGoroutines counts only the test's own.
package dbcloud_test

import "os"

// measuring is set by DBCLOUD_MEASURE=1, as CI's measurement step sets it
// (without -race, on a quiet machine): the measurements then run at the
// scale their figures are stated for (a million log entries, 500 waits),
// and the tests judge the wall-clock figures they measure, which hold only
// on an idle machine. Without it each runs a small form that fails on the
// same bug in a fraction of the time.
var measuring = os.Getenv("DBCLOUD_MEASURE") != ""

// atScale is small, or full when measuring.
func atScale(small, full int) int {
	if measuring {
		return full
	}
	return small
}
