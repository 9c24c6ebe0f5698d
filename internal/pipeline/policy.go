package pipeline

import (
	"net/http"
	"strconv"
	"time"
)

// Costs of the retry budget, in tokens, as in the AWS SDK v2's retry quota:
// a retry costs RetryCost, a retry after a timed-out attempt (which held a
// connection and may mean an overloaded server) TimeoutCost, and a call
// that succeeds on its first attempt earns SuccessGain back. A call that
// succeeds after retries gives back what they cost.
const (
	RetryCost   = 5
	TimeoutCost = 10
	SuccessGain = 1
)

// AttemptFloor is the shortest time an attempt is given when the deadline
// leaves more: a real API call needs a few hundred milliseconds, and an
// attempt cut shorter would fail by itself.
const AttemptFloor = 500 * time.Millisecond

// LastAttemptMin is the least time a retry after an honoured Retry-After
// must leave its attempt before the deadline. It is below AttemptFloor:
// here the deadline itself is what is left, and an attempt that may well be
// answered in a few hundred milliseconds beats returning the 429 at once.
const LastAttemptMin = 250 * time.Millisecond

// MaxRetries bounds the retries of one call whose count nothing else
// bounds (a deadline and no explicit cap): time decides, but never more
// than this many times, the number the default retry budget holds.
const MaxRetries = 100

// Policy is a Client's retry rule. Its zero value retries nothing.
type Policy struct {
	// RetryMax is the count of retries after the first attempt. With
	// Explicit it bounds every call; without, only calls with no deadline
	// (time bounds the others).
	RetryMax int
	Explicit bool
	// WaitMin and WaitMax bound the backoff; a Retry-After longer than
	// WaitMax is not slept.
	WaitMin, WaitMax time.Duration
	// AttemptMax bounds one attempt: every attempt of a call with no
	// deadline, and at most this long with one. 0 leaves it unbounded.
	AttemptMax time.Duration
	// Recovery: creates are recovered (WithCreateRecovery), so their
	// attempts follow the rule of safe requests.
	Recovery bool
}

// Came is what one attempt came to.
type Came int

const (
	// Usable is a 2xx whose body was read (and decoded) whole.
	Usable Came = iota
	// Unusable is a 2xx whose body was cut off, malformed or empty.
	Unusable
	// TooLarge is a 2xx whose body is over the size bound.
	TooLarge
	// Answered is a non-2xx answer.
	Answered
	// NotSent is a connection error from before any byte of the request
	// was written: dialling, resolving, a proxy, a token source.
	NotSent
	// Failed is a connection error once the request may have been sent: a
	// reset, a broken connection.
	Failed
	// TimedOut is an attempt that the attempt timeout ended.
	TimedOut
	// Refused is a redirect the SDK refused or a certificate it does not
	// trust: the same attempt would fail the same way.
	Refused
)

// Attempt is what Decide needs to know of the attempt just made.
type Attempt struct {
	// Creating: the request makes a new resource, and is never repeated
	// once it may have acted. Read: it is a GET, which an answer lost on
	// the way may repeat.
	Creating, Read bool
	Came           Came
	Status         int // the answer's, when Came is Answered
	// RetryAfter is the answer's Retry-After, when HasRetryAfter.
	RetryAfter    time.Duration
	HasRetryAfter bool
	Number        int // counting from 1
	// Deadline reports a deadline on the call; Left is the time left to it.
	Deadline bool
	Left     time.Duration
	// Budget is what the client's retry budget holds, or -1 when it is off.
	Budget int64
	// Jitter is a uniform random draw in [0, 1): the share of the backoff's
	// range, from WaitMin to its ceiling, taken off the ceiling (full
	// jitter). At 0 the backoff is the ceiling.
	Jitter float64
}

// Decision is whether another attempt follows, and after what wait; Cost
// is what it takes from the retry budget, and Reason says why it retries.
type Decision struct {
	Retry  bool
	Wait   time.Duration
	Cost   int64
	Reason string
}

// MayHaveActed reports whether an attempt that came to c with status may
// have changed something on the server. It is the one place that sorts a
// failure into "may have happened" and "did not happen", for the retry
// rule, for a create's ambiguity and for reconciling a retry's answer: a
// 2xx (it happened) or a 5xx (the server or a proxy failed somewhere, maybe
// after acting) may have acted; any other answer did not (the API refuses
// before it changes anything); a connection error may have, unless the
// request was never sent or was refused before it left.
func MayHaveActed(c Came, status int) bool {
	switch c {
	case Usable, Unusable, TooLarge, Failed, TimedOut:
		return true
	case Answered:
		return status >= 500
	}
	return false
}

// Decide is the retry rule (see "Retries" in the root package's
// documentation): whether the attempt a is followed by another, and after
// what wait.
func (p Policy) Decide(a Attempt) Decision {
	reason, ok := p.retryable(a)
	if !ok || (a.Creating && MayHaveActed(a.Came, a.Status)) {
		return Decision{}
	}
	if a.Number > p.countCap(a.Deadline) {
		return Decision{}
	}
	wait, honoured := p.backoff(a)
	if a.Deadline {
		switch {
		case honoured:
			// The server's wait cannot be shortened: it is slept when the
			// attempt after it still has LastAttemptMin.
			if a.Left-wait < LastAttemptMin {
				return Decision{}
			}
		case wait > a.Left/2:
			// Our own backoff may use at most half of the time left, so
			// that the attempt after it has the other half.
			if a.Left/2 <= 0 {
				return Decision{}
			}
			wait = a.Left / 2
		}
	}
	cost := int64(RetryCost)
	if a.Came == TimedOut {
		cost = TimeoutCost
	}
	if a.Budget >= 0 && a.Budget < cost {
		return Decision{}
	}
	return Decision{Retry: true, Wait: wait, Cost: cost, Reason: reason}
}

// retryable reports whether what a came to is worth another attempt, and
// names it.
func (p Policy) retryable(a Attempt) (string, bool) {
	switch a.Came {
	case Unusable:
		// Reading again is harmless; any other request's 2xx proves it took
		// effect, and repeating it would only conflict.
		return "invalid answer", a.Read
	case Answered:
		if !RetryableStatus(a.Status) || (HonoursRetryAfter(a.Status) && a.HasRetryAfter && a.RetryAfter > p.WaitMax) {
			return "", false
		}
		return "status " + strconv.Itoa(a.Status), true
	case NotSent, Failed:
		return "network error", true
	case TimedOut:
		return "attempt timeout", true
	}
	return "", false
}

// countCap is the most retries a call may make: an explicit cap always;
// else the default count without a deadline, and MaxRetries with one.
func (p Policy) countCap(deadline bool) int {
	if p.Explicit || !deadline {
		return p.RetryMax
	}
	return MaxRetries
}

// backoff is the wait before the retry that follows attempt a: an honoured
// Retry-After (reported as such), else a wait placed by a.Jitter between
// WaitMin and an exponential ceiling capped at WaitMax.
func (p Policy) backoff(a Attempt) (time.Duration, bool) {
	if a.Came == Answered && HonoursRetryAfter(a.Status) && a.HasRetryAfter {
		return a.RetryAfter, true
	}
	lo, hi := p.WaitMin, p.WaitMax
	ceiling := hi
	if retry := a.Number - 1; retry < 30 {
		if c := lo << (retry + 1); c > 0 && c < hi {
			ceiling = c
		}
	}
	if ceiling <= lo {
		return lo, false
	}
	return ceiling - time.Duration(a.Jitter*float64(ceiling-lo)), false
}

// AttemptTimeout is how long the next attempt of a call may take (see
// "Retries" in the root package's documentation), given whether the call
// has a deadline and the time left to it; 0 means no bound beyond the
// call's context.
func (p Policy) AttemptTimeout(creating, deadline bool, left time.Duration) time.Duration {
	if !deadline {
		return p.AttemptMax
	}
	if creating && !p.Recovery {
		// Cutting a create's attempt short would turn an answer that may
		// still come into an ambiguous failure that nothing resolves: it
		// has the whole deadline. With recovery, the time kept back is what
		// recovery needs to find out.
		return 0
	}
	d := max(left/2, min(AttemptFloor, left))
	if p.AttemptMax > 0 {
		d = min(d, p.AttemptMax)
	}
	if d >= left {
		return 0 // the deadline itself ends this attempt
	}
	return d
}

// RetryableStatus reports an answer that a later attempt may get past.
func RetryableStatus(status int) bool {
	switch status {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// HonoursRetryAfter reports a status whose Retry-After is honoured.
func HonoursRetryAfter(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
}
