package pipeline

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// call is one request in progress: the plain value that owns its state
// across attempts. go-retryablehttp runs the attempts and calls its
// methods, in the order doc.go states; this file reads as one call:
//
//	Do             hands the request to retryablehttp's Client.Do, which per attempt calls
//	startAttempt   (RequestLogHook) to count the attempt, tell the observer and bound it,
//	RoundTrip      (the transport of its http.Client) to send it with the credential,
//	checkRetry     (CheckRetry) to read what it came to, end it and ask the policy,
//	backoff        (Backoff) for the wait the policy chose, when another follows;
//	Do             then settles the retry budget and returns the Result.
type call struct {
	c  *Client
	rc retryablehttp.Client
	hc http.Client
	state
}

// state is what one call holds: the call value's fields that release
// clears.
type state struct {
	req      Request
	ctx      context.Context // the caller's
	deadline time.Time
	timed    bool // the caller's context has a deadline

	// The attempt in flight: when it started, the context the observer
	// gave it, the one it is sent under (that one, bounded by the attempt
	// timeout), and its bound.
	start    time.Time
	observed context.Context
	attempt  context.Context
	bound

	decision Decision // the policy's, about the last attempt
	spent    int64    // what the retries took from the budget
	res      Result
}

// Do sends r, with retries as the policy decides, and returns what the
// attempts came to. A usable 2xx has been decoded into r.Out.
func (c *Client) Do(ctx context.Context, r Request) Result {
	k := c.calls.Get().(*call)
	defer c.release(k)
	k.req, k.ctx = r, ctx
	k.deadline, k.timed = ctx.Deadline()
	if a, ok := c.auth.(*tokenAuth); ok {
		if err := c.tokenFirst(ctx, a, r.Creating); err != nil {
			return Result{Came: NotSent, Err: err}
		}
	}
	var body any // untyped nil without a payload: a typed []byte(nil) would give a GET a chunked empty body
	if r.Body != nil {
		body = r.Body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.Method, r.URL, body)
	if err != nil {
		return Result{Came: Refused, Err: err}
	}
	// checkRetry has recorded every attempt; Do's error is read only when
	// it returned during a backoff, which only the context's end does.
	if _, err := k.rc.Do(req); k.decision.Retry {
		k.res.Err = err
	}
	if k.res.OK() {
		if k.spent > 0 {
			c.budget.Give(k.spent)
		} else {
			c.budget.Give(SuccessGain)
		}
	}
	return k.res
}

// release returns k to the pool, holding nothing of its call.
func (c *Client) release(k *call) {
	c.watch.remove(&k.bound) // an attempt that a panic left in flight
	k.state = state{}
	c.calls.Put(k)
}

// tokenFirst gets the token of a call of expiring tokens before its first
// attempt, waiting no longer than the caller's context and the attempt
// timeout allow. A token source's failure or delay is then the call's
// error before anything is sent: inside an attempt, net/http would rewrite
// an error that comes after its Client.Timeout into text, and the SDK could
// no longer tell that the request never left. A static credential has
// nothing to fetch, and does not come here.
func (c *Client) tokenFirst(ctx context.Context, a *tokenAuth, creating bool) error {
	deadline, timed := ctx.Deadline()
	d := c.policy.AttemptTimeout(creating, timed, time.Until(deadline))
	if t := c.user.Timeout; t > 0 && (d == 0 || t < d) {
		d = t
	}
	if d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	_, err := a.authorization(ctx)
	return err
}

// startAttempt is retryablehttp's RequestLogHook, which runs before each
// attempt: it counts the attempt, tells the observer, and bounds the
// attempt by the attempt timeout.
func (k *call) startAttempt(retryablehttp.Logger, *http.Request, int) {
	k.res.Attempts++
	k.start = time.Now()
	k.decision = Decision{}
	k.observed = k.ctx
	if k.req.Observe != nil {
		k.observed = k.req.Observe.StartAttempt(k.ctx, k.res.Attempts)
	}
	k.attempt = k.observed
	if d := k.c.policy.AttemptTimeout(k.req.Creating, k.timed, k.deadline.Sub(k.start)); d > 0 {
		k.attempt = k.bind(d)
	}
}

// bind gives the attempt a context of its own, which the client's watch
// cancels once d has passed since the attempt started.
func (k *call) bind(d time.Duration) context.Context {
	ctx, cancel := context.WithCancel(k.observed)
	k.bound = bound{deadline: k.start.Sub(k.c.watch.epoch) + d, cancel: cancel}
	k.c.watch.add(&k.bound)
	return ctx
}

// RoundTrip sends one attempt's request (and the requests of its
// redirects) under the attempt's context, with the SDK's headers and,
// only when it is for the API's own scheme and host, the credential. The
// requests the http.Client is given carry no header at all, and it builds
// a redirect's request from those, so a redirect to another host never
// carries the credential. It answers a 401 once with a fresh token, and
// closes at once the body of a 101 Switching Protocols, which is the raw
// connection: no context reaches it, and reading it would wait for as long
// as the server holds the connection.
func (k *call) RoundTrip(r *http.Request) (*http.Response, error) {
	ctx, c := k.attempt, k.c
	ours := r.URL.Scheme == c.scheme && strings.EqualFold(r.URL.Host, c.host)
	body := r.ContentLength != 0 || (r.Body != nil && r.Body != http.NoBody)
	var value []string // the Authorization value, for the API's host only
	switch {
	case ours && c.static != nil:
		value = c.static.authorization
	case ours: // expiring tokens: each attempt sends the current one
		var err error
		if value, err = c.auth.authorization(ctx); err != nil {
			if r.Body != nil {
				_ = r.Body.Close() // a RoundTripper closes the body, even on error
			}
			return nil, err
		}
	}
	out := r.WithContext(ctx) // a RoundTripper must not change the request it was given
	if s := c.static; ours && s != nil && c.sharesHeaders && len(r.Header) == 0 {
		// The common case: the header New built for the static credential
		// (see headerSet).
		out.Header = s.bare
		if body {
			out.Header = s.body
		}
	} else {
		out.Header = c.header(r.Header, value, body)
	}
	resp, err := c.base.RoundTrip(out)
	if ours && err == nil && resp.StatusCode == http.StatusUnauthorized {
		resp, err = c.refreshed(r, ctx, value, body, resp)
	}
	if err == nil && resp.StatusCode == http.StatusSwitchingProtocols {
		_ = resp.Body.Close()
		resp.Body = http.NoBody
	}
	return resp, err
}

// checkRetry is retryablehttp's CheckRetry, called once after each attempt
// with what its http.Client returned: it reads the answer, ends the
// attempt, and asks the policy whether another follows. It returns no
// error: what the attempt came to is recorded in the call's Result.
func (k *call) checkRetry(_ context.Context, resp *http.Response, err error) (bool, error) {
	came, err := k.read(resp, err)
	k.c.watch.remove(&k.bound)
	failure := err
	if urlErr, ok := err.(*url.Error); ok {
		failure = urlErr.Err // its URL would repeat what the caller says
	}
	var d Decision
	if ctxErr := k.ctx.Err(); ctxErr != nil && came != Usable {
		failure = ctxErr
	} else {
		d = k.decide(came, resp)
	}
	k.decision = d
	k.end(resp, came, err, failure, d)
	return d.Retry, nil
}

// read sorts what the attempt came to and reads its answer, while the
// attempt's context still holds: a 2xx is decoded into the request's Out
// (err is then why it could not be), and an error answer's body is kept,
// within MaxErrorBody, so that it reaches the caller whether the request is
// retried, given up on, or cancelled during the backoff. An answer's body
// is closed here.
func (k *call) read(resp *http.Response, err error) (Came, error) {
	switch {
	case resp == nil:
		// The attempt timeout ended the attempt when its context ended and
		// the caller's did not.
		timedOut := k.cancel != nil && k.attempt.Err() != nil && k.ctx.Err() == nil
		switch {
		case timedOut:
			return TimedOut, err
		case notSent(err):
			return NotSent, err
		case isRefusal(err):
			return Refused, err
		}
		return Failed, err
	case err != nil || resp.StatusCode < 200 || resp.StatusCode > 299:
		// An error answer, or the answer of a redirect the SDK refused
		// (whose body net/http has closed).
		data, _ := readBody(resp.Body, resp.ContentLength, MaxErrorBody, k.c.tooLarge) // what was read is what there is
		_ = resp.Body.Close()                                                          // an oversized body is not worth draining
		resp.Body = http.NoBody
		k.res.Failed = Answer{Status: resp.StatusCode, Header: resp.Header, Body: data}
		return Answered, err
	case k.req.Out == nil:
		closeBody(resp.Body) // the status is the answer
		resp.Body = http.NoBody
		return Usable, nil
	}
	data, err := readBody(resp.Body, resp.ContentLength, MaxSuccessBody, k.c.tooLarge)
	_ = resp.Body.Close()
	resp.Body = http.NoBody
	if err == nil {
		err = k.req.Decode(data, k.req.Out)
	}
	switch {
	case err == nil:
		return Usable, nil
	case errors.Is(err, k.c.tooLarge):
		return TooLarge, err
	}
	return Unusable, err
}

// decide asks the policy about the attempt, and takes a retry's cost from
// the budget.
func (k *call) decide(came Came, resp *http.Response) Decision {
	a := Attempt{
		Creating: k.req.Creating, Read: k.req.Method == http.MethodGet,
		Came: came, Number: k.res.Attempts, Deadline: k.timed,
		Budget: k.c.budget.Available(), Jitter: rand.Float64(),
	}
	if came == Answered {
		a.Status = resp.StatusCode
		a.RetryAfter, a.HasRetryAfter = ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	}
	if k.timed {
		a.Left = time.Until(k.deadline)
	}
	d := k.c.policy.Decide(a)
	if d.Retry && !k.c.budget.Take(d.Cost) {
		d = Decision{} // another goroutine took the last of it
	}
	k.spent += d.Cost
	return d
}

// end records what the attempt came to, failure being the Result's error,
// and tells the observer, with err, the attempt's own.
func (k *call) end(resp *http.Response, came Came, err, failure error, d Decision) {
	k.res.Came, k.res.Err = came, failure
	k.res.Last = Answer{}
	if came == Answered {
		k.res.Last = k.res.Failed
	} else if resp != nil {
		k.res.Last = Answer{Status: resp.StatusCode, Header: resp.Header}
	}
	k.res.EarlierActed = k.res.Acted
	k.res.Acted = k.res.Acted || MayHaveActed(came, k.res.Last.Status)
	if k.req.Observe != nil {
		k.req.Observe.EndAttempt(k.observed, Report{
			Number: k.res.Attempts, Came: came, Answer: k.res.Last, Err: err,
			Duration: time.Since(k.start), Retry: d.Retry, Reason: d.Reason,
		})
	}
}

// backoff is retryablehttp's Backoff, called when checkRetry has decided
// another attempt: the wait the policy chose with it.
func (k *call) backoff(time.Duration, time.Duration, int, *http.Response) time.Duration {
	return k.decision.Wait
}
