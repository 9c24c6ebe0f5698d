package pipeline

import (
	"context"
	"sync"
	"time"
)

// watch ends the attempts of one Client that outlive their attempt
// timeout, with one timer for all of them: an attempt registers its
// deadline and the cancel of its context, and the timer is set for the
// earliest deadline registered.
//
// A timer of each attempt's own (time.AfterFunc, stopped when the attempt
// ends) cost an allocation and two changes of the runtime's timer heap per
// attempt, and, when it was the earliest timer, a wake of the network
// poller. This one is set again only when an attempt's deadline comes
// before it, which, while the attempts' timeout stays the same, none does:
// it fires about once per timeout.
//
// What it saves, on the paired loopback benchmarks (Get and Create, 12
// interleaved rounds, #44): with context.WithTimeout for each attempt
// instead, a call makes 2 more allocations (140 against 138 for a Get,
// 1.4% of them) and about 170 more bytes (1.7%). Its time saving was
// within the noise of the loaded 2-core machine (ratios ±10%); an earlier
// idle measurement put the bound's cost at 1 to 2% of a Get with the watch
// against about 5% with a timer per attempt (docs/performance.md).
//
// Almost every attempt ends long before its deadline, so what is paid per
// attempt is kept to the least: the attempts in flight are kept in no
// order, a registration is an append and an end a swap with the last, each
// under the lock. Only the timer looks at them all, when it fires.
type watch struct {
	epoch time.Time // deadlines are durations since it, on the monotonic clock

	mu      sync.Mutex
	pending []*bound      // the attempts in flight with a bound, in no order
	timer   *time.Timer   // nil until the first bound
	next    time.Duration // when the timer fires; 0: it is not set
}

// bound is what the watch holds of an attempt. It is part of the call
// value, so that registering allocates nothing.
type bound struct {
	deadline time.Duration      // since the watch's epoch
	cancel   context.CancelFunc // the attempt's context's; nil: no bound
	index    int                // in watch.pending; -1 once out of it
}

// add registers b, whose deadline and cancel are set.
func (w *watch) add(b *bound) {
	w.mu.Lock()
	defer w.mu.Unlock()
	b.index = len(w.pending)
	w.pending = append(w.pending, b)
	if w.next == 0 || b.deadline < w.next {
		w.set(b.deadline)
	}
}

// remove ends b once its attempt has ended: the watch forgets it, if the
// timer has not already ended it, and its context is released. A bound
// that is not set (cancel nil) is left alone.
func (w *watch) remove(b *bound) {
	if b.cancel == nil {
		return
	}
	w.mu.Lock()
	if i := b.index; i >= 0 {
		last := len(w.pending) - 1
		w.pending[i] = w.pending[last]
		w.pending[i].index = i
		w.pending[last] = nil // the watch keeps no call value alive
		w.pending = w.pending[:last]
		b.index = -1
	}
	w.mu.Unlock()
	b.cancel()
	b.cancel = nil
}

// fire is the timer's: it cancels the attempts whose deadline has passed,
// forgetting them, and sets the timer for the earliest deadline left. The
// cancels run under the lock, which orders them with the attempt's own end
// (remove), and needs no list of them: a context's cancel calls nothing of
// ours.
func (w *watch) fire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Since(w.epoch)
	var earliest time.Duration
	kept := w.pending[:0]
	for _, b := range w.pending {
		if b.deadline <= now {
			b.cancel()
			b.index = -1
			continue
		}
		b.index = len(kept)
		kept = append(kept, b)
		if earliest == 0 || b.deadline < earliest {
			earliest = b.deadline
		}
	}
	clear(w.pending[len(kept):]) // the watch keeps no call value alive
	w.pending = kept
	w.next = 0
	if earliest > 0 {
		w.set(earliest)
	}
}

// set makes the timer fire at deadline; w.mu is held.
func (w *watch) set(deadline time.Duration) {
	w.next = deadline
	d := deadline - time.Since(w.epoch)
	if w.timer == nil {
		w.timer = time.AfterFunc(d, w.fire)
		return
	}
	w.timer.Reset(d)
}
