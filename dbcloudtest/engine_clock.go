package dbcloudtest

import (
	"sync"
	"time"
)

// Clock is the time source of the fake. Every status is computed from it when a
// resource is read, so a test that controls the clock controls every transition.
type Clock interface{ Now() time.Time }

type realClock struct{}

// Now returns the time of the machine.
func (realClock) Now() time.Time { return time.Now() }

// ManualClock is a Clock that moves only when told to, so tests can walk a
// resource through its statuses without sleeping. It is safe for concurrent use.
type ManualClock struct {
	mu sync.Mutex
	t  time.Time
}

// NewManualClock returns a ManualClock that reads t until it is advanced.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{t: t} }

// Now returns the clock's current time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// TickingClock is a Clock that moves forward by a fixed tick each time it is
// read. The fake reads its clock once per request, so with a tick of half a
// Step every poll of a program under test sees the next status, whatever the
// machine's speed: tests of whole programs (the examples) see each status
// without sleeping and without racing real time. It is safe for concurrent
// use.
type TickingClock struct {
	mu   sync.Mutex
	t    time.Time
	tick time.Duration
}

// NewTickingClock returns a TickingClock that reads start first.
func NewTickingClock(start time.Time, tick time.Duration) *TickingClock {
	return &TickingClock{t: start, tick: tick}
}

// Now returns the clock's time and moves it one tick forward.
func (c *TickingClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.t
	c.t = c.t.Add(c.tick)
	return now
}
