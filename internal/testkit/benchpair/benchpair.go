// Package benchpair measures two ways of making one call against each
// other inside a single benchmark. Two benchmarks run one after the other
// see the machine at different moments: on the 2-core development machine,
// a benchmark's time varies by 10 to 15% from one run to the next, more
// than most of the differences the SDK's benchmarks look for. Calling the
// two in turn puts a slow or a fast moment on both calls of a pair, so
// their ratio holds steady where their separate times do not.
package benchpair

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

// Call is one side of a pair: its name, which names its metrics, and the
// call.
type Call struct {
	Name string
	Do   func(context.Context) error
}

// Run calls x and y once each outside the timing (which opens their
// connections and fails the benchmark on an error), then once each per
// iteration of b's loop, which of them goes first alternating. It reports
// each side's time per call (x.Name+"-us/op", y.Name+"-us/op") and the
// ratio of x's time to y's (x.Name+"/"+y.Name).
func Run(b *testing.B, x, y Call) {
	calls := warm(b, x, y)
	ctx := b.Context()
	var spent [2]time.Duration
	first := 0
	for b.Loop() {
		if err := pair(ctx, calls, &first, &spent); err != nil {
			b.Fatal(err)
		}
	}
	report(b, calls, spent)
}

// RunParallel is Run on b.RunParallel, with parallelism goroutines per
// GOMAXPROCS (b.SetParallelism): each goroutine calls x and y in turn, so
// the two meet the same contention. Each side's time per call is its mean
// latency under that load.
func RunParallel(b *testing.B, parallelism int, x, y Call) {
	calls := warm(b, x, y)
	ctx := b.Context()
	var total [2]atomic.Int64
	b.SetParallelism(parallelism)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		var spent [2]time.Duration
		first := 0
		for pb.Next() {
			if err := pair(ctx, calls, &first, &spent); err != nil {
				b.Error(err)
				return
			}
		}
		for i := range spent {
			total[i].Add(int64(spent[i]))
		}
	})
	report(b, calls, [2]time.Duration{time.Duration(total[0].Load()), time.Duration(total[1].Load())})
}

// pair makes one call of each side, *first's first, adds each call's time
// to its side's spent, and makes the other side first next time.
func pair(ctx context.Context, calls [2]Call, first *int, spent *[2]time.Duration) error {
	for j := range calls {
		side := (*first + j) % 2
		start := time.Now()
		if err := calls[side].Do(ctx); err != nil {
			return fmt.Errorf("%s: %w", calls[side].Name, err)
		}
		spent[side] += time.Since(start)
	}
	*first = 1 - *first
	return nil
}

// warm calls x and y once each outside the timing, which opens their
// connections, and fails the benchmark on an error.
func warm(b *testing.B, x, y Call) [2]Call {
	calls := [2]Call{x, y}
	for _, c := range calls {
		if err := c.Do(b.Context()); err != nil {
			b.Fatalf("%s: %v", c.Name, err)
		}
	}
	return calls
}

// report reports each side's time per call and the ratio of the first's
// to the second's, from the time each spent over b.N calls.
func report(b *testing.B, calls [2]Call, spent [2]time.Duration) {
	for i, c := range calls {
		b.ReportMetric(float64(spent[i].Nanoseconds())/1e3/float64(b.N), c.Name+"-us/op")
	}
	b.ReportMetric(float64(spent[0])/float64(spent[1]), calls[0].Name+"/"+calls[1].Name)
}
