package dbcloudtest

import (
	"sync"
	"time"
)

// clock is the server's time. It is one of three kinds, chosen by options:
//
//   - manual (the default): it moves only with Advance, so a test sees the
//     same statuses however slow the machine is;
//   - ticking (WithTickingClock): it also moves one tick each time the
//     model reads it, once per request and per connection to an endpoint,
//     so that a whole program polling the server sees every status without
//     the test moving the clock and without racing real time;
//   - real (WithRealTime): it follows the machine's time, for a server that
//     people watch (examples/quickstart, examples/fakeserver).
//
// Advance moves all three forward. Times are UTC without a monotonic
// reading: plain points in time, as the API sends them.
type clock struct {
	mu   sync.Mutex
	t    time.Time     // manual and ticking: the time now
	tick time.Duration // ticking: added after each read by the model
	real bool
	lead time.Duration // real: how far ahead of time.Now the clock is
}

func newClock(cfg *config) *clock {
	start := cfg.start
	if start.IsZero() {
		start = time.Now()
	}
	start = start.UTC().Round(0)
	c := &clock{t: start, tick: cfg.tick, real: cfg.realTime}
	if c.real {
		c.lead = time.Until(start)
	}
	return c
}

// Now is the model's read of the clock: a ticking clock moves on after it.
func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.peekLocked()
	c.t = c.t.Add(c.tick)
	return now
}

// peek returns the time without moving a ticking clock: the test's look.
func (c *clock) peek() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.peekLocked()
}

func (c *clock) peekLocked() time.Time {
	if c.real {
		return time.Now().UTC().Round(0).Add(c.lead)
	}
	return c.t
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	c.lead += d
}
