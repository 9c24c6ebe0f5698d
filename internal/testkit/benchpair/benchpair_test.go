package benchpair

import (
	"context"
	"errors"
	"hash/crc32"
	"testing"
)

// TestRunReportsTheRatioOfTheTwoSides pairs a call with one that does the
// same work twice, with Run and with RunParallel: the ratio reported is
// near 2 however fast the machine runs, and each side's time is reported
// under its name.
func TestRunReportsTheRatioOfTheTwoSides(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two benchmarks for about a second each")
	}
	for name, run := range map[string]func(*testing.B, Call, Call){
		"Run":         Run,
		"RunParallel": func(b *testing.B, x, y Call) { RunParallel(b, 1, x, y) },
	} {
		t.Run(name, func(t *testing.T) {
			twice, once := work(2), work(1)
			r := testing.Benchmark(func(b *testing.B) {
				run(b, Call{Name: "twice", Do: twice}, Call{Name: "once", Do: once})
			})
			if r.N == 0 {
				t.Fatal("the benchmark did not run")
			}
			if ratio := r.Extra["twice/once"]; ratio < 1.4 || ratio > 2.8 {
				t.Errorf("twice/once = %.2f, want about 2 (all metrics: %v)", ratio, r.Extra)
			}
			if r.Extra["twice-us/op"] <= r.Extra["once-us/op"] || r.Extra["once-us/op"] <= 0 {
				t.Errorf("per-side times %v: want twice > once > 0", r.Extra)
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
