//go:build !unix

package dbcloudtest_test

import "time"

// processCPU is not measured here: the benchmarks report no CPU time.
func processCPU() (time.Duration, bool) { return 0, false }
