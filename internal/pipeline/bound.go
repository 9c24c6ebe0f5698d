package pipeline

import (
	"container/heap"
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
// it fires about once per timeout, and a registration is a lock and a
// heap push.
type watch struct {
	epoch time.Time // deadlines are durations since it, on the monotonic clock

	mu      sync.Mutex
	pending deadlines     // the attempts in flight with a bound, by deadline
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
	heap.Push(&w.pending, b)
	if w.next == 0 || b.deadline < w.next {
		w.set(b.deadline)
	}
}

// remove forgets b, if the timer has not already ended it.
func (w *watch) remove(b *bound) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if b.index >= 0 {
		heap.Remove(&w.pending, b.index)
	}
}

// fire is the timer's: it cancels the attempts whose deadline has passed,
// and sets the timer for the next deadline. The cancels run under the
// lock, which orders them with the attempt's own end (unbind), and needs no
// list of them: a context's cancel calls nothing of ours.
func (w *watch) fire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	now := time.Since(w.epoch)
	for len(w.pending) > 0 && w.pending[0].deadline <= now {
		heap.Pop(&w.pending).(*bound).cancel()
	}
	w.next = 0
	if len(w.pending) > 0 {
		w.set(w.pending[0].deadline)
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

// deadlines is a heap of bounds, the earliest deadline first
// (container/heap).
type deadlines []*bound

func (h deadlines) Len() int           { return len(h) }
func (h deadlines) Less(i, j int) bool { return h[i].deadline < h[j].deadline }

func (h deadlines) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}

func (h *deadlines) Push(x any) {
	b := x.(*bound)
	b.index = len(*h)
	*h = append(*h, b)
}

func (h *deadlines) Pop() any {
	old := *h
	b := old[len(old)-1]
	old[len(old)-1] = nil // the heap keeps no call value alive
	*h = old[:len(old)-1]
	b.index = -1
	return b
}
