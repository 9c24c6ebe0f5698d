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
		ctx, x.cancelAttempt = context.WithTimeout(ctx, d)
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
	if x.cancelAttempt != nil {
		x.cancelAttempt()
		x.cancelAttempt = nil
	}
	x.attemptCtx = nil
	return timedOut
}

// attemptTransport wraps the transport of every attempt. It sends each
// attempt under that attempt's context (see startAttempt), so a held
// connection costs one attempt, not the call. It also closes at once the
// body of a 101 Switching Protocols, which is the raw connection: no context
// reaches it, and reading it would wait for as long as the server holds the
// connection. And it hides CloseIdleConnections from retryablehttp, which
// calls it after every failed call: on a Client shared by many goroutines
// that would drop the pooled connections of all of them because of one
// failure.
type attemptTransport struct{ rt http.RoundTripper }

// RoundTrip sends r through the wrapped transport, under its attempt's
// context.
func (t attemptTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if x, ok := r.Context().(*exchange); ok && x.attemptCtx != nil {
		r = r.WithContext(x.attemptCtx)
	}
	resp, err := t.rt.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusSwitchingProtocols {
		_ = resp.Body.Close()
		resp.Body = http.NoBody
	}
	return resp, err
}
