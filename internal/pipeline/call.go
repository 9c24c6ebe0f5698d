package pipeline

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Request is one request to send.
type Request struct {
	Method string
	URL    string
	Body   []byte // sent whole on every attempt; nil: no body
	// Creating: the request makes a new resource, and is never repeated
	// once it may have acted (see Policy.Decide).
	Creating bool
	// Out receives a 2xx body through Decode; a nil Out means the status is
	// the answer, and the body is not read.
	Out    any
	Decode func(data []byte, out any) error
	// Observe, when not nil, is told of each attempt.
	Observe Observer
}

// Observer is told of each attempt of a request, on the calling goroutine.
type Observer interface {
	// StartAttempt is called before attempt n is sent; the context it
	// returns is the attempt's.
	StartAttempt(ctx context.Context, n int) context.Context
	// EndAttempt is called with the context StartAttempt returned once
	// the attempt's outcome is known.
	EndAttempt(ctx context.Context, a Report)
}

// Report is what one attempt came to, for an Observer.
type Report struct {
	Number   int
	Came     Came
	Answer   Answer        // the answer, when one came (Status 0: none)
	Err      error         // the connection error, or why a 2xx was unusable
	Duration time.Duration // of the attempt
	Retry    bool          // another attempt follows
	Reason   string        // why it is retried
}

// Answer is an HTTP answer as the attempts keep it: the body is read (an
// error answer's, within MaxErrorBody) when the answer is not a usable 2xx.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// Result is what the attempts of one request came to.
type Result struct {
	Attempts int
	// Came is what the last attempt came to, and Err its failure: the
	// connection or context error, or why its 2xx was unusable; nil for an
	// answer (a usable 2xx, or an error answer in Answer).
	Came Came
	Err  error
	// Last is the last answer (Status 0 when none came); Failed is the
	// last error answer, kept when a connection error came after it.
	Last, Failed Answer
	// Acted: some attempt may have acted on the server (MayHaveActed);
	// EarlierActed: one before the last may have.
	Acted, EarlierActed bool
}

// OK reports a usable 2xx.
func (r *Result) OK() bool { return r.Err == nil && r.Came == Usable }

// call is one request in progress: the plain value that owns its state
// across attempts. retryablehttp calls its methods as hooks.
type call struct {
	c       *Client
	rc      retryablehttp.Client
	hc      http.Client
	handler retryablehttp.ResponseHandlerFunc
	state
}

// state is what one call holds: the call value's fields that release
// clears.
type state struct {
	req      Request
	ctx      context.Context // the caller's
	deadline time.Time
	timed    bool // the caller's context has a deadline

	// The current attempt: when it started, its context (with the attempt
	// timeout and what the observer added), and what ends it.
	start      time.Time
	attemptCtx context.Context
	cancel     context.CancelFunc
	timer      *time.Timer
	decided    bool // checkRetry has decided about the attempt
	wait       time.Duration
	spent      int64 // what the retries took from the budget

	res Result
}

// Do sends r, with retries as the policy decides, and returns what the
// attempts came to. A usable 2xx has been decoded into r.Out.
func (c *Client) Do(ctx context.Context, r Request) Result {
	k := c.calls.Get().(*call)
	defer c.release(k)
	k.req, k.ctx = r, ctx
	k.deadline, k.timed = ctx.Deadline()
	if err := k.tokenFirst(); err != nil {
		return Result{Came: NotSent, Err: err}
	}
	var body any // untyped nil without a payload: a typed []byte(nil) would give a GET a chunked empty body
	if r.Body != nil {
		body = r.Body
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, r.Method, r.URL, body)
	if err != nil {
		return Result{Came: Refused, Err: err}
	}
	req.SetResponseHandler(k.handler)
	k.rc.RetryMax = c.policy.countCap(k.timed)
	resp, err := k.rc.Do(req)
	k.endAttempt() // when the context ended before a hook could
	res := k.res
	switch {
	case err != nil:
		if urlErr, ok := errors.AsType[*url.Error](err); ok {
			err = urlErr.Err // its URL would repeat what the caller says
		}
		res.Err = err
	case resp.StatusCode >= 200 && resp.StatusCode <= 299:
		if k.spent > 0 {
			c.budget.Give(k.spent)
		} else {
			c.budget.Give(SuccessGain)
		}
	}
	return res
}

// release returns k to the pool, holding nothing of its call.
func (c *Client) release(k *call) {
	k.state = state{}
	c.calls.Put(k)
}

// tokenFirst gets a call's token before its first attempt, waiting no
// longer than the caller's context and the attempt timeout allow. A token
// source's failure or delay is then the call's error before anything is
// sent: inside an attempt, net/http would rewrite an error that comes after
// its Client.Timeout into text, and the SDK could no longer tell that the
// request never left. Static credentials have nothing to fetch.
func (k *call) tokenFirst() error {
	a, ok := k.c.auth.(*tokenAuth)
	if !ok {
		return nil
	}
	ctx := k.ctx
	d := k.c.policy.AttemptTimeout(k.req.Creating, k.timed, time.Until(k.deadline))
	if t := k.hc.Timeout; t > 0 && (d == 0 || t < d) {
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

// startAttempt runs before each attempt (retryablehttp's RequestLogHook):
// it counts the attempt, tells the observer, and gives the attempt its own
// context with the attempt timeout, which endAttempt releases.
func (k *call) startAttempt(retryablehttp.Logger, *http.Request, int) {
	k.res.Attempts++
	k.start = time.Now()
	k.decided = false
	ctx := k.ctx
	if k.req.Observe != nil {
		ctx = k.req.Observe.StartAttempt(ctx, k.res.Attempts)
	}
	if d := k.c.policy.AttemptTimeout(k.req.Creating, k.timed, time.Until(k.deadline)); d > 0 {
		// A cancel and a timer rather than context.WithTimeout: one
		// allocation less per attempt. The attempt's context has no
		// Deadline, which nothing below needs: net/http and the dialer
		// follow its cancellation.
		ctx, k.cancel = context.WithCancel(ctx)
		k.timer = time.AfterFunc(d, k.cancel)
	}
	k.attemptCtx = ctx
}

// endAttempt releases the attempt's context once its answer has been read.
func (k *call) endAttempt() {
	if k.cancel == nil {
		return
	}
	k.timer.Stop()
	k.cancel()
	k.timer, k.cancel = nil, nil
}

// handle is the response handler: retryablehttp calls it with an answer
// that checkRetry did not retry. A 2xx body is read and decoded here, on
// the way back; an error returned sends the answer back to checkRetry as
// unusable, so that a read whose answer was lost is read again.
func (k *call) handle(resp *http.Response) error {
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil // checkRetry has read it
	}
	if k.req.Out == nil {
		closeBody(resp.Body) // the status is the answer
		resp.Body = http.NoBody
		k.finish(resp, Usable, nil, Decision{})
		return nil
	}
	data, err := readBody(resp.Body, resp.ContentLength, MaxSuccessBody, k.c.tooLarge)
	_ = resp.Body.Close()
	resp.Body = http.NoBody
	if err == nil {
		err = k.req.Decode(data, k.req.Out)
	}
	if err == nil {
		k.finish(resp, Usable, nil, Decision{})
	}
	return err
}

// checkRetry is retryablehttp's CheckRetry: it sorts what the attempt came
// to and asks the policy whether another attempt follows. retryablehttp
// asks it again after handle, with handle's error: a 2xx is decided then
// (it comes back only as unusable), any other answer before.
func (k *call) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if k.decided || (err == nil && resp.StatusCode >= 200 && resp.StatusCode <= 299) {
		return false, nil
	}
	k.decided = true
	came := k.came(resp, err)
	if ctxErr := ctx.Err(); ctxErr != nil {
		k.finish(resp, came, err, Decision{})
		return false, ctxErr
	}
	status, retryAfter, hasRetryAfter := 0, time.Duration(0), false
	if resp != nil {
		status = resp.StatusCode
	}
	if came == Answered {
		retryAfter, hasRetryAfter = ParseRetryAfter(resp.Header.Get("Retry-After"), k.c.now())
	}
	d := k.c.policy.Decide(Attempt{
		Creating: k.req.Creating, Read: k.req.Method == http.MethodGet,
		Came: came, Status: status, RetryAfter: retryAfter, HasRetryAfter: hasRetryAfter,
		Number: k.res.Attempts, Deadline: k.timed, Left: time.Until(k.deadline),
		Budget: k.c.budget.Available(),
	})
	if d.Retry && !k.c.budget.Take(d.Cost) {
		d = Decision{} // another goroutine took the last of it
	}
	k.spent += d.Cost
	k.wait = d.Wait
	k.finish(resp, came, err, d)
	return d.Retry, nil
}

// backoff is retryablehttp's Backoff: the wait checkRetry decided.
func (k *call) backoff(time.Duration, time.Duration, int, *http.Response) time.Duration {
	return k.wait
}

// came sorts what the attempt came to, reading an error answer's body
// while it is still readable, so that it reaches the caller intact whether
// the request is retried, given up on, or cancelled during the backoff.
func (k *call) came(resp *http.Response, err error) Came {
	// The attempt timeout ended the attempt when its context ended and the
	// caller's did not; finish releases the context once the body is read.
	timedOut := k.cancel != nil && k.attemptCtx.Err() != nil && k.ctx.Err() == nil
	switch {
	case resp != nil && resp.StatusCode >= 200 && resp.StatusCode <= 299:
		if errors.Is(err, k.c.tooLarge) {
			return TooLarge
		}
		return Unusable
	case resp != nil:
		data, _ := readBody(resp.Body, resp.ContentLength, MaxErrorBody, k.c.tooLarge) // what was read is what there is
		_ = resp.Body.Close()                                                          // an oversized body is not worth draining
		resp.Body = http.NoBody
		k.res.Failed = Answer{Status: resp.StatusCode, Header: resp.Header, Body: data}
		return Answered
	case timedOut:
		return TimedOut
	case notSent(err):
		return NotSent
	case isRefusal(err):
		return Refused
	}
	return Failed
}

// finish records the end of an attempt and tells the observer.
func (k *call) finish(resp *http.Response, came Came, err error, d Decision) {
	k.endAttempt()
	k.res.Came = came
	k.res.Last = Answer{}
	if resp != nil {
		k.res.Last = Answer{Status: resp.StatusCode, Header: resp.Header}
		if came == Answered {
			k.res.Last = k.res.Failed
		}
	}
	acted := MayHaveActed(came, k.res.Last.Status)
	k.res.EarlierActed = k.res.Acted
	k.res.Acted = k.res.Acted || acted
	if k.req.Observe != nil {
		k.req.Observe.EndAttempt(k.attemptCtx, Report{
			Number: k.res.Attempts, Came: came, Answer: k.res.Last, Err: err,
			Duration: time.Since(k.start), Retry: d.Retry, Reason: d.Reason,
		})
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
	ctx := k.attemptCtx
	if ctx == nil {
		ctx = r.Context()
	}
	c := k.c
	var value []string
	ours := r.URL.Scheme == c.scheme && strings.EqualFold(r.URL.Host, c.host)
	if ours {
		var err error
		if value, err = c.auth.authorization(ctx); err != nil {
			if r.Body != nil {
				_ = r.Body.Close() // a RoundTripper closes the body, even on error
			}
			return nil, err
		}
	}
	resp, err := c.base.RoundTrip(c.prepare(r, ctx, value))
	if ours && err == nil && resp.StatusCode == http.StatusUnauthorized {
		resp, err = c.refreshed(r, ctx, value, resp)
	}
	if err == nil && resp.StatusCode == http.StatusSwitchingProtocols {
		_ = resp.Body.Close()
		resp.Body = http.NoBody
	}
	return resp, err
}

// headerJSON is shared by every request: net/http only reads header values.
var headerJSON = []string{"application/json"}

// prepare returns the copy of r that is sent: under ctx, with the SDK's
// headers and, when not nil, the Authorization value. A RoundTripper must
// not change the request it was given.
func (c *Client) prepare(r *http.Request, ctx context.Context, authorization []string) *http.Request {
	out := r.WithContext(ctx)
	h := make(http.Header, len(r.Header)+4)
	for k, v := range r.Header {
		h[k] = v // a redirect's Referer, say
	}
	h["Accept"] = headerJSON
	h["User-Agent"] = c.userAgent
	if r.ContentLength != 0 || (r.Body != nil && r.Body != http.NoBody) {
		h["Content-Type"] = headerJSON
	}
	if authorization != nil {
		h["Authorization"] = authorization
	}
	out.Header = h
	return out
}

// refreshed answers a 401 to the credential value refused: with a fresh
// token, r is sent once more and that answer replaces the 401; when there
// is none (a static credential, a source that failed or gave the same
// token again) or the body cannot be sent again, the 401 is the answer.
// Never more than once: a second 401 is the caller's.
func (c *Client) refreshed(r *http.Request, ctx context.Context, refused []string, resp *http.Response) (*http.Response, error) {
	fresh, ok := c.auth.refresh(ctx, refused)
	if !ok || (r.Body != nil && r.Body != http.NoBody && r.GetBody == nil) {
		return resp, nil
	}
	again := c.prepare(r, ctx, fresh)
	if r.GetBody != nil {
		body, err := r.GetBody()
		if err != nil {
			return resp, nil
		}
		again.Body = body
	}
	// The 401's body is dropped: the answer to the fresh token replaces it.
	_, _ = io.CopyN(io.Discard, resp.Body, 4<<10)
	_ = resp.Body.Close()
	return c.base.RoundTrip(again)
}

// notSent reports a connection error that happened before any byte of the
// request was written (dial, DNS, proxy connect, a token source's failure).
func notSent(err error) bool {
	if _, ok := errors.AsType[*TokenError](err); ok {
		return true
	}
	if _, ok := errors.AsType[*net.DNSError](err); ok {
		return true
	}
	opErr, ok := errors.AsType[*net.OpError](err)
	return ok && (opErr.Op == "dial" || opErr.Op == "proxyconnect")
}

func isCertError(err error) bool {
	_, ok := errors.AsType[*tls.CertificateVerificationError](err)
	return ok
}
