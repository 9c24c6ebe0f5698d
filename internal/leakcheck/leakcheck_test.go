package leakcheck

import (
	"bytes"
	"runtime"
	"testing"
)

// TestLeft: no goroutine left is 0 and no stacks; one left is counted once,
// with the stacks that show it.
func TestLeft(t *testing.T) {
	before := runtime.NumGoroutine()
	if n, stacks := Left(before); n != 0 || stacks != nil {
		t.Errorf("nothing started: Left = %d, %d bytes of stacks; want 0, none", n, len(stacks))
	}

	release := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		blockedUntil(release)
	}()
	n, stacks := Left(before)
	close(release)
	<-done
	if n != 1 || !bytes.Contains(stacks, []byte("leakcheck.blockedUntil")) {
		t.Errorf("one goroutine left: Left = %d, stacks:\n%s\nwant 1 and its stack", n, stacks)
	}
}

//go:noinline
func blockedUntil(c chan struct{}) { <-c }
