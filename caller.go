package dbcloud

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// caller makes every API call of a Client: it has retryablehttp run the
// attempts under the retry rule (retry.go), and returns their outcome for
// the operation to decide what it means. It is immutable after NewClient
// (the retry budget is atomic), so a Client is safe for concurrent use.
type caller struct {
	base string // scheme://host/.../v1, no trailing slash
	key  credential
	rc   *retryablehttp.Client
	// roundTripper is the transport of the attempts' client, for
	// Client.CloseIdleConnections.
	roundTripper http.RoundTripper
	retryMax     int
	waitMin      time.Duration
	waitMax      time.Duration
	attemptMax   time.Duration // WithAttemptTimeout
	budget       *retryBudget  // WithRetryBudget; nil: unlimited
	recovery     bool          // WithCreateRecovery
	settle       time.Duration // WithCreateSettle
	logger       *slog.Logger
	observer     Observer // WithObserver; nil observes nothing
	now          func() time.Time
	projectID    string        // WithProjectID, DBCLOUD_PROJECT_ID
	readOnly     readOnlyMode  // WithReadOnly, WithReadOnlyProd
	pollFirst    time.Duration // WithDefaultPollInterval
	pollLongest  time.Duration
}

// request describes one API request.
type request struct {
	info   CallInfo // the operation, for the observer
	method string
	path   string // escaped, after the base URL
	query  url.Values
	body   any    // encoded as JSON; nil means no body
	scrub  string // a secret of this call to keep out of errors
	// creates names what a request that makes a new resource makes
	// ("service", "replica set"); "" for every other request.
	creates string
}

// outcome is what the attempts of one request came to, for the operation
// to decide what it means.
type outcome struct {
	// err is the failure of the last attempt (an *APIError, a network
	// error, a *ResponseError), or nil for a usable 2xx.
	err error
	// lastErr is the last non-2xx answer, even if a network error followed.
	lastErr *APIError
	// acted: some attempt may have acted on the server; earlierActed: one
	// before the last may have.
	acted, earlierActed bool
	attempts            int
	elapsed             time.Duration
	// status and requestID are the last answer's; 0 and "" if none came.
	status    int
	requestID string
}

// answeredByEarlier reports a retry answered 404 or 409 after an earlier
// attempt may have acted: the earlier attempt may have done the work, and
// the operation can read the resource to find out. A first attempt's own
// 404 or 409 is never such an answer: it is the truth about the request.
func (o *outcome) answeredByEarlier() bool {
	return o.earlierActed && o.lastErr != nil && o.err == error(o.lastErr) &&
		(o.lastErr.StatusCode == http.StatusNotFound || o.lastErr.StatusCode == http.StatusConflict)
}

// failure is the error a caller gets for o when the operation has nothing
// to reconcile.
func (api *caller) failure(r request, o *outcome) error {
	if o.err != nil && r.creates != "" && o.acted {
		return &MaybeCreatedError{Resource: r.creates, Err: o.err}
	}
	return o.err
}

// send runs the attempts of one request through retryablehttp and returns
// their outcome.
func (api *caller) send(ctx context.Context, r request, out any) outcome {
	start := api.now()
	if err := ctx.Err(); err != nil {
		return outcome{err: fmt.Errorf("dbcloud: %s %s: %w", r.method, r.path, err)}
	}
	x := &exchange{Context: ctx, info: r.info, creating: r.creates != "", method: r.method, path: r.path, scrub: r.scrub, out: out}
	err := api.attempts(x, r)
	if err == nil {
		if x.spent > 0 {
			api.budget.give(x.spent)
		} else {
			api.budget.give(successGain)
		}
	}
	return outcome{err: err, lastErr: x.lastErr, acted: x.acted, earlierActed: x.earlierActed,
		attempts: x.attempts, elapsed: api.now().Sub(start), status: x.status, requestID: x.requestID}
}

// attempts sends r's attempts and returns why the last one failed, or nil.
func (api *caller) attempts(x *exchange, r request) error {
	u := api.base + r.path
	if len(r.query) > 0 {
		u += "?" + r.query.Encode()
	}
	// body stays an untyped nil without a payload: a typed []byte(nil) would
	// give a GET a chunked empty body.
	var body any
	if r.body != nil {
		b, err := json.Marshal(r.body)
		if err != nil {
			return fmt.Errorf("dbcloud: %s %s: encoding body: %w", r.method, r.path, err)
		}
		body = b // []byte: retryablehttp resends it whole on every attempt
	}
	req, err := retryablehttp.NewRequestWithContext(x, r.method, u, body)
	if err != nil {
		return fmt.Errorf("dbcloud: %s %s: %w", r.method, r.path, err)
	}
	if err := api.tokenFirst(x); err != nil {
		return fmt.Errorf("dbcloud: %s %s: %w", r.method, r.path, api.scrubError(err, x))
	}
	resp, err := api.rc.Do(req)
	if err != nil {
		if x.cancelAttempt != nil { // the context ended before checkRetry ran
			x.endAttempt()
		}
		return api.transportError(x, err)
	}
	// checkRetry has read and closed the body, into x.lastErr or x.out.
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return x.lastErr
	}
	if x.answerErr != nil {
		return api.responseError(resp, x)
	}
	return nil
}

// reconciled logs that a retry's error answer was turned into success
// because an earlier attempt had done the work.
func (api *caller) reconciled(ctx context.Context, r request, o *outcome) {
	api.logInfo(ctx, "dbcloud: an earlier attempt took effect",
		slog.String("method", r.method), slog.String("path", r.path),
		slog.Int("attempts", o.attempts), slog.Int("status", o.lastErr.StatusCode))
}
