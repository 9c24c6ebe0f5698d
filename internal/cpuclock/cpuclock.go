// Package cpuclock reads the CPU time a process has used, for benchmarks
// that report CPU per call beside wall time: on a machine shared with
// other work, a process's own CPU time per call moves far less than its
// wall time, and the CPU one call costs (client and server, when both run
// in the process) is what bounds the calls per second of a saturated one.
package cpuclock

import "time"

// Start is the process's CPU time when a measurement began.
type Start struct {
	at time.Duration
	ok bool
}

// Now starts a measurement.
func Now() Start {
	at, ok := processCPU()
	return Start{at, ok}
}

// PerCall returns the CPU time used since s, in microseconds per call, or
// false where the platform does not tell.
func (s Start) PerCall(calls int) (float64, bool) {
	now, ok := processCPU()
	if !ok || !s.ok || calls == 0 {
		return 0, false
	}
	return float64((now - s.at).Microseconds()) / float64(calls), true
}
