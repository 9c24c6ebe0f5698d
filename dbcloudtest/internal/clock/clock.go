// Package clock is the fake's time: the one clock that every status, log
// line and token expiry of the model is read against, moved by the test
// rather than by the machine.
package clock

import (
	"sync"
	"time"
)

// Clock is the server's time. It is one of three kinds, chosen by options:
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
// reading: plain points in time, as the API sends them. A Clock is safe for
// concurrent use.
type Clock struct {
	mu   sync.Mutex
	t    time.Time     // manual and ticking: the time now
	tick time.Duration // ticking: added after each read by the model
	real bool
	lead time.Duration // real: how far ahead of time.Now the clock is
}

// New returns a clock that starts at start (the machine's time when zero),
// ticking by tick on each Now when tick > 0, or following the machine's
// time when real.
func New(start time.Time, tick time.Duration, real bool) *Clock {
	if start.IsZero() {
		start = time.Now()
	}
	start = start.UTC().Round(0)
	c := &Clock{t: start, tick: tick, real: real}
	if c.real {
		c.lead = time.Until(start)
	}
	return c
}

// Now is the model's read of the clock: a ticking clock moves on after it.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.peekLocked()
	c.t = c.t.Add(c.tick)
	return now
}

// Peek returns the time without moving a ticking clock: the test's look.
func (c *Clock) Peek() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.peekLocked()
}

func (c *Clock) peekLocked() time.Time {
	if c.real {
		return time.Now().UTC().Round(0).Add(c.lead)
	}
	return c.t
}

// Advance moves the clock forward by d, whatever its kind.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	c.lead += d
}
