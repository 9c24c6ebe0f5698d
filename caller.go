package dbcloud

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
	"github.com/dbcloud/dbcloud-go/internal/poll"
)

// caller makes every API call of a Client: an operation builds a request,
// and run (or send, for an operation that settles its outcome itself) sends
// it through the pipeline and turns what the attempts came to into the
// caller's outcome. It is immutable after NewClient but for its pollers,
// which their registry guards, so a Client is safe for concurrent use.
type caller struct {
	base        string // scheme://host/.../v1, no trailing slash
	pipe        *pipeline.Client
	credKind    string        // "API key", ...: what a printed Client shows
	recovery    bool          // WithCreateRecovery
	settle      time.Duration // WithCreateSettle
	logger      *slog.Logger
	observer    Observer      // WithObserver; nil observes nothing
	projectID   string        // WithProjectID, DBCLOUD_PROJECT_ID
	readOnly    readOnlyMode  // WithReadOnly, WithReadOnlyProd
	pollFirst   time.Duration // WithDefaultPollInterval
	pollLongest time.Duration
	pollers     poll.Registry // the waits' pollers, one per scope
	// creds and opts are what the Client was made of, for Client.With.
	creds Credentials
	opts  []Option
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
	// status and requestID are the last answer's; 0 and "" if none came.
	status    int
	requestID string
}

// run is the whole life of a plain operation: begin, send r through the
// pipeline, end. A 2xx body is decoded into out on the way back. Its error
// is the caller's (see failure).
func (api *caller) run(ctx context.Context, r request, out any) error {
	ctx, c, err := api.begin(ctx, r)
	if err != nil {
		return err
	}
	pr, err := api.wire(ctx, &r, out)
	if err != nil {
		return api.end(c, nil, err)
	}
	o := api.outcome(&r, api.pipe.Do(ctx, pr))
	return api.end(c, &o, api.failure(&r, &o))
}

// send sends r through the pipeline, for an operation that begins, settles
// and ends the call itself (an action, a command, a create).
func (api *caller) send(ctx context.Context, r request, out any) outcome {
	pr, err := api.wire(ctx, &r, out)
	if err != nil {
		return outcome{err: err}
	}
	return api.outcome(&r, api.pipe.Do(ctx, pr))
}

// wire is r as the pipeline sends it: the URL, the encoded body, the
// decoder of a 2xx answer, and the attempts' observer when anyone listens.
func (api *caller) wire(ctx context.Context, r *request, out any) (pipeline.Request, error) {
	if err := ctx.Err(); err != nil {
		return pipeline.Request{}, fmt.Errorf("dbcloud: %s %s: %w", r.method, r.path, err)
	}
	pr := pipeline.Request{Method: r.method, URL: api.base + r.path, Creating: r.creates != "", Out: out, Decode: decodeAnswer}
	if len(r.query) > 0 {
		pr.URL += "?" + r.query.Encode()
	}
	if r.body != nil {
		b, err := json.Marshal(r.body)
		if err != nil {
			return pr, fmt.Errorf("dbcloud: %s %s: encoding body: %w", r.method, r.path, err)
		}
		pr.Body = b
	}
	if api.observer != nil || api.logger != nil {
		pr.Observe = &attempts{api: api, info: r.info, method: r.method, path: r.path, scrub: r.scrub}
	}
	return pr, nil
}

// outcome is what res means for r: the error a failure comes to, and what
// the operations reconcile with.
func (api *caller) outcome(r *request, res pipeline.Result) outcome {
	o := outcome{acted: res.Acted, earlierActed: res.EarlierActed, attempts: res.Attempts, status: res.Last.Status}
	if res.Last.Status != 0 {
		o.requestID = api.serverText(res.Last.Header.Get("X-Request-Id"), r)
	}
	if res.Failed.Status != 0 {
		o.lastErr = api.apiError(r, res.Failed)
	}
	switch {
	case res.OK():
	case res.Err == nil:
		o.err = o.lastErr // the last attempt was answered with an error
	case res.Came == pipeline.Unusable || res.Came == pipeline.TooLarge:
		o.err = api.responseError(r, res)
	default:
		o.err = api.transportError(r, res, o.lastErr)
	}
	return o
}

// failure is the error a caller gets for o when the operation has nothing
// to reconcile.
func (api *caller) failure(r *request, o *outcome) error {
	if o.err != nil && r.creates != "" && o.acted {
		return &MaybeCreatedError{Resource: r.creates, Err: o.err}
	}
	return o.err
}

// answeredByEarlier is the rule of what a retry's 404 or 409 means: after an
// earlier attempt may have acted, the earlier attempt may have done the
// work, and the operation can read the resource to find out. A first
// attempt's own 404 or 409 is never such an answer: it is the truth about
// the request.
func (o *outcome) answeredByEarlier() bool {
	return o.earlierActed && o.lastErr != nil && o.err == error(o.lastErr) &&
		(o.lastErr.StatusCode == http.StatusNotFound || o.lastErr.StatusCode == http.StatusConflict)
}

// reconciled logs that a retry's error answer was turned into success
// because an earlier attempt had done the work.
func (api *caller) reconciled(ctx context.Context, r request, o *outcome) {
	api.logInfo(ctx, "dbcloud: an earlier attempt took effect",
		slog.String("method", r.method), slog.String("path", r.path),
		slog.Int("attempts", o.attempts), slog.Int("status", o.lastErr.StatusCode))
}
