package benchpair

import (
	"context"
	"errors"
	"hash/crc32"
	"os"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// runners are the two ways to pair: Run, and RunParallel with one
// goroutine per GOMAXPROCS.
var runners = map[string]func(*testing.B, Call, Call){
	"Run":         Run,
	"RunParallel": func(b *testing.B, x, y Call) { RunParallel(b, 1, x, y) },
}

// TestRunReportsTheRatioOfTheTwoSides pairs a call that takes 2 ms with one
// that takes 1 ms, on testing/synctest's clock, where they take exactly
// that however loaded the machine: each side's time per call is reported
// under its name, and the ratio is 2, with Run and with RunParallel. Run's
// calls alternate which goes first.
func TestRunReportsTheRatioOfTheTwoSides(t *testing.T) {
	for name, run := range runners {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				var mu sync.Mutex
				var order strings.Builder // the calls of one run of the benchmark
				call := func(name string, d time.Duration) Call {
					return Call{Name: name, Do: func(context.Context) error {
						mu.Lock()
						order.WriteString(name)
						mu.Unlock()
						time.Sleep(d)
						return nil
					}}
				}
				var disorder []string
				r := testing.Benchmark(func(b *testing.B) {
					order.Reset()
					run(b, call("x", 2*time.Millisecond), call("y", time.Millisecond))
					// Once each outside the timing, then a pair per
					// iteration, x first, then y first, and so on.
					want := "xy" + strings.Repeat("xyyx", b.N/2) + strings.Repeat("xy", b.N%2)
					if name == "Run" && order.String() != want {
						disorder = append(disorder, order.String())
					}
				})
				if r.N == 0 {
					t.Fatal("the benchmark did not run")
				}
				if r.Extra["x/y"] != 2 || r.Extra["x-us/op"] != 2000 || r.Extra["y-us/op"] != 1000 {
					t.Errorf("metrics %v: want x/y 2, x-us/op 2000, y-us/op 1000", r.Extra)
				}
				for _, o := range disorder {
					t.Errorf("calls in the order %.40q..., want xy, then xy, yx, xy, ...", o)
				}
			})
		})
	}
}

// TestRunFailsOnAnError: a side's error ends the benchmark, named.
func TestRunFailsOnAnError(t *testing.T) {
	for name, run := range runners {
		t.Run(name, func(t *testing.T) {
			ok := Call{Name: "ok", Do: func(context.Context) error { return nil }}
			broken := Call{Name: "broken", Do: func(context.Context) error { return errors.New("boom") }}
			r := testing.Benchmark(func(b *testing.B) { run(b, ok, broken) })
			if r.N != 0 {
				t.Errorf("the benchmark ran %d times, want it to fail", r.N)
			}
		})
	}
}

// TestRunMeasuresTheRatioOfRealWork pairs a call with one that does the
// same work twice, on the machine's own clock: the ratio is near 2. A
// wall-clock judgement, made only when asked (DBCLOUD_MEASURE=1, on an
// idle machine): on a loaded 2-core runner other work falls on one side
// of a pair more than on the other, and the ratio says nothing of the
// code.
func TestRunMeasuresTheRatioOfRealWork(t *testing.T) {
	if os.Getenv("DBCLOUD_MEASURE") == "" {
		t.Skip("a wall-clock measurement: DBCLOUD_MEASURE=1 runs it")
	}
	for name, run := range runners {
		t.Run(name, func(t *testing.T) {
			r := testing.Benchmark(func(b *testing.B) {
				run(b, Call{Name: "twice", Do: work(2)}, Call{Name: "once", Do: work(1)})
			})
			if ratio := r.Extra["twice/once"]; ratio < 1.4 || ratio > 2.8 {
				t.Errorf("twice/once = %.2f, want about 2 (all metrics: %v)", ratio, r.Extra)
			}
		})
	}
}

// work returns a call that checksums 64 KiB times times.
func work(times int) func(context.Context) error {
	buf := make([]byte, 64<<10)
	return func(context.Context) error {
		var sum uint32 // per call: RunParallel calls it from many goroutines
		for range times {
			sum += crc32.ChecksumIEEE(buf)
		}
		if sum == 1 { // keeps the checksums from being optimised away
			return errors.New("unlikely")
		}
		return nil
	}
}
