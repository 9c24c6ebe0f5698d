// Package leakcheck fails a test that leaves goroutines behind.
package leakcheck

import (
	"runtime"
	"testing"
	"time"
)

// settle is how long goroutines get to finish after the test: closing a
// server or a connection ends its goroutines soon, not at once, and there is
// no event to wait on.
const settle = 3 * time.Second

// Check records the goroutines running now and, when the test ends (after
// the cleanups registered later, which run first), fails it if more remain.
// It counts every goroutine of the process, so it suits tests that do not
// run in parallel with others.
func Check(t testing.TB) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		if n, stacks := Left(before); n > 0 {
			t.Errorf("%d goroutines left behind (%d before the test):\n%s", n, before, stacks)
		}
	})
}

// Left waits, for up to a few seconds, until no more than before goroutines
// run, and returns how many more are left (0 when none) and, when some are,
// the stacks of all goroutines, taken right after that count.
// It serves harnesses that report a leak rather than fail a test with it.
func Left(before int) (n int, stacks []byte) {
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
