//go:build !unix

package cpuclock

import "time"

// processCPU is not measured here: benchmarks report no CPU time.
func processCPU() (time.Duration, bool) { return 0, false }
