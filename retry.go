package dbcloud

import (
	"context"
	"crypto/tls"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"time"
)

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

// receive reads a 2xx response's body, leaving the response with an empty
// one, and decodes it into x.out. It reports a body that cannot be used.
func (x *exchange) receive(resp *http.Response) error {
	data, err := readBody(resp.Body, resp.ContentLength, maxSuccessBody)
	_ = resp.Body.Close()
	resp.Body = http.NoBody
	if x.out == nil {
		return nil // the status is the answer; a body, whole or not, adds nothing
	}
	if x.attempts > 1 {
		reflect.ValueOf(x.out).Elem().SetZero() // what an earlier attempt half-filled
	}
	if err != nil {
		return err
	}
	return decodeAnswer(data, x.out)
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
func (t *transport) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	x := exchangeFrom(ctx)
	x.attempts++
	x.earlierActed = x.acted
	acted := mayHaveActed(resp, err)
	x.acted = x.acted || acted
	if ctxErr := ctx.Err(); ctxErr != nil {
		t.logAttempt(ctx, x, resp, err, false)
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
		apiErr := t.newAPIError(resp, x)
		x.lastErr = apiErr
		retry = retryableStatus(resp.StatusCode) && !tooLongToWait(apiErr, t.waitMax)
	}
	// A create is never repeated once it may have acted: a second one could
	// make a second, billed resource.
	if x.creating && acted {
		retry = false
	}
	// Deciding here, not in retryablehttp, that retries ran out makes it
	// return the last response rather than a generic "giving up" error.
	retry = retry && x.attempts <= t.retryMax
	t.logAttempt(ctx, x, resp, err, retry)
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
		var redirect *redirectError
		return !notSent(err) && !isCertError(err) && !errors.As(err, &redirect)
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
func tooLongToWait(e *APIError, max time.Duration) bool {
	return honoursRetryAfter(e.StatusCode) && e.RetryAfter > max
}

func honoursRetryAfter(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
}

// retryableError reports a connection error that a later attempt may get
// past: not a refused redirect or a bad certificate, which would repeat.
func retryableError(err error) bool {
	var redirect *redirectError
	return !errors.As(err, &redirect) && !isCertError(err)
}

// notSent reports a connection error that happened before any byte of the
// request was written (dial, DNS, proxy connect).
func notSent(err error) bool {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return true
	}
	var opErr *net.OpError
	return errors.As(err, &opErr) && (opErr.Op == "dial" || opErr.Op == "proxyconnect")
}

func isCertError(err error) bool {
	var certErr *tls.CertificateVerificationError
	return errors.As(err, &certErr)
}

// backoff is retryablehttp's Backoff: an honoured Retry-After, else a wait
// drawn uniformly (full jitter) between lo and an exponential ceiling capped
// at hi. checkRetry has already refused any Retry-After longer than hi.
func (t *transport) backoff(lo, hi time.Duration, retry int, resp *http.Response) time.Duration {
	if resp != nil && honoursRetryAfter(resp.StatusCode) {
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), t.now()); ok {
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
