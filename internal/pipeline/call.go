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
//	checkRetry     (CheckRetry) to read what it came to and end it: a usable 2xx
//	               ends the call, and only a failure (failed) is put to the policy (decide),
//	backoff        (Backoff) for the wait the policy chose, when another follows;
//	Do             then settles the retry budget and returns the Result.
type call struct {
	c  *Client
	rc retryablehttp.Client
	hc http.Client
	state
}

// state is what one call holds: the call value's fields that Do clears
// before it puts the value back in the pool.
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
	k := c.calls.Get().(*call)
	k.req, k.ctx = r, ctx
	k.deadline, k.timed = ctx.Deadline()
	// checkRetry has recorded every attempt; Do's error is read only when
	// it returned during a backoff, which only the context's end does.
	if _, err := k.rc.Do(req); k.decision.Retry {
		k.res.Err = err
	}
	res, spent := k.res, k.spent
	// The call value goes back to the pool holding nothing of this call.
	// One that a panic (an observer's, a transport's) unwinds is left to
	// the collector instead: the watch forgets its bound, if one was in
	// flight, at its deadline.
	k.state = state{}
	c.calls.Put(k)
	// A usable 2xx, whose Err is nil, gives back to the budget what the
	// retries before it took, or earns a little on its first attempt.
	if res.Came == Usable {
		if spent == 0 {
			spent = SuccessGain
		}
		c.budget.Give(spent)
	}
	return res
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
		// A context of the attempt's own, which the client's watch cancels
		// once d has passed since the attempt started.
		var cancel context.CancelFunc
		k.attempt, cancel = context.WithCancel(k.observed)
		k.bound = bound{deadline: k.start.Sub(k.c.watch.epoch) + d, cancel: cancel}
		k.c.watch.add(&k.bound)
	}
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
// with what its http.Client returned. It reads the answer while the
// attempt's context still holds: a 2xx is decoded into the request's Out
// (err is then why it could not be), anything else is sorted by failed.
// Then it ends the attempt's bound, asks the policy whether another
// attempt follows only when this one failed (decide), and records what it
// came to in the call's Result, telling the observer. It returns no
// error: the Result holds the attempt's.
func (k *call) checkRetry(_ context.Context, resp *http.Response, err error) (bool, error) {
	came := Usable
	switch {
	case err != nil || resp.StatusCode < 200 || resp.StatusCode > 299:
		came, err = k.failed(resp, err)
	case k.req.Out == nil:
		closeBody(resp.Body) // the status is the answer
		resp.Body = http.NoBody
	default:
		var data []byte
		data, err = readBody(resp.Body, resp.ContentLength, MaxSuccessBody, k.c.tooLarge)
		_ = resp.Body.Close()
		resp.Body = http.NoBody
		if err == nil {
			err = k.req.Decode(data, k.req.Out)
		}
		if err != nil {
			came = Unusable
			if errors.Is(err, k.c.tooLarge) {
				came = TooLarge
			}
		}
	}
	k.c.watch.remove(&k.bound)
	failure, d := err, Decision{}
	if came != Usable {
		d, failure = k.decide(came, resp, err)
	}
	k.decision = d
	k.res.Came, k.res.Err, k.res.Last = came, failure, Answer{}
	if came == Answered {
		k.res.Last = k.res.Failed
	} else if resp != nil {
		k.res.Last = Answer{Status: resp.StatusCode, Header: resp.Header}
	}
	// A usable 2xx has acted; MayHaveActed sorts the failures.
	k.res.EarlierActed = k.res.Acted
	k.res.Acted = k.res.Acted || came == Usable || MayHaveActed(came, k.res.Last.Status)
	if k.req.Observe != nil {
		k.req.Observe.EndAttempt(k.observed, Report{
			Number: k.res.Attempts, Came: came, Answer: k.res.Last, Err: err,
			Duration: time.Since(k.start), Retry: d.Retry, Reason: d.Reason,
		})
	}
	return d.Retry, nil
}

// failed sorts an attempt that brought no 2xx: a connection error by what
// it means for a retry, and an error answer (or the answer of a redirect
// the SDK refused, whose body net/http has closed), whose body is kept,
// within MaxErrorBody, so that it reaches the caller whether the request
// is retried, given up on, or cancelled during the backoff.
func (k *call) failed(resp *http.Response, err error) (Came, error) {
	if resp != nil {
		data, _ := readBody(resp.Body, resp.ContentLength, MaxErrorBody, k.c.tooLarge) // what was read is what there is
		_ = resp.Body.Close()                                                          // an oversized body is not worth draining
		resp.Body = http.NoBody
		k.res.Failed = Answer{Status: resp.StatusCode, Header: resp.Header, Body: data}
		return Answered, err
	}
	switch {
	case k.cancel != nil && k.attempt.Err() != nil && k.ctx.Err() == nil:
		// The attempt timeout ended the attempt: its context ended, and
		// the caller's did not.
		return TimedOut, err
	case notSent(err):
		return NotSent, err
	case isRefusal(err):
		return Refused, err
	}
	return Failed, err
}

// decide is about an attempt that failed: whether another follows, as the
// policy decides, its cost taken from the budget; and the failure the
// Result reports, which is the caller's context's end when that came
// first: then nothing follows.
func (k *call) decide(came Came, resp *http.Response, err error) (Decision, error) {
	if ctxErr := k.ctx.Err(); ctxErr != nil {
		return Decision{}, ctxErr
	}
	if urlErr, ok := err.(*url.Error); ok {
		err = urlErr.Err // its URL would repeat what the caller says
	}
	a := Attempt{
		Creating: k.req.Creating, Read: k.req.Reads || k.req.Method == http.MethodGet,
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
	return d, err
}

// backoff is retryablehttp's Backoff, called when checkRetry has decided
// another attempt: the wait the policy chose with it.
func (k *call) backoff(time.Duration, time.Duration, int, *http.Response) time.Duration {
	return k.decision.Wait
}
