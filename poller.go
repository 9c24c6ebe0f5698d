package dbcloud

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// A poller reads the resources that the waits of one scope watch: the
// services of one project (for one ServicesClient), or the replica sets of
// one service. Every wait, alone or not, reads through one, so there is one
// polling loop in the package.
//
// The rules, stated once (the package's wait docs link here):
//   - Each wait keeps its own schedule: its first poll comes after a random
//     delay (waitConfig.firstJitter), then its delays grow from
//     WithPollInterval's first to its longest.
//   - The poller reads when the earliest wait is due, and hands that read to
//     every wait it holds that is not still handling the previous one (a
//     probe, a slow progress callback); each starts its next delay when it
//     has handled it. So the tick follows the shortest interval among the
//     waits, and a wait never sees fresh data less often than it would alone.
//   - One wait alone reads its resource with a GET (services); two or more
//     read the scope with one List. Replica sets have no GET: always a List.
//   - A wait is only handed reads sent after it joined: never an older
//     one, which could predate the caller's own change (a resize, say)
//     and end the wait on a status that is no longer true.
//   - A read starts no sooner than the shortest first interval among the
//     waits after the previous one ended: at most one read per tick, also
//     when waits join one after the other (a wait that joins just after a
//     read has its first poll at the next one, at most its first interval
//     later), and however long a read takes.
//   - A 429 or 503 with Retry-After holds every wait of the poller until it
//     has passed; joins and leaves never reset it.
//   - A read has the deadline of the earliest end among the waits it is
//     for, so the attempt rule of the call pipeline (see "Retries" in the
//     package documentation) applies to it as to a lone wait's GET: a held
//     connection costs one attempt, not every wait of the poller.
//   - The loop's goroutine ends when the last wait leaves, and its read in
//     flight, if any, is cancelled then, and only then.
type poller[T any] struct {
	one      func(ctx context.Context, id string) (*T, error) // nil: always all
	all      func(ctx context.Context) ([]T, error)
	idOf     func(*T) string
	notFound func(id string) error // the error of an id missing from all's result
	release  func()                // removes the poller from the registry; nil when private

	mu        sync.Mutex
	waiters   map[*waiter[T]]struct{}
	running   bool
	ctx       context.Context // of the reads; cancelled when the last wait leaves
	cancel    context.CancelFunc
	notBefore time.Time // from Retry-After
	lastRead  time.Time // when the newest read ended; zero when every wait has left
	wake      chan struct{}
}

// waiter is one wait's place in a poller. Its fields but ch are guarded by
// the poller's mu.
type waiter[T any] struct {
	id             string
	first, longest time.Duration
	delay          time.Duration // the next delay after a read
	due            time.Time
	end            time.Time           // the wait's own end: its timeout or its context's deadline
	busy           bool                // handed a read it has not finished with: not due
	ch             chan observation[T] // buffered 1
}

// observation is one read, as a wait sees it: its resource or why there is none.
type observation[T any] struct {
	res *T
	err error
}

func newPoller[T any]() *poller[T] {
	return &poller[T]{waiters: map[*waiter[T]]struct{}{}, wake: make(chan struct{}, 1)}
}

// pollerKey names a shared poller: the client it reads with and its scope.
type pollerKey struct {
	client           any
	project, service string
}

var (
	pollersMu sync.Mutex
	pollers   = map[pollerKey]any{}
)

// join returns the poller of key, made by mk when there is none.
// The registry's lock is held until join has added the wait, so that a
// poller that is about to end is never joined (see exitIfIdle).
func join[T any](key pollerKey, mk func() *poller[T], id string, first, longest, jitter time.Duration, end time.Time) (*poller[T], *waiter[T]) {
	pollersMu.Lock()
	defer pollersMu.Unlock()
	p, ok := pollers[key].(*poller[T])
	if !ok {
		p = mk()
		p.release = func() { delete(pollers, key) }
		pollers[key] = p
	}
	return p, p.join(id, first, longest, jitter, end)
}

// join adds a wait for id, whose first poll comes after a random delay
// below jitter and which ends at end, and starts the loop if it is not
// running.
func (p *poller[T]) join(id string, first, longest, jitter time.Duration, end time.Time) *waiter[T] {
	w := &waiter[T]{id: id, first: first, longest: longest, delay: first, end: end, ch: make(chan observation[T], 1)}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	w.due = now
	if jitter > 0 {
		w.due = now.Add(rand.N(jitter))
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

// leave removes a wait; the last one cancels the read in flight.
func (p *poller[T]) leave(w *waiter[T]) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.waiters, w)
	if len(p.waiters) == 0 {
		p.cancel()
		p.lastRead = time.Time{} // a wait that comes next starts at once
	}
	p.poke()
}

// next tells the poller that w is done with its read and waits for the
// next one, after its next delay; restart makes its delays start over from
// its first interval. A wait's delay runs from the end of its handling of a
// read, as a lone wait's would: a slow progress callback or probe costs no
// read it would not use.
func (p *poller[T]) next(w *waiter[T], restart bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if restart {
		w.delay = w.first
	}
	w.busy = false
	w.due, w.delay = time.Now().Add(w.delay), nextDelay(w.delay, w.longest)
	p.poke()
}

func (p *poller[T]) poke() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// run is the poller's loop: wait until the earliest wait is due (or
// Retry-After has passed), read, hand the read out, until no wait is left.
func (p *poller[T]) run() {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		ctx, next, ok := p.schedule()
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
		batch := make([]*waiter[T], 0, len(p.waiters))
		for w := range p.waiters {
			if !w.busy {
				batch = append(batch, w)
			}
		}
		p.mu.Unlock()
		if len(batch) == 0 {
			continue
		}
		p.read(ctx, batch)
	}
}

// schedule returns the reads' context and when to read next, or false (and
// takes the poller out of the registry) when no wait is left. It holds the
// registry's lock so that no wait joins a poller whose loop is ending.
func (p *poller[T]) schedule() (context.Context, time.Time, bool) {
	if p.release != nil {
		pollersMu.Lock()
		defer pollersMu.Unlock()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.waiters) == 0 {
		p.running = false
		p.cancel()
		if p.release != nil {
			p.release()
		}
		return nil, time.Time{}, false
	}
	var next time.Time
	gap := time.Duration(-1)
	for w := range p.waiters {
		if !w.busy && (next.IsZero() || w.due.Before(next)) {
			next = w.due
		}
		if gap < 0 || w.first < gap {
			gap = w.first
		}
	}
	if next.IsZero() {
		next = time.Now().Add(time.Hour) // every wait is busy: until one pokes
	}
	if !p.lastRead.IsZero() && next.Before(p.lastRead.Add(gap)) {
		next = p.lastRead.Add(gap)
	}
	if next.Before(p.notBefore) {
		next = p.notBefore
	}
	return p.ctx, next, true
}

// read reads once for batch, by the earliest end among its waits, and
// hands each of its waits, still present, the result.
func (p *poller[T]) read(ctx context.Context, batch []*waiter[T]) {
	end := batch[0].end
	for _, w := range batch[1:] {
		if w.end.Before(end) {
			end = w.end
		}
	}
	ctx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	var (
		one  *T
		list []T
		err  error
	)
	if len(batch) == 1 && p.one != nil {
		one, err = p.one(ctx, batch[0].id)
	} else {
		list, err = p.all(ctx)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if len(p.waiters) > 0 {
		p.lastRead = now
	}
	if apiErr, ok := errors.AsType[*APIError](err); ok && apiErr.RetryAfter > 0 &&
		(apiErr.StatusCode == http.StatusTooManyRequests || apiErr.StatusCode == http.StatusServiceUnavailable) {
		p.notBefore = now.Add(apiErr.RetryAfter)
	}
	for _, w := range batch {
		if _, ok := p.waiters[w]; !ok {
			continue
		}
		o := observation[T]{err: err}
		switch {
		case err != nil:
		case one != nil:
			o.res = one
		default:
			o = p.find(list, w.id)
		}
		w.ch <- o // cannot block: a wait that is not busy has read its last one
		w.busy = true
	}
}

// find is id's observation in a List result: a copy of its resource, so
// that waits sharing the list never share a value, or notFound.
func (p *poller[T]) find(list []T, id string) observation[T] {
	for i := range list {
		if p.idOf(&list[i]) == id {
			v := list[i]
			return observation[T]{res: &v}
		}
	}
	return observation[T]{err: p.notFound(id)}
}
