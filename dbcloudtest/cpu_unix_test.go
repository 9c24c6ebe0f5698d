//go:build unix

package dbcloudtest_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used, user and system,
// on every thread: client and server both run in it, so the CPU cost of a
// call counts both sides.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
