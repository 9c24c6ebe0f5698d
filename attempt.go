package dbcloud

import (
	"context"
	"net/http"
	"time"
)

// attemptFloor is the shortest time an attempt is given when the deadline
// leaves more: a real API call needs a few hundred milliseconds, and an
// attempt cut shorter would fail by itself.
const attemptFloor = 500 * time.Millisecond

// attemptTimeout is how long the next attempt of x may take (see "Retries"
// in the package documentation); 0 means no bound beyond the context's.
func (api *caller) attemptTimeout(x *exchange) time.Duration {
	deadline, ok := x.Deadline()
	if !ok {
		return api.attemptMax
	}
	if x.creating && !api.recovery {
		// Cutting a create's attempt short would turn an answer that may
		// still come into an ambiguous failure that nothing resolves: it
		// has the whole deadline. With recovery, the time kept back is what
		// recovery needs to find out.
		return 0
	}
	left := time.Until(deadline)
	d := max(left/2, min(attemptFloor, left))
	if api.attemptMax > 0 {
		d = min(d, api.attemptMax)
	}
	if d >= left {
		return 0 // the deadline itself ends this attempt
	}
	return d
}

// startAttempt runs before each attempt (retryablehttp's RequestLogHook):
// it counts the attempt, tells the observer, and gives the attempt its own
// context with the attempt timeout, which endAttempt releases.
func (api *caller) startAttempt(req *http.Request) {
	x, ok := req.Context().(*exchange)
	if !ok {
		return
	}
	x.attempts++
	x.start = api.now()
	var ctx context.Context = x
	if api.observed(x) {
		ctx = api.observer.StartAttempt(x, x.info, x.attempts)
		x.observed = ctx
	}
	if d := api.attemptTimeout(x); d > 0 {
		// A cancel and a timer rather than context.WithTimeout: one
		// allocation less per attempt, which the benchmarks count. The
		// attempt's context has no Deadline, which nothing below needs:
		// net/http and the dialer follow its cancellation.
		ctx, x.cancelAttempt = context.WithCancel(ctx)
		x.attemptTimer = time.AfterFunc(d, x.cancelAttempt)
	}
	if ctx != context.Context(x) {
		x.attemptCtx = ctx
	}
}

// endAttempt releases the attempt's context once its answer has been read,
// and reports whether the attempt timeout ended the attempt.
func (x *exchange) endAttempt() (timedOut bool) {
	if x.attemptCtx != nil {
		timedOut = x.attemptCtx.Err() != nil && x.Context.Err() == nil
	}
	if x.attemptTimer != nil {
		x.attemptTimer.Stop()
		x.attemptTimer = nil
	}
	if x.cancelAttempt != nil {
		x.cancelAttempt()
		x.cancelAttempt = nil
	}
	x.attemptCtx = nil
	return timedOut
}
