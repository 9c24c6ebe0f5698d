package dbcloud

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The retry rule is stated once, under "Retries" in the package
// documentation (doc.go). This file applies it to each attempt: checkRetry
// decides whether another attempt follows; the operations decide, from the
// outcome (caller.go), what a call's failure means.

// exchange is the state of one SDK call across its attempts. It is the
// request's context, wrapping the caller's, because retryablehttp's
// CheckRetry sees only the context, not the request; being the context
// itself saves the allocation of a context.WithValue per call.
type exchange struct {
	context.Context
	info CallInfo // for the observer
	// creating: the request makes a new resource, and is never repeated
	// once it may have acted.
	creating bool
	method   string
	path     string
	scrub    string // a caller's secret (UpdatePassword) to keep out of errors
	out      any    // where a 2xx body is decoded; nil: the status is the answer
	attempts int
	start    time.Time // of the current attempt
	lastErr  *APIError // from the last non-2xx response
	// answerErr is why the last 2xx could not be used: its body was cut
	// off, malformed or empty. It is found in checkRetry, so that a GET
	// whose answer was lost is read again like after any network error.
	answerErr error
	// acted: some attempt may have acted on the server (mayHaveActed);
	// earlierActed: one before the latest attempt may have.
	acted, earlierActed bool
	// The current attempt's context (see startAttempt), and what the
	// observer's StartAttempt returned, for its EndAttempt.
	attemptCtx    context.Context
	cancelAttempt context.CancelFunc
	attemptTimer  *time.Timer // cancels attemptCtx at the attempt timeout
	observed      context.Context
	// spent is what this call's retries took from the retry budget.
	spent int64
	// status and requestID are of the last answer; timedOut: the attempt
	// timeout ended the last attempt.
	status    int
	requestID string
	timedOut  bool
}

// errAttemptTimeout is the failure of an attempt that the attempt timeout
// ended.
var errAttemptTimeout = errors.New("attempt timed out")

// checkRetry is the retryablehttp.CheckRetry of every client. It reads each
// response while its body is still readable: a non-2xx into an *APIError, so
// the error reaches the caller intact whether the request is retried, given
// up on, or cancelled during the backoff that follows; a 2xx into the call's
// result, so a read whose answer was lost is read again. When it retries, it
// also sleeps the backoff: only it knows the call's deadline.
func (api *caller) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	x := ctx.(*exchange)
	x.earlierActed = x.acted
	acted := mayHaveActed(resp, err)
	x.acted = x.acted || acted
	retry, reason := false, ""
	x.status, x.requestID = 0, ""
	if resp != nil {
		x.status = resp.StatusCode
		x.requestID = resp.Header.Get("X-Request-Id")
	}
	switch {
	case err != nil:
		retry, reason = retryableError(err), "network error"
	case resp.StatusCode >= 200 && resp.StatusCode <= 299:
		x.answerErr = x.receive(resp)
		// Reading again is harmless; any other request's 2xx proves it took
		// effect, and repeating it would only conflict.
		retry = x.answerErr != nil && x.method == http.MethodGet && !errors.Is(x.answerErr, ErrResponseTooLarge)
		reason = "invalid answer"
		err = x.answerErr
	default:
		apiErr := api.newAPIError(resp, x)
		x.lastErr = apiErr
		retry = retryableStatus(resp.StatusCode) && !tooLongToWait(apiErr, api.waitMax)
		reason = "status " + strconv.Itoa(resp.StatusCode)
	}
	timedOut := x.endAttempt()
	x.timedOut = timedOut
	if timedOut {
		err, reason = errAttemptTimeout, "attempt timeout"
	}
	if ctxErr := x.Context.Err(); ctxErr != nil {
		api.endAttempt(x, err, false, "")
		return false, ctxErr
	}
	// A create is never repeated once it may have acted: a second one could
	// make a second, billed resource.
	if x.creating && acted {
		retry = false
	}
	var wait time.Duration
	if retry {
		wait, retry = api.nextWait(x, resp, timedOut)
	}
	if !retry {
		reason = ""
	}
	api.endAttempt(x, err, retry, reason)
	if retry {
		if err := sleep(x.Context, wait); err != nil {
			return false, err
		}
	}
	return retry, nil
}

// lastAttemptMin is the least time a retry after an honoured Retry-After
// must leave its attempt before the deadline. It is below attemptFloor,
// which keeps a long attempt from being cut while more time remains: here
// the deadline itself is what is left, and an attempt that may well be
// answered in a few hundred milliseconds beats returning the 429 at once.
const lastAttemptMin = 250 * time.Millisecond

// nextWait applies the limits of "Retries" (package documentation) to a
// retry that the failure allows: the call's count without a deadline, the
// time left with one, and the client's retry budget. It returns the backoff
// to sleep first.
func (api *caller) nextWait(x *exchange, resp *http.Response, timedOut bool) (time.Duration, bool) {
	if api.retryMax == 0 {
		return 0, false
	}
	wait, honoured := api.backoff(x.attempts-1, resp)
	if deadline, ok := x.Deadline(); ok {
		left := time.Until(deadline)
		switch {
		case honoured:
			// The server's wait cannot be shortened: it is slept when the
			// attempt after it still has lastAttemptMin.
			if left-wait < lastAttemptMin {
				return 0, false
			}
		case wait > left/2:
			// Our own backoff may use at most half of the time left, so
			// that the attempt after it has the other half.
			if left/2 <= 0 {
				return 0, false
			}
			wait = left / 2
		}
	} else if x.attempts > api.retryMax {
		return 0, false
	}
	cost := int64(retryCost)
	if timedOut {
		cost = timeoutCost
	}
	if !api.budget.take(cost) {
		return 0, false
	}
	x.spent += cost
	return wait, true
}

// mayHaveActed reports whether an attempt may have changed something on the
// server. It is the one place that sorts a failure into "may have happened"
// and "did not happen", for the retry rule, for ErrMaybeCreated and for
// reconciling a retry's answer:
//   - an answer of 2xx (it happened) or 5xx (the server or a proxy failed
//     somewhere, maybe after acting) may have acted;
//   - any other answer (a 4xx such as 409 or 429, a redirect) did not: the
//     API refuses before it changes anything;
//   - a connection error may have acted unless the request was never sent:
//     it failed while dialling or resolving the host, on a certificate, or
//     on a redirect the SDK refused (the first hop answered, so it did not
//     act). A reset or a timeout after sending may have acted.
func mayHaveActed(resp *http.Response, err error) bool {
	if err != nil {
		return !notSent(err) && !isCertError(err) && !isRedirectRefusal(err)
	}
	return resp.StatusCode >= 500 || (resp.StatusCode >= 200 && resp.StatusCode <= 299)
}

// retryableStatus reports an answer that a later attempt may get past.
func retryableStatus(status int) bool {
	switch status {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// tooLongToWait reports a Retry-After the caller should see rather than sleep.
func tooLongToWait(e *APIError, longest time.Duration) bool {
	return honoursRetryAfter(e.StatusCode) && e.RetryAfter > longest
}

func honoursRetryAfter(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
}

// retryableError reports a connection error that a later attempt may get
// past: not a refused redirect or a bad certificate, which would repeat.
func retryableError(err error) bool {
	return !isRedirectRefusal(err) && !isCertError(err)
}

// notSent reports a connection error that happened before any byte of the
// request was written (dial, DNS, proxy connect, a token source's failure).
func notSent(err error) bool {
	if _, ok := errors.AsType[*tokenError](err); ok {
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

// isRedirectRefusal reports a redirect the SDK refused (see redirectPolicy).
func isRedirectRefusal(err error) bool {
	_, ok := errors.AsType[*redirectError](err)
	return ok
}

// transportError wraps a failure that left no response to report: a network
// error after the last allowed attempt, or the context ending.
func (api *caller) transportError(x *exchange, err error) error {
	if urlErr, ok := errors.AsType[*url.Error](err); ok {
		err = urlErr.Err // its URL would repeat what the prefix says
	}
	if x.timedOut {
		// Not the caller's context.DeadlineExceeded: its deadline has not
		// passed.
		err = errAttemptTimeout
	}
	attempts := ""
	if x.attempts > 1 {
		attempts = fmt.Sprintf(" (after %d attempts)", x.attempts)
	}
	err = api.scrubError(err, x)
	switch {
	case x.lastErr == nil:
		return fmt.Errorf("dbcloud: %s %s%s: %w", x.method, x.path, attempts, err)
	case x.creating && x.acted:
		// An earlier 429 said nothing was created, but a later attempt may
		// have created it: its sentinel must not match.
		return fmt.Errorf("dbcloud: %s %s%s: %w; an earlier response: %v", x.method, x.path, attempts, err, x.lastErr)
	}
	// An earlier attempt got a response (a 503, say) before this network
	// error or the context's end, during the backoff: keep it.
	return fmt.Errorf("dbcloud: %s %s%s: %w; last response: %w", x.method, x.path, attempts, err, x.lastErr)
}

// errorHandler runs when retryablehttp stops on an error: after a network
// error or with the context's error. checkRetry already decided about
// retries, so it only releases the response.
func errorHandler(resp *http.Response, err error, _ int) (*http.Response, error) {
	if err == nil {
		return resp, nil
	}
	if resp != nil {
		closeBody(resp.Body)
	}
	return nil, err
}

// backoff is the wait before retry number retry+1: an honoured Retry-After
// (reported as such), else a wait drawn uniformly (full jitter) between the
// shortest wait and an exponential ceiling capped at the longest. checkRetry
// has already refused any Retry-After longer than the longest wait.
func (api *caller) backoff(retry int, resp *http.Response) (time.Duration, bool) {
	if resp != nil && honoursRetryAfter(resp.StatusCode) {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), api.now()); ok {
			return d, true
		}
	}
	lo, hi := api.waitMin, api.waitMax
	ceiling := hi
	if retry < 30 {
		if c := lo << (retry + 1); c > 0 && c < hi {
			ceiling = c
		}
	}
	if ceiling <= lo {
		return lo, false
	}
	return lo + rand.N(ceiling-lo+1), false
}

// maxRetryAfter bounds a parsed Retry-After so absurd values cannot overflow.
const maxRetryAfter = 365 * 24 * time.Hour

// parseRetryAfter reads Retry-After as delay-seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > int64(maxRetryAfter/time.Second) {
			return maxRetryAfter, true
		}
		return time.Duration(secs) * time.Second, true
	}
	at, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return min(max(at.Sub(now), 0), maxRetryAfter), true
}
