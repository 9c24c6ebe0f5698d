package poll

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"
)

// Poller reads the resources that the waits of one scope watch. Every wait,
// alone or not, reads through one, so there is one polling loop:
//   - Each wait keeps its own schedule: its first poll comes after a random
//     delay below its jitter, then its delays grow from its first interval
//     to its longest (NextDelay).
//   - The poller reads when the earliest wait is due, and hands that read to
//     every wait it holds that is not still handling the previous one; each
//     starts its next delay when it has handled it (Next). So the tick
//     follows the most urgent wait, and a wait never sees fresh data less
//     often than it would alone.
//   - A wait still handling the previous read when a read starts is handed
//     that read as soon as it is done (Next), not a delay later: a read it
//     missed may be the one that shows what it waits for, and alone it
//     would have read again only after its delay.
//   - A wait alone is read with One (when the Reader has it) under its own
//     context, so that the read carries the wait's values and trace; two or
//     more are read with All under the poller's context, with the contexts
//     of the waits it serves.
//   - A wait is only handed reads sent after it joined: never an older one,
//     which could predate the caller's own change and end the wait on a
//     status that is no longer true.
//   - A wait's first read comes when it is due, after its jitter, as it
//     would alone, whatever read ended just before it joined (a Retry-After
//     aside): no gap after the previous read delays it. Reads never
//     overlap, so a read still in flight when the wait is due holds it
//     until it ends (a read's time at most). A read is for every wait that
//     is not busy, so waits that join within one another's jitter, or
//     while a read is in flight, share one. After that, a wait is due its
//     delay (at least its first interval) after it handled a read, which
//     ended after the read did: reads for waits already served come at
//     most once per shortest first interval, however long a read takes.
//     Waits joining one after the other, more than a read apart, cost a
//     first read each, as they would alone; then they share one read per
//     tick.
//   - A Retry-After (HoldFor) holds every wait until it has passed; joins
//     and leaves never reset it.
//   - A read has the deadline of the earliest end among the waits it is
//     for, so a held connection costs one attempt, not every wait.
//   - The loop's goroutine ends when the last wait leaves, and its read in
//     flight, if any, is cancelled then, and only then.
type Poller[T any] struct {
	reader Reader[T]
	one    OneReader[T] // reader's One; nil when it has none
	// reg and key are the registry that holds the poller and its key there,
	// out of which it takes itself when its loop ends; nil when private.
	reg *Registry
	key any

	mu        sync.Mutex
	waiters   map[*Waiter[T]]struct{}
	running   bool
	ctx       context.Context // of shared reads; cancelled when the last wait leaves
	cancel    context.CancelFunc
	notBefore time.Time // from HoldFor
	wake      chan struct{}
}

// Reader is how a Poller reads the resources of its scope.
type Reader[T any] interface {
	// All reads the scope, for the waits whose contexts are serves (nil
	// for a wait alone, read under its own context).
	All(ctx context.Context, serves []context.Context) ([]T, error)
	// ID names a resource of All's result; Missing is the error of an id
	// that All's result lacks.
	ID(v *T) string
	Missing(id string) error
	// HoldFor is how long a read's failure asks every wait to hold off (a
	// Retry-After); 0: not at all.
	HoldFor(err error) time.Duration
}

// OneReader is a Reader that can read one resource, for a wait alone, under that
// wait's context; a Reader without it is read with All for a wait alone
// too.
type OneReader[T any] interface {
	One(ctx context.Context, id string) (*T, error)
}

// New returns a private poller, in no registry, that reads with r.
func New[T any](r Reader[T]) *Poller[T] {
	p := &Poller[T]{reader: r}
	p.one, _ = r.(OneReader[T])
	return p
}

// Waiter is one wait's place in a Poller. Its fields but C are guarded by
// the poller's lock.
type Waiter[T any] struct {
	id             string
	ctx            context.Context // the wait's own, for a read of it alone
	first, longest time.Duration
	delay          time.Duration // the next delay after a read
	due            time.Time
	end            time.Time // the wait's own end: its timeout or its context's deadline
	busy           bool      // handed a read it has not finished with: not due
	// missed is the newest read that started while the wait was busy, to
	// hand it when the wait is done with the one it has; nil when none.
	missed *Observation[T]
	// C receives each read handed to the wait; buffered 1.
	C chan Observation[T]
}

// Observation is one read, as a wait sees it: its resource or why there is
// none.
type Observation[T any] struct {
	Res *T
	Err error
}

// Schedule is a wait's polling: delays from First, growing to Longest, the
// first poll after a random delay below Jitter, and the wait's End.
type Schedule struct {
	First, Longest, Jitter time.Duration
	End                    time.Time
}

// Join adds a wait for id, made under ctx, and starts the loop if it is not
// running. A private poller (no registry) is joined this way too.
func (p *Poller[T]) Join(ctx context.Context, id string, s Schedule) *Waiter[T] {
	w := &Waiter[T]{id: id, ctx: ctx, first: s.First, longest: s.Longest, delay: s.First, end: s.End, C: make(chan Observation[T], 1)}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.waiters == nil {
		p.waiters = map[*Waiter[T]]struct{}{}
		p.wake = make(chan struct{}, 1)
	}
	now := time.Now()
	w.due = now
	if s.Jitter > 0 {
		w.due = now.Add(rand.N(s.Jitter))
	}
	p.waiters[w] = struct{}{}
	if !p.running || p.ctx.Err() != nil {
		// A loop whose last wait just left has cancelled its reads: the
		// reads of this wait need a live context.
		p.ctx, p.cancel = context.WithCancel(context.Background())
	}
	if !p.running {
		p.running = true
		go p.run()
	}
	p.poke()
	return w
}

// Leave removes a wait; the last one cancels the read in flight.
func (p *Poller[T]) Leave(w *Waiter[T]) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.waiters, w)
	if len(p.waiters) == 0 {
		p.cancel()
	}
	p.poke()
}

// Next tells the poller that w is done with its read and waits for the
// next one, after its next delay; restart makes its delays start over from
// its first interval. A wait's delay runs from the end of its handling of a
// read, as a lone wait's would: a slow handler costs no read it would not
// use.
func (p *Poller[T]) Next(w *Waiter[T], restart bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if restart {
		w.delay = w.first
	}
	if o := w.missed; o != nil {
		w.missed = nil
		w.C <- *o // cannot block: the wait has taken the read it was busy with
		return
	}
	w.busy = false
	w.due, w.delay = time.Now().Add(w.delay), NextDelay(w.delay, w.longest)
	p.poke()
}

func (p *Poller[T]) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// run is the poller's loop: wait until the earliest wait is due (or the
// hold has passed), read, hand the read out, until no wait is left.
func (p *Poller[T]) run() {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		next, ok := p.schedule()
		if !ok {
			return
		}
		if d := time.Until(next); d > 0 {
			timer.Reset(d)
			select {
			case <-timer.C:
			case <-p.wake:
				timer.Stop()
				continue // a join, a leave or a restart: schedule again
			}
		}
		p.mu.Lock()
		ctx := p.ctx
		batch := make([]*Waiter[T], 0, len(p.waiters))
		var busy []*Waiter[T]
		for w := range p.waiters {
			if w.busy {
				busy = append(busy, w)
			} else {
				batch = append(batch, w)
			}
		}
		p.mu.Unlock()
		if len(batch) == 0 {
			continue
		}
		p.read(ctx, batch, busy)
	}
}

// schedule returns when to read next, or false (and takes the poller out
// of its registry) when no wait is left.
func (p *Poller[T]) schedule() (time.Time, bool) {
	if p.reg == nil {
		return p.scheduleLocked()
	}
	// The registry's lock is held so that no wait joins a poller whose
	// loop is ending.
	p.reg.mu.Lock()
	defer p.reg.mu.Unlock()
	next, ok := p.scheduleLocked()
	if !ok {
		delete(p.reg.pollers, p.key)
	}
	return next, ok
}

func (p *Poller[T]) scheduleLocked() (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.waiters) == 0 {
		p.running = false
		p.cancel()
		return time.Time{}, false
	}
	// No gap after the previous read is needed: a wait that has been
	// served is due its delay (at least its first interval) after it
	// handled its last read, which ended before; a wait not yet served is
	// due when it would read alone.
	var next time.Time
	for w := range p.waiters {
		if !w.busy && (next.IsZero() || w.due.Before(next)) {
			next = w.due
		}
	}
	if next.IsZero() {
		next = time.Now().Add(time.Hour) // every wait is busy: until one pokes
	}
	if next.Before(p.notBefore) {
		next = p.notBefore
	}
	return next, true
}

// read reads once for batch, by the earliest end among its waits, and
// hands each of its waits, still present, the result; each of busy, the
// waits that had joined but were handling the previous read, gets it when
// it is done with that one.
func (p *Poller[T]) read(ctx context.Context, batch, busy []*Waiter[T]) {
	end := batch[0].end
	for _, w := range batch[1:] {
		if w.end.Before(end) {
			end = w.end
		}
	}
	var (
		one  *T
		list []T
		err  error
	)
	if len(batch) == 1 {
		// A wait alone reads under its own context: its values (a trace
		// span) reach the read, and its end cancels it.
		ctx = batch[0].ctx
	}
	ctx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	switch {
	case len(batch) == 1 && p.one != nil:
		one, err = p.one.One(ctx, batch[0].id)
	case len(batch) == 1:
		list, err = p.reader.All(ctx, nil)
	default:
		serves := make([]context.Context, len(batch))
		for i, w := range batch {
			serves[i] = w.ctx
		}
		list, err = p.reader.All(ctx, serves)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		if d := p.reader.HoldFor(err); d > 0 {
			p.notBefore = time.Now().Add(d)
		}
	}
	for _, w := range batch {
		if _, ok := p.waiters[w]; ok {
			w.C <- p.observation(w, one, list, err) // cannot block: a wait that is not busy has read its last one
			w.busy = true
		}
	}
	if err != nil || len(batch) == 1 && p.one != nil {
		// A failure is the business of the waits it was read for, and a
		// read of one resource has nothing for the others.
		return
	}
	for _, w := range busy {
		if _, ok := p.waiters[w]; !ok {
			continue
		}
		o := p.find(list, w.id)
		if w.busy {
			w.missed = &o
			continue
		}
		w.C <- o // done with its read during this one (Next): C is empty
		w.busy = true
	}
}

// observation is w's part of a read: its failure, its resource read alone,
// or its resource in the list read.
func (p *Poller[T]) observation(w *Waiter[T], one *T, list []T, err error) Observation[T] {
	switch {
	case err != nil:
		return Observation[T]{Err: err}
	case one != nil:
		return Observation[T]{Res: one}
	}
	return p.find(list, w.id)
}

// find is id's observation in an All result: a copy of its resource, so
// that waits sharing the list never share a value, or Missing.
func (p *Poller[T]) find(list []T, id string) Observation[T] {
	for i := range list {
		if p.reader.ID(&list[i]) == id {
			v := list[i]
			return Observation[T]{Res: &v}
		}
	}
	return Observation[T]{Err: p.reader.Missing(id)}
}

// NextDelay grows a delay by a random factor in [1.5, 2), capped at
// longest: the polls of many waiting scripts spread out instead of
// arriving together, and the delay still reaches longest in a bounded
// number of polls.
func NextDelay(prev, longest time.Duration) time.Duration {
	half := prev / 2
	return min(prev+half+rand.N(half+1), longest)
}
