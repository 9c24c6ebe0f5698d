package dbcloud

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/go-retryablehttp"
)

// Body size bounds: a runaway or hostile response ends in an error, never in
// memory exhaustion.
const (
	maxSuccessBody = 32 << 20
	maxErrorBody   = 1 << 20
	// maxDrain is how much of an unread body is read so the connection can be
	// reused; past it, closing the connection is cheaper.
	maxDrain = 64 << 10
	// errorMessageRunes is how much of a non-JSON error body becomes Message.
	errorMessageRunes = 200
	// maxFieldRunes bounds each text field of an *APIError, so that a server
	// cannot make an error line a megabyte long.
	maxFieldRunes = 1000
)

// headerJSON is shared by every request: net/http only reads header values.
var headerJSON = []string{"application/json"}

// transport sends every request of a Client: it adds the headers, runs the
// retry policy through retryablehttp and turns responses into values or
// errors. It is immutable after NewClient, so a Client is safe for
// concurrent use.
type transport struct {
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
	now          func() time.Time
}

// credential holds the API key behind a function value. fmt prints a
// function as an address, even through reflection and its bad-verb path
// (%s on a struct dereferences unexported pointers), so no verb on any value
// of this package can reach the key.
type credential func() (key string, header []string)

func newCredential(key string) credential {
	header := []string{"Bearer " + key}
	return func() (string, []string) { return key, header }
}

func (c credential) value() string {
	key, _ := c()
	return key
}

func (c credential) header() []string {
	_, h := c()
	return h
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

// do sends r and decodes a 2xx body into out (nil: the body is discarded).
// It is where a failure's meaning is settled: a create that may have acted
// becomes a *MaybeCreatedError, and a retry's 404 or 409 that proves an
// earlier attempt worked becomes a success.
func (t *transport) do(ctx context.Context, r request, out any) error {
	x := &exchange{Context: ctx, creating: r.creates != "", method: r.method, path: r.path, scrub: r.scrub, out: out}
	err := t.send(x, r)
	switch {
	case err == nil:
		return nil
	case x.creating && x.acted:
		return &MaybeCreatedError{Resource: r.creates, Err: err}
	case r.confirm != nil && x.earlierActed && err == error(x.lastErr) &&
		(x.lastErr.StatusCode == http.StatusNotFound || x.lastErr.StatusCode == http.StatusConflict):
		// Only a retry's answer is reconciled: a first attempt's 404 or
		// 409 is the truth about the request.
		if r.confirm(ctx, x.lastErr) {
			t.logReconciled(ctx, x)
			return nil
		}
	}
	return err
}

// send runs the attempts of one call through retryablehttp.
func (t *transport) send(x *exchange, r request) error {
	if err := x.Err(); err != nil {
		return fmt.Errorf("dbcloud: %s %s: %w", r.method, r.path, err)
	}
	u := t.base + r.path
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
	h["Authorization"] = t.key.header()
	h["Accept"] = headerJSON
	h["User-Agent"] = t.userAgent
	if body != nil {
		h["Content-Type"] = headerJSON
	}

	resp, err := t.rc.Do(req)
	if err != nil {
		return t.transportError(x, err)
	}
	// checkRetry has read and closed the body, into x.lastErr or x.out.
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return x.lastErr
	}
	if x.answerErr != nil {
		return t.responseError(resp, x)
	}
	return nil
}

// transportError wraps a failure that left no response to report: a network
// error after the last allowed attempt, or the context ending.
func (t *transport) transportError(x *exchange, err error) error {
	var urlErr *url.Error
	if errors.As(err, &urlErr) {
		err = urlErr.Err // its URL would repeat what the prefix says
	}
	attempts := ""
	if x.attempts > 1 {
		attempts = fmt.Sprintf(" (after %d attempts)", x.attempts)
	}
	err = t.scrubError(err, x)
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

// scrubError keeps the secrets out of an error's text even if a lower layer
// (a proxy's error, a custom transport) echoed one. It keeps the error, and
// what it wraps, when there is nothing to scrub.
func (t *transport) scrubError(err error, x *exchange) error {
	if msg := err.Error(); t.scrub(msg, x) != msg {
		return errors.New(t.scrub(msg, x))
	}
	return err
}

// responseError reports a 2xx whose body could not be used.
func (t *transport) responseError(resp *http.Response, x *exchange) error {
	err := x.answerErr
	if x.method != http.MethodGet {
		err = fmt.Errorf("%w (the API accepted the request: it took effect, only its answer was lost)", err)
	}
	return &ResponseError{
		StatusCode: resp.StatusCode,
		RequestID:  t.scrub(resp.Header.Get("X-Request-Id"), x),
		Method:     x.method,
		Path:       x.path,
		Err:        err,
	}
}

// readBody reads a body of at most limit bytes, in one allocation when the
// length is announced.
func readBody(r io.Reader, length, limit int64) ([]byte, error) {
	if length > limit {
		return nil, fmt.Errorf("%w: %d bytes announced, the bound is %d", ErrResponseTooLarge, length, limit)
	}
	if length > 0 {
		buf := make([]byte, length)
		n, err := io.ReadFull(r, buf)
		if err != nil {
			return buf[:n], fmt.Errorf("body cut off after %d of %d bytes: %w", n, length, err)
		}
		return buf, nil
	}
	return readAtMost(r, limit)
}

// readAtMost reads r to its end, failing past limit bytes. It doubles its
// buffer up to limit and then probes one byte, so a runaway body costs about
// twice the bound in allocations; io.ReadAll grows large slices by a
// quarter, which would cost about five times.
func readAtMost(r io.Reader, limit int64) ([]byte, error) {
	buf := make([]byte, 0, min(4096, limit))
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) >= limit {
				var probe [1]byte
				switch _, err := io.ReadFull(r, probe[:]); err {
				case io.EOF:
					return buf, nil
				case nil:
					return buf, fmt.Errorf("%w: over %d bytes", ErrResponseTooLarge, limit)
				default:
					return buf, err
				}
			}
			grown := make([]byte, len(buf), min(2*int64(cap(buf)), limit))
			copy(grown, buf)
			buf = grown
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// closeBody drains a little of what is left, so the connection returns to
// the pool, and closes.
func closeBody(b io.ReadCloser) {
	_, _ = io.Copy(io.Discard, io.LimitReader(b, maxDrain))
	_ = b.Close()
}

// newAPIError reads a non-2xx response into an *APIError and leaves the
// response with an empty body.
func (t *transport) newAPIError(resp *http.Response, x *exchange) *APIError {
	data, _ := readBody(resp.Body, resp.ContentLength, maxErrorBody) // what was read is what there is
	_ = resp.Body.Close()                                            // an oversized body is not worth draining
	resp.Body = http.NoBody

	e := &APIError{
		StatusCode: resp.StatusCode,
		RequestID:  t.scrub(resp.Header.Get("X-Request-Id"), x),
		Method:     x.method,
		Path:       x.path,
	}
	if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), t.now()); ok {
		e.RetryAfter = d
	}
	var body struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Details string `json:"details"`
	}
	err := json.Unmarshal(data, &body)
	var typeErr *json.UnmarshalTypeError
	if (err == nil || errors.As(err, &typeErr)) && body.Code+body.Message+body.Details != "" {
		e.Code = clip(t.scrub(body.Code, x), maxFieldRunes)
		e.Message = clip(t.scrub(body.Message, x), maxFieldRunes)
		e.Details = clip(t.scrub(body.Details, x), maxFieldRunes)
	} else {
		// Scrubbed before it is cut: a key across the cut would leave a prefix.
		e.Message = textStart([]byte(t.scrub(string(data), x)))
	}
	return e
}

// scrub replaces the API key and the call's own secret, wherever a server
// echoed them (a message, a header), with "[redacted]".
func (t *transport) scrub(s string, x *exchange) string {
	for _, secret := range []string{t.key.value(), x.scrub} {
		if secret != "" && strings.Contains(s, secret) {
			s = strings.ReplaceAll(s, secret, redacted)
		}
	}
	return s
}

// clip cuts s after n runes.
func clip(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i] + "…"
		}
		n--
	}
	return s
}

// textStart returns the first runes of a non-JSON body (an HTML page from a
// proxy, say) on one line, so an error stays readable.
func textStart(data []byte) string {
	var b strings.Builder
	space, n := false, 0
	for len(data) > 0 && n < errorMessageRunes {
		r, size := utf8.DecodeRune(data)
		data = data[size:]
		if unicode.IsSpace(r) || !unicode.IsPrint(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			if n+2 > errorMessageRunes {
				break // no room for the space and a rune after it
			}
			b.WriteByte(' ')
			n++
			space = false
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
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

// logAttempt records one attempt at debug level, or at warn level when it
// failed and will be retried. It never records headers or bodies.
func (t *transport) logAttempt(ctx context.Context, x *exchange, resp *http.Response, err error, retry bool) {
	level := slog.LevelDebug
	if retry {
		level = slog.LevelWarn
	}
	if t.logger == nil || !t.logger.Enabled(ctx, level) {
		return
	}
	attrs := make([]slog.Attr, 0, 8)
	attrs = append(attrs,
		slog.String("method", x.method),
		slog.String("path", x.path),
		slog.Int("attempt", x.attempts),
		slog.Duration("duration", t.now().Sub(x.start)),
	)
	if resp != nil {
		attrs = append(attrs, slog.Int("status", resp.StatusCode))
		if id := resp.Header.Get("X-Request-Id"); id != "" {
			attrs = append(attrs, slog.String("request_id", t.scrub(id, x)))
		}
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", t.scrubError(err, x).Error()))
	}
	attrs = append(attrs, slog.Bool("retry", retry))
	t.logger.LogAttrs(ctx, level, "dbcloud: http attempt", attrs...)
}

// logReconciled records, at info level, a call whose retry was answered 404
// or 409 because an earlier attempt had already done the work: an operator
// reading the log sees why the call succeeded after an error answer.
func (t *transport) logReconciled(ctx context.Context, x *exchange) {
	if t.logger == nil || !t.logger.Enabled(ctx, slog.LevelInfo) {
		return
	}
	t.logger.LogAttrs(ctx, slog.LevelInfo, "dbcloud: an earlier attempt took effect",
		slog.String("method", x.method),
		slog.String("path", x.path),
		slog.Int("attempts", x.attempts),
		slog.Int("status", x.lastErr.StatusCode),
	)
}
