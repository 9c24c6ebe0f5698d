// Package goroutines finds the goroutines a test leaves running. It is
// what dbcloudtest's CheckGoroutines and GoroutinesLeft do, below the
// packages whose own tests use it too.
package goroutines

import (
	"bytes"
	"context"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// settle is how long goroutines get to finish after a test: closing a
// server or a connection ends its goroutines soon, not at once, and there is
// no event to wait on.
const settle = 3 * time.Second

// label is the pprof label Check puts on a test's goroutine. A goroutine
// inherits the labels of the goroutine that starts it, so the label marks
// every goroutine the test started, and every one those started, and none
// of a test running beside it: the count is the test's own, which a count
// of all goroutines (runtime.NumGoroutine) is not once tests run in
// parallel.
const label = "dbcloudtest.CheckGoroutines"

// checks numbers the calls of Check, so that each test's label is its own.
var checks atomic.Uint64

// Check fails t if, when t ends, goroutines that t's goroutine started are
// still running, as dbcloudtest.CheckGoroutines documents.
func Check(t testing.TB) {
	t.Helper()
	id := strconv.FormatUint(checks.Add(1), 10)
	pprof.SetGoroutineLabels(pprof.WithLabels(context.Background(), pprof.Labels(label, id)))
	t.Cleanup(func() {
		// The cleanup runs on the test's goroutine, which carries the
		// label and is not a leak.
		pprof.SetGoroutineLabels(context.Background())
		if settled(func() int { n, _ := labelled(id); return n }) > 0 {
			n, stacks := labelled(id)
			t.Errorf("%d goroutines the test started are left running:\n%s", n, stacks)
		}
	})
}

// settled calls count until it returns 0 or less, for up to settle, and
// returns its last answer.
func settled(count func() int) int {
	deadline := time.Now().Add(settle)
	for {
		if n := count(); n <= 0 || time.Now().After(deadline) {
			return max(n, 0)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// labelled counts the goroutines that carry the label value id, from the
// goroutine profile at debug level 1: after a line with the total, its
// records are groups of goroutines with the same stack and labels, each
// opening with "<count> @ <pcs>", followed by a "# labels: {...}" line when
// they have labels, and ending with a blank line.
func labelled(id string) (n int, stacks []byte) {
	var profile bytes.Buffer
	if err := pprof.Lookup("goroutine").WriteTo(&profile, 1); err != nil {
		panic(err) // a bytes.Buffer does not fail
	}
	_, records, _ := bytes.Cut(profile.Bytes(), []byte("\n"))
	mark := []byte(`"` + label + `":"` + id + `"`)
	var out bytes.Buffer
	for record := range bytes.SplitSeq(records, []byte("\n\n")) {
		head, rest, _ := bytes.Cut(record, []byte("\n"))
		if !bytes.HasPrefix(rest, []byte("# labels: ")) || !bytes.Contains(firstLine(rest), mark) {
			continue
		}
		count, _, _ := bytes.Cut(head, []byte(" @ "))
		k, err := strconv.Atoi(string(count))
		if err != nil {
			k = 1 // a group whose count this cannot read still holds one
		}
		n += k
		out.Write(record)
		out.WriteString("\n\n")
	}
	return n, out.Bytes()
}

// firstLine is b up to its first newline.
func firstLine(b []byte) []byte {
	line, _, _ := bytes.Cut(b, []byte("\n"))
	return line
}

// Left waits, for up to a few seconds, until no more than before
// goroutines run, and returns how many more are left and, when some are,
// the stacks of all goroutines, as dbcloudtest.GoroutinesLeft documents.
func Left(before int) (n int, stacks []byte) {
	if n = settled(func() int { return runtime.NumGoroutine() - before }); n == 0 {
		return 0, nil
	}
	buf := make([]byte, 1<<20)
	return n, buf[:runtime.Stack(buf, true)]
}
