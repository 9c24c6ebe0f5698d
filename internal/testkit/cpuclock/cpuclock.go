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

// Metrics is what a benchmark reports to: *testing.B.
type Metrics interface{ ReportMetric(n float64, unit string) }

// Report reports to b the CPU time used since s, in microseconds per call
// for calls calls, under unit; nothing where the platform does not tell.
func (s Start) Report(b Metrics, calls int, unit string) {
	now, ok := processCPU()
	if !ok || !s.ok || calls == 0 {
		return
	}
	b.ReportMetric(float64((now-s.at).Microseconds())/float64(calls), unit)
}
