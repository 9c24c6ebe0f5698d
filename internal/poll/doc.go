// Package poll runs the polling loops of waits: one loop per scope (the
// resources one read returns), shared by every wait on that scope, which
// reads when the earliest wait is due and hands the read to each.
//
// It owns the schedule (each wait's delays and jitter, the gap between
// reads, Retry-After holding every wait), which read to send (one resource
// for a lone wait, the whole scope for several), the contexts the reads run
// under, and the Registry that lets the waits of one client find their
// scope's loop. It keeps no state outside a Registry.
//
// It must not know what it reads: the resources are of any type T, read by
// the Reader a Poller is given; what a read's status means to a wait,
// and every public rule of waiting, belong to the root package (its
// "Polling" documentation states the rules for users).
package poll
