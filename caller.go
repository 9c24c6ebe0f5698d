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

// headerJSON is shared by every request: net/http only reads header values.
var headerJSON = []string{"application/json"}

// caller makes every API call of a Client: it adds the headers (the
// credential is added below, by authTransport), has
// retryablehttp run the attempts under the retry rule (retry.go), and turns
// the answer into a value or an error. It is immutable after NewClient, so a
// Client is safe for concurrent use.
type caller struct {
	base      string // scheme://host/.../v1, no trailing slash
	key       credential
	userAgent []string
	rc        *retryablehttp.Client
	// roundTripper is the transport of the attempts' client, for
	// Client.CloseIdleConnections.
	roundTripper http.RoundTripper
	retryMax     int
	waitMax      time.Duration
	recovery     bool          // WithCreateRecovery
	settle       time.Duration // WithCreateSettle
	logger       *slog.Logger
	observer     Observer // WithObserver; nil observes nothing
	now          func() time.Time
	projectID    string       // WithProjectID, DBCLOUD_PROJECT_ID
	readOnly     readOnlyMode // WithReadOnly, WithReadOnlyProd
}

// request describes one API call.
type request struct {
	method string
	path   string // escaped, after the base URL
	query  url.Values
	body   any    // encoded as JSON; nil means no body
	scrub  string // a secret of this call to keep out of errors
	// creates names what a request that makes a new resource makes
	// ("service", "replica set"); "" for every other request.
	creates string
	// confirm, for a repeatable request, is asked about a retry's 404 or 409
	// when an earlier attempt may have acted: it reports whether that answer
	// (and what it reads to check it) proves the earlier attempt took
	// effect, in which case the call succeeds.
	confirm func(ctx context.Context, answer *APIError) bool
}

// do sends r, decodes a 2xx body into out (nil: the body is discarded), and
// returns what the call means once its attempts are over (see conclude).
func (api *caller) do(ctx context.Context, r request, out any) error {
	x := &exchange{Context: ctx, creating: r.creates != "", method: r.method, path: r.path, scrub: r.scrub, out: out}
	return api.conclude(ctx, x, r, api.send(x, r))
}

// send runs the attempts of one call through retryablehttp.
func (api *caller) send(x *exchange, r request) error {
	if err := x.Err(); err != nil {
		return fmt.Errorf("dbcloud: %s %s: %w", r.method, r.path, err)
	}
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
	h := req.Header
	h["Accept"] = headerJSON
	h["User-Agent"] = api.userAgent
	if body != nil {
		h["Content-Type"] = headerJSON
	}

	if err := api.tokenFirst(x); err != nil {
		return fmt.Errorf("dbcloud: %s %s: %w", r.method, r.path, api.scrubError(err, x))
	}
	resp, err := api.rc.Do(req)
	if err != nil {
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
