package logstore

import (
	"math/rand/v2"
	"time"
)

// The lines a service writes by itself. Each takes the generator it draws
// from, the model's, so that a server's seed fixes every line it writes.

// Extension is the extension a new service's startup announces, by its type.
type Extension uint8

const (
	NoExtension Extension = iota // a plain PostgreSQL service
	Timescale                    // a time-series service
	Vector                       // an AI (vector) service
)

// maxStartupReplicaLines bounds the per-replica startup lines of a service
// with many HA replicas.
const maxStartupReplicaLines = 16

// WriteStartup writes what a new PostgreSQL service logs while it comes
// up, ending at now, with one entry of every severity so that filters have
// something to find without Seed.
func (st *Store) WriteStartup(now time.Time, rng *rand.Rand, ext Extension, replicas int) {
	var recs []rec
	add := func(tmpl uint16, node int) {
		recs = append(recs, rec{arg: rng.Uint32(), tmpl: tmpl, node: int32(node), sev: templates[tmpl].sev})
	}
	for _, t := range []uint16{tmplStarting, tmplListen4, tmplListen6, tmplSocket, tmplSystemReady} {
		add(t, 0)
	}
	switch ext {
	case Timescale:
		add(tmplTimescale, 0)
	case Vector:
		add(tmplVector, 0)
	}
	for n := 1; n <= min(replicas, maxStartupReplicaLines); n++ {
		add(tmplStandby, n)
		add(tmplStreaming, n)
	}
	for _, t := range []uint16{tmplCheckpointStart, tmplCheckpointDone, tmplConnReceived, tmplConnAuthorized,
		tmplSlowQuery, tmplJob, tmplNoTransaction, tmplDuplicateKey, tmplPasswordFailed} {
		add(t, 0)
	}
	for i := range recs {
		recs[i].at = now.Add(-time.Duration(len(recs)-1-i) * time.Millisecond).UnixNano()
		st.add(recs[i])
	}
}

// Seed prepends n random entries older than everything the store holds, a
// few seconds apart, so tests can exercise pagination and filters.
func (st *Store) Seed(n int, now time.Time, rng *rand.Rand, replicas int) {
	at := now.UnixNano()
	if len(st.recs) > 0 {
		at = st.recs[0].at
	}
	at = at / int64(time.Millisecond) * int64(time.Millisecond)
	recs := make([]rec, n)
	for i := n - 1; i >= 0; i-- {
		at -= (1 + rng.Int64N(15_000)) * int64(time.Millisecond)
		recs[i] = random(rng, at, replicas)
	}
	st.base -= int64(n)
	st.recs = append(recs, st.recs...)
	st.trim()
}

// random is a realistic line at at: a weighted random template, on the
// primary or, half of the time, on a random HA replica.
func random(rng *rand.Rand, at int64, replicas int) rec {
	tmpl := pickTemplate(rng.IntN(totalWeight))
	node := 0
	if replicas > 0 && rng.IntN(2) == 0 {
		node = 1 + rng.IntN(replicas)
	}
	return rec{at: at, arg: rng.Uint32(), node: int32(node), tmpl: tmpl, sev: templates[tmpl].sev}
}

// StartInterval makes the store due for its first interval line at first;
// WriteDue writes it and the ones after.
func (st *Store) StartInterval(first time.Time) { st.next = first.UnixNano() }

// WriteDue writes the interval lines due by end, one each every, each at
// the instant it was due, so a reader sees the same history whenever it
// reads, and returns when the next one is due (Unix nanoseconds).
func (st *Store) WriteDue(end time.Time, every time.Duration, rng *rand.Rand, replicas int) (next int64) {
	stop, step := end.UnixNano(), int64(every)
	if st.next > stop {
		return st.next
	}
	// After a long jump of the clock, lines that retention would drop at
	// once are not written at all.
	if due := (stop-st.next)/step + 1; st.keep > 0 && due > int64(st.keep) {
		st.next += (due - int64(st.keep)) * step
	}
	for ; st.next <= stop; st.next += step {
		st.add(random(rng, st.next, replicas))
	}
	return st.next
}
