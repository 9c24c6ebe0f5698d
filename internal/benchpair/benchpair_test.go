package benchpair

import (
	"context"
	"hash/crc32"
	"testing"
)

// TestRunReportsTheRatioOfTheTwoSides pairs a call with one that does the
// same work twice: the ratio Run reports is near 2 however fast the
// machine runs, and each side's time is reported under its name.
func TestRunReportsTheRatioOfTheTwoSides(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a benchmark for about a second")
	}
	buf := make([]byte, 64<<10)
	var sink uint32
	work := func(times int) func(context.Context) error {
		return func(context.Context) error {
			for range times {
				sink += crc32.ChecksumIEEE(buf)
			}
			return nil
		}
	}
	r := testing.Benchmark(func(b *testing.B) {
		Run(b, Call{Name: "twice", Do: work(2)}, Call{Name: "once", Do: work(1)})
	})
	if r.N == 0 {
		t.Fatal("the benchmark did not run")
	}
	ratio := r.Extra["twice/once"]
	if ratio < 1.4 || ratio > 2.8 {
		t.Errorf("twice/once = %.2f, want about 2 (all metrics: %v)", ratio, r.Extra)
	}
	if r.Extra["twice-us/op"] <= r.Extra["once-us/op"] || r.Extra["once-us/op"] <= 0 {
		t.Errorf("per-side times %v: want twice > once > 0", r.Extra)
	}
	_ = sink
}
