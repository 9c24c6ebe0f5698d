package dbcloud

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The retry rule. Every request is one of two kinds:
//
//   - Safe to repeat (every GET and DELETE, and the POSTs that set state:
//     start, stop, resize, setHA, the pooler, VPC, password and environment
//     calls): retried on network errors and on 429, 500, 502, 503 and 504.
//   - Creating (create service, forkService, create replica set): retried on
//     429 and on connection errors from before the request was sent, never
//     once it may have acted (mayHaveActed), since a second create can make
//     a second, billed resource.
//
// Backoff is exponential with full jitter between the WithRetryWait bounds;
// a Retry-After on 429 and 503 is honoured, and one longer than the maximum
// wait is returned to the caller instead of slept. checkRetry decides each
// attempt; conclude decides, once the attempts are over, what the call
// means: a create that may have acted is ErrMaybeCreated, and a retry's 404
// or 409 that proves an earlier attempt did the work is a success.

// exchange is the state of one SDK call across its attempts. It is the
// request's context, wrapping the caller's, because retryablehttp's
// CheckRetry sees only the context, not the request; being the context
// itself saves the allocation of a context.WithValue per call.
type exchange struct {
	context.Context
	// creating: the request makes a new resource (create service,
	// forkService, create replica set). It is not retried once it may have
	// acted: a repeated create can make a second, billed service. Every
	// other request has the same effect when sent twice.
	creating bool
	method   string
	path     string
	scrub    string // a caller's secret (UpdatePassword) to keep out of errors
	out      any    // where a 2xx body is decoded; nil: the status is the answer
	attempts int
	start    time.Time // of the current attempt, for logs
	lastErr  *APIError // from the last non-2xx response
	// answerErr is why the last 2xx could not be used: its body was cut
	// off, malformed or empty. It is found in checkRetry, so that a GET
	// whose answer was lost is read again like after any network error.
	answerErr error
	// acted: some attempt may have acted on the server (mayHaveActed);
	// earlierActed: one before the latest attempt may have.
	acted, earlierActed bool
}

type exchangeKey struct{}

// Value makes the exchange findable by exchangeFrom.
func (x *exchange) Value(key any) any {
	if key == (exchangeKey{}) {
		return x
	}
	return x.Context.Value(key)
}

func exchangeFrom(ctx context.Context) *exchange {
	x, _ := ctx.Value(exchangeKey{}).(*exchange)
	return x
}

// checkRetry is the retryablehttp.CheckRetry of every client. It reads each
// response while its body is still readable: a non-2xx into an *APIError, so
// the error reaches the caller intact whether the request is retried, given
// up on, or cancelled during the backoff that follows; a 2xx into the call's
// result, so a read whose answer was lost is read again.
func (api *caller) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	x := exchangeFrom(ctx)
	x.attempts++
	x.earlierActed = x.acted
	acted := mayHaveActed(resp, err)
	x.acted = x.acted || acted
	if ctxErr := ctx.Err(); ctxErr != nil {
		api.logAttempt(ctx, x, resp, err, false)
		return false, ctxErr
	}
	retry := false
	switch {
	case err != nil:
		retry = retryableError(err)
	case resp.StatusCode >= 200 && resp.StatusCode <= 299:
		x.answerErr = x.receive(resp)
		// Reading again is harmless; any other request's 2xx proves it took
		// effect, and repeating it would only conflict.
		retry = x.answerErr != nil && x.method == http.MethodGet && !errors.Is(x.answerErr, ErrResponseTooLarge)
		err = x.answerErr // for the log record, retried or not
	default:
		apiErr := api.newAPIError(resp, x)
		x.lastErr = apiErr
		retry = retryableStatus(resp.StatusCode) && !tooLongToWait(apiErr, api.waitMax)
	}
	// A create is never repeated once it may have acted: a second one could
	// make a second, billed resource.
	if x.creating && acted {
		retry = false
	}
	// Deciding here, not in retryablehttp, that retries ran out makes it
	// return the last response rather than a generic "giving up" error.
	retry = retry && x.attempts <= api.retryMax
	api.logAttempt(ctx, x, resp, err, retry)
	return retry, nil
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

// conclude settles what a call's outcome means once its attempts are over.
// A create that may have acted becomes a *MaybeCreatedError. A repeatable
// request whose earlier attempt may have acted, and whose last attempt got a
// 404 or 409, asks r.confirm whether that answer proves the earlier attempt
// took effect; if so the call succeeds. A first attempt's own 404 or 409 is
// never reconciled: it is the truth about the request.
func (api *caller) conclude(ctx context.Context, x *exchange, r request, err error) error {
	switch {
	case err == nil:
		return nil
	case x.creating && x.acted:
		return &MaybeCreatedError{Resource: r.creates, Err: err}
	case r.confirm != nil && x.earlierActed && err == error(x.lastErr) &&
		(x.lastErr.StatusCode == http.StatusNotFound || x.lastErr.StatusCode == http.StatusConflict):
		if r.confirm(ctx, x.lastErr) {
			api.logInfo(ctx, "dbcloud: an earlier attempt took effect",
				slog.String("method", x.method), slog.String("path", x.path),
				slog.Int("attempts", x.attempts), slog.Int("status", x.lastErr.StatusCode))
			return nil
		}
	}
	return err
}

// transportError wraps a failure that left no response to report: a network
// error after the last allowed attempt, or the context ending.
func (api *caller) transportError(x *exchange, err error) error {
	if urlErr, ok := errors.AsType[*url.Error](err); ok {
		err = urlErr.Err // its URL would repeat what the prefix says
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

// backoff is retryablehttp's Backoff: an honoured Retry-After, else a wait
// drawn uniformly (full jitter) between lo and an exponential ceiling capped
// at hi. checkRetry has already refused any Retry-After longer than hi.
func (api *caller) backoff(lo, hi time.Duration, retry int, resp *http.Response) time.Duration {
	if resp != nil && honoursRetryAfter(resp.StatusCode) {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), api.now()); ok {
			return d
		}
	}
	ceiling := hi
	if retry < 30 {
		if c := lo << (retry + 1); c > 0 && c < hi {
			ceiling = c
		}
	}
	if ceiling <= lo {
		return lo
	}
	return lo + rand.N(ceiling-lo+1)
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
