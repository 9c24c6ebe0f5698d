// Package goroutines finds the goroutines a test leaves running. It is
// what dbcloudtest's CheckGoroutines and GoroutinesLeft do, below the
// packages whose own tests use it too.
package goroutines

import (
	"runtime"
	"testing"
	"time"
)

// settle is how long goroutines get to finish after a test: closing a
// server or a connection ends its goroutines soon, not at once, and there is
// no event to wait on.
const settle = 3 * time.Second

// Check fails t if, when t ends, more goroutines run than when Check was
// called, as dbcloudtest.CheckGoroutines documents.
func Check(t testing.TB) {
	t.Helper()
	before := runtime.NumGoroutine()
	t.Cleanup(func() {
		if n, stacks := Left(before); n > 0 {
			t.Errorf("%d goroutines left behind (%d before the test):\n%s", n, before, stacks)
		}
	})
}

// Left waits, for up to a few seconds, until no more than before
// goroutines run, and returns how many more are left and, when some are,
// the stacks of all goroutines, as dbcloudtest.GoroutinesLeft documents.
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
