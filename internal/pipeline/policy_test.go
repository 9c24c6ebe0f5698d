package pipeline

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var epoch = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func TestParseRetryAfter(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"0", 0, true},
		{" 7 ", 7 * time.Second, true},
		{"-3", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{"99999999999999", MaxRetryAfter, true},
		{epoch.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{epoch.Add(-time.Hour).Format(http.TimeFormat), 0, true},                // in the past: retry now
		{epoch.Add(3 * time.Second).Format(time.RFC850), 3 * time.Second, true}, // obsolete HTTP date forms too
		{epoch.Add(3 * time.Second).Format(time.ANSIC), 3 * time.Second, true},
	}
	for _, tt := range tests {
		got, ok := ParseRetryAfter(tt.in, epoch)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

// The retry rule as a table: what the attempt came to, its number, the
// time left, the budget and the jitter, and the decision. Jitter 0, unless
// a row says otherwise, puts the backoff at its ceiling.
func TestDecide(t *testing.T) {
	base := Policy{RetryMax: 4, WaitMin: 100 * time.Millisecond, WaitMax: 10 * time.Second}
	explicit := base
	explicit.RetryMax, explicit.Explicit = 2, true
	many := base
	many.RetryMax, many.Explicit = 1000, true
	const s = time.Second
	for _, tt := range []struct {
		name string
		p    Policy
		a    Attempt
		want Decision
	}{
		{"a usable 2xx", base, Attempt{Came: Usable, Number: 1, Budget: -1}, Decision{}},
		{"a GET's lost 2xx is read again", base, Attempt{Read: true, Came: Unusable, Number: 1, Budget: -1},
			Decision{Retry: true, Wait: 200 * time.Millisecond, Cost: RetryCost, Reason: "invalid answer"}},
		{"a POST's lost 2xx is not sent again", base, Attempt{Came: Unusable, Number: 1, Budget: -1}, Decision{}},
		{"a body over the bound is not read again", base, Attempt{Read: true, Came: TooLarge, Number: 1, Budget: -1}, Decision{}},
		{"503, first retry", base, Attempt{Came: Answered, Status: 503, Number: 1, Budget: -1},
			Decision{Retry: true, Wait: 200 * time.Millisecond, Cost: RetryCost, Reason: "status 503"}},
		{"503, backoff grows", base, Attempt{Came: Answered, Status: 503, Number: 3, Budget: -1},
			Decision{Retry: true, Wait: 800 * time.Millisecond, Cost: RetryCost, Reason: "status 503"}},
		{"full jitter: the draw takes its share of the range off the ceiling", base, Attempt{Came: Answered, Status: 503, Number: 3, Budget: -1, Jitter: 0.5},
			Decision{Retry: true, Wait: 450 * time.Millisecond, Cost: RetryCost, Reason: "status 503"}},
		{"the ceiling stops at the longest wait", many, Attempt{Came: Failed, Number: 201, Budget: -1},
			Decision{Retry: true, Wait: 10 * time.Second, Cost: RetryCost, Reason: "network error"}},
		{"no wait bounds, no wait", Policy{RetryMax: 4}, Attempt{Came: Failed, Number: 4, Budget: -1, Jitter: 0.5},
			Decision{Retry: true, Cost: RetryCost, Reason: "network error"}},
		{"409 is an answer", base, Attempt{Came: Answered, Status: 409, Number: 1, Budget: -1}, Decision{}},
		{"429 honours Retry-After", base, Attempt{Came: Answered, Status: 429, RetryAfter: 3 * s, HasRetryAfter: true, Number: 1, Budget: -1},
			Decision{Retry: true, Wait: 3 * s, Cost: RetryCost, Reason: "status 429"}},
		{"500's Retry-After is not honoured", base, Attempt{Came: Answered, Status: 500, RetryAfter: 3 * s, HasRetryAfter: true, Number: 1, Budget: -1},
			Decision{Retry: true, Wait: 200 * time.Millisecond, Cost: RetryCost, Reason: "status 500"}},
		{"a Retry-After over the longest wait is the caller's", base, Attempt{Came: Answered, Status: 429, RetryAfter: time.Hour, HasRetryAfter: true, Number: 1, Budget: -1}, Decision{}},
		{"a create's 429 is sent again", base, Attempt{Creating: true, Came: Answered, Status: 429, Number: 1, Budget: -1},
			Decision{Retry: true, Wait: 200 * time.Millisecond, Cost: RetryCost, Reason: "status 429"}},
		{"a create's 503 may have acted", base, Attempt{Creating: true, Came: Answered, Status: 503, Number: 1, Budget: -1}, Decision{}},
		{"a create not sent is sent again", base, Attempt{Creating: true, Came: NotSent, Number: 1, Budget: -1},
			Decision{Retry: true, Wait: 200 * time.Millisecond, Cost: RetryCost, Reason: "network error"}},
		{"a create's reset may have acted", base, Attempt{Creating: true, Came: Failed, Number: 1, Budget: -1}, Decision{}},
		{"a refused redirect repeats", base, Attempt{Came: Refused, Number: 1, Budget: -1}, Decision{}},
		{"a timed-out attempt costs more", base, Attempt{Came: TimedOut, Number: 1, Budget: -1},
			Decision{Retry: true, Wait: 200 * time.Millisecond, Cost: TimeoutCost, Reason: "attempt timeout"}},
		{"no deadline: the count", base, Attempt{Came: Failed, Number: 5, Budget: -1}, Decision{}},
		{"a deadline: time, not the default count", base, Attempt{Came: Failed, Number: 5, Deadline: true, Left: 10 * s, Budget: -1},
			Decision{Retry: true, Wait: 3200 * time.Millisecond, Cost: RetryCost, Reason: "network error"}},
		{"a deadline: never past MaxRetries", base, Attempt{Came: Failed, Number: MaxRetries + 1, Deadline: true, Left: time.Hour, Budget: -1}, Decision{}},
		{"an explicit cap holds without a deadline", explicit, Attempt{Came: Failed, Number: 3, Budget: -1}, Decision{}},
		{"an explicit cap holds with a deadline", explicit, Attempt{Came: Failed, Number: 3, Deadline: true, Left: time.Hour, Budget: -1}, Decision{}},
		{"within an explicit cap", explicit, Attempt{Came: Failed, Number: 2, Deadline: true, Left: time.Hour, Budget: -1},
			Decision{Retry: true, Wait: 400 * time.Millisecond, Cost: RetryCost, Reason: "network error"}},
		{"our backoff takes at most half of what is left", base, Attempt{Came: Failed, Number: 4, Deadline: true, Left: s, Budget: -1},
			Decision{Retry: true, Wait: s / 2, Cost: RetryCost, Reason: "network error"}},
		{"no time left", base, Attempt{Came: Failed, Number: 1, Deadline: true, Left: 0, Budget: -1}, Decision{}},
		{"a Retry-After that leaves the next attempt enough", base, Attempt{Came: Answered, Status: 503, RetryAfter: s, HasRetryAfter: true, Number: 1, Deadline: true, Left: s + LastAttemptMin, Budget: -1},
			Decision{Retry: true, Wait: s, Cost: RetryCost, Reason: "status 503"}},
		{"a Retry-After that does not", base, Attempt{Came: Answered, Status: 503, RetryAfter: s, HasRetryAfter: true, Number: 1, Deadline: true, Left: s + LastAttemptMin - 1, Budget: -1}, Decision{}},
		{"a budget with enough", base, Attempt{Came: Failed, Number: 1, Budget: RetryCost},
			Decision{Retry: true, Wait: 200 * time.Millisecond, Cost: RetryCost, Reason: "network error"}},
		{"an empty budget", base, Attempt{Came: Failed, Number: 1, Budget: RetryCost - 1}, Decision{}},
		{"a budget too short for a timeout", base, Attempt{Came: TimedOut, Number: 1, Budget: TimeoutCost - 1}, Decision{}},
		{"retries off", Policy{Explicit: true}, Attempt{Came: Failed, Number: 1, Deadline: true, Left: time.Hour, Budget: -1}, Decision{}},
	} {
		if diff := cmp.Diff(tt.want, tt.p.Decide(tt.a)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// How long an attempt may take: a share of the deadline, never below the
// floor (unless less is left), capped by the attempt timeout; a create's
// attempt is not cut short unless recovery needs the rest.
func TestAttemptTimeout(t *testing.T) {
	p := Policy{AttemptMax: 30 * time.Second}
	recovering := p
	recovering.Recovery = true
	const s = time.Second
	for _, tt := range []struct {
		name     string
		p        Policy
		creating bool
		deadline bool
		left     time.Duration
		want     time.Duration
	}{
		{"no deadline", p, false, false, 0, 30 * s},
		{"no deadline, no bound", Policy{}, false, false, 0, 0},
		{"half of what is left", p, false, true, 10 * s, 5 * s},
		{"capped by the attempt timeout", p, false, true, 2 * time.Minute, 30 * s},
		{"the floor", p, false, true, 800 * time.Millisecond, AttemptFloor},
		{"less than the floor left: the deadline ends it", p, false, true, 300 * time.Millisecond, 0},
		{"a create has the whole deadline", p, true, true, 10 * s, 0},
		{"a recovered create is cut like a read", recovering, true, true, 10 * s, 5 * s},
	} {
		if got := tt.p.AttemptTimeout(tt.creating, tt.deadline, tt.left); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
