package dbcloud

import (
	"context"
	"crypto/tls"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// requestKind decides what may be retried. A request that creates something
// is not retried once it may have reached the server: a repeated create can
// make a second, billed service.
type requestKind uint8

const (
	// repeatable requests have the same effect when sent twice: every GET and
	// DELETE, and the POSTs that set state (start, stop, resize, ...).
	repeatable requestKind = iota
	// creating requests make a new resource: create service, forkService,
	// create replica set.
	creating
)

// exchange is the state of one SDK call across its attempts. It is the
// request's context, wrapping the caller's, because retryablehttp's
// CheckRetry sees only the context, not the request; being the context
// itself saves the allocation of a context.WithValue per call.
type exchange struct {
	context.Context
	kind     requestKind
	method   string
	path     string
	scrub    string // a caller's secret (UpdatePassword) to keep out of errors
	attempts int
	start    time.Time // of the current attempt, for logs
	lastErr  *APIError // from the last non-2xx response
	// body and bodyErr are the last 2xx response's body, read in checkRetry
	// so that a GET whose body is cut off mid-way is retried like any
	// network error.
	body    []byte
	bodyErr error
}

// keepBody reads a 2xx response's body into x and leaves the response with
// an empty one.
func (x *exchange) keepBody(resp *http.Response) {
	x.body, x.bodyErr = readBody(resp.Body, resp.ContentLength, maxSuccessBody)
	_ = resp.Body.Close()
	resp.Body = http.NoBody
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

// checkRetry is the retryablehttp.CheckRetry of every client. It turns each
// non-2xx response into an *APIError while the body is still readable, so
// the error reaches the caller intact whether the request is retried, given
// up on, or cancelled during the backoff that follows.
func (t *transport) checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	x := exchangeFrom(ctx)
	x.attempts++
	if ctxErr := ctx.Err(); ctxErr != nil {
		t.logAttempt(ctx, x, resp, err, false)
		return false, ctxErr
	}
	retry := false
	switch {
	case err != nil:
		retry = retryableError(x.kind, err)
	case resp.StatusCode >= 200 && resp.StatusCode <= 299:
		x.keepBody(resp)
		// Only a read is repeated for a lost body: a 2xx to anything else
		// proves it took effect, and repeating it would only conflict.
		retry = x.bodyErr != nil && x.method == http.MethodGet && !errors.Is(x.bodyErr, ErrResponseTooLarge)
		if x.bodyErr != nil {
			err = x.bodyErr // for the log record, retried or not
		}
	default:
		apiErr := t.newAPIError(resp, x)
		x.lastErr = apiErr
		retry = retryableStatus(x.kind, resp.StatusCode) && !tooLongToWait(apiErr, t.waitMax)
	}
	// Deciding here, not in retryablehttp, that retries ran out makes it
	// return the last response rather than a generic "giving up" error.
	retry = retry && x.attempts <= t.retryMax
	t.logAttempt(ctx, x, resp, err, retry)
	return retry, nil
}

func retryableStatus(kind requestKind, status int) bool {
	switch status {
	case http.StatusTooManyRequests:
		return true
	case http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return kind == repeatable
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

func retryableError(kind requestKind, err error) bool {
	var redirect *redirectError
	if errors.As(err, &redirect) || isCertError(err) {
		return false
	}
	if kind == creating {
		return notSent(err)
	}
	return true
}

// notSent reports a connection error that happened before any byte of the
// request was written (dial, DNS, proxy connect): the only transport error
// after which a create may be repeated.
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
