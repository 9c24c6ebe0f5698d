package dbcloud

// What the attempts of one request came to (an outcome), and what an
// answer, or its absence, means as an error for the caller, with the
// secrets kept out of it. Nothing here knows the Client: the core hands
// over the request's exchange and the credentials' secrets.

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
)

// exchange is what the errors of a request name: its method and escaped
// path, what it creates, and the secret of its own to keep out of them.
type exchange struct {
	method string
	path   string // escaped, after the base URL
	scrub  string // a secret of this call to keep out of errors
	// creates names what a request that makes a new resource makes
	// ("service", "replica set"); "" for every other request.
	creates string
	// reads: a POST that changes nothing (Metrics.Query), a read like a GET.
	reads bool
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
	// last is the last answer; its Status is 0 if none came.
	last pipeline.Answer
}

// explain sets the errors of o, the outcome of a request that failed
// (res is not OK): the error a failure comes to, and the last error
// answer, which the operations reconcile with. secrets are the
// credentials'.
func (x *exchange) explain(o *outcome, res pipeline.Result, secrets []string) {
	if res.Failed.Status != 0 {
		o.lastErr = x.apiError(res.Failed, secrets)
	}
	switch {
	case res.Err == nil:
		o.err = o.lastErr // the last attempt was answered with an error
	case res.Came == pipeline.Unusable || res.Came == pipeline.TooLarge:
		o.err = x.responseError(res, secrets)
	default:
		o.err = x.transportError(res, o.lastErr, secrets)
	}
}

// failure is the error a caller gets for o when the operation has nothing
// to reconcile: a create's that may have acted matches ErrMaybeCreated.
func (x *exchange) failure(o *outcome) error {
	if o.err != nil && x.creates != "" && o.acted {
		return &MaybeCreatedError{Resource: x.creates, Err: o.err}
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

// apiError is the *APIError of an error answer.
func (x *exchange) apiError(a pipeline.Answer, secrets []string) *APIError {
	e := &APIError{
		StatusCode: a.Status,
		RequestID:  serverText(a.Header.Get("X-Request-Id"), secrets, x.scrub),
		Method:     x.method,
		Path:       x.path,
	}
	if d, ok := pipeline.ParseRetryAfter(a.Header.Get("Retry-After"), time.Now()); ok {
		e.RetryAfter = d
	}
	var body struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Details string `json:"details"`
	}
	err := json.Unmarshal(a.Body, &body)
	_, typeErr := errors.AsType[*json.UnmarshalTypeError](err)
	if (err == nil || typeErr) && body.Code+body.Message+body.Details != "" {
		e.Code = serverText(body.Code, secrets, x.scrub)
		e.Message = serverText(body.Message, secrets, x.scrub)
		e.Details = serverText(body.Details, secrets, x.scrub)
	} else {
		// Scrubbed before it is cut: a key across the cut would leave a
		// prefix. Only the start of a long body can reach the message.
		e.Message = textStart([]byte(scrub(string(a.Body[:min(len(a.Body), maxMessageScan)]), secrets, x.scrub)))
	}
	return e
}

// responseError reports a 2xx whose body could not be used.
func (x *exchange) responseError(res pipeline.Result, secrets []string) error {
	err := res.Err
	if x.method != http.MethodGet && !x.reads {
		err = fmt.Errorf("%w (the API accepted the request: it took effect, only its answer was lost)", err)
	}
	return &ResponseError{
		StatusCode: res.Last.Status,
		RequestID:  serverText(res.Last.Header.Get("X-Request-Id"), secrets, x.scrub),
		Method:     x.method,
		Path:       x.path,
		Err:        scrubError(err, secrets, x.scrub),
	}
}

// transportError wraps a failure that left no answer to report: a network
// error after the last allowed attempt, the attempt timeout, or the
// context ending.
func (x *exchange) transportError(res pipeline.Result, lastErr *APIError, secrets []string) error {
	err := res.Err
	if res.Came == pipeline.TimedOut && res.Attempts > 0 {
		// Not the caller's context.DeadlineExceeded: its deadline has not
		// passed.
		err = ErrAttemptTimeout
	}
	attempts := ""
	if res.Attempts > 1 {
		attempts = fmt.Sprintf(" (after %d attempts)", res.Attempts)
	}
	err = scrubError(err, secrets, x.scrub)
	switch {
	case lastErr == nil:
		return fmt.Errorf("dbcloud: %s %s%s: %w", x.method, x.path, attempts, err)
	case x.creates != "" && res.Acted:
		// An earlier 429 said nothing was created, but a later attempt may
		// have created it: its sentinel must not match.
		return fmt.Errorf("dbcloud: %s %s%s: %w; an earlier response: %v", x.method, x.path, attempts, err, lastErr)
	}
	// An earlier attempt got a response (a 503, say) before this network
	// error or the context's end, during the backoff: keep it.
	return fmt.Errorf("dbcloud: %s %s%s: %w; last response: %w", x.method, x.path, attempts, err, lastErr)
}

// serverText makes a text the server chose (a header, a field) fit for an
// error or a log record: without the secrets, at most maxFieldRunes.
func serverText(s string, secrets []string, own string) string {
	return clip(scrub(s, secrets, own), maxFieldRunes)
}

// scrub replaces the credentials' secrets and the call's own secret
// ("" when it has none), wherever a server echoed them (a message, a
// header), with "[redacted]".
func scrub(s string, secrets []string, own string) string {
	for _, secret := range secrets {
		s = redact(s, secret)
	}
	return redact(s, own)
}

func redact(s, secret string) string {
	if secret != "" && strings.Contains(s, secret) {
		return strings.ReplaceAll(s, secret, redacted)
	}
	return s
}

// scrubError keeps the secrets out of an error's text even if a lower layer
// (a proxy's error, a custom transport) echoed one. It keeps the error, and
// what it wraps, when there is nothing to scrub; otherwise it returns an
// error with the scrubbed text that keeps the original's identity (see
// scrubbedError).
func scrubError(err error, secrets []string, own string) error {
	msg := err.Error()
	clean := scrub(msg, secrets, own)
	if clean == msg {
		return err
	}
	return &scrubbedError{msg: clean, err: err, secrets: append(slices.Clip(secrets), own)}
}

// scrubbedError is an error whose text had a secret removed. It matches
// what the original matched with errors.Is (a sentinel is a value the
// caller already holds: nothing leaks), and with errors.As when the value
// found carries no secret in its own text, so that ErrRepeatedCursor, a
// context's end or an *APIError keep their identity. It has no Unwrap:
// the original, whose text holds the secret, is never handed out.
type scrubbedError struct {
	msg     string
	err     error
	secrets []string // what was scrubbed out, to keep out of As
}

func (e *scrubbedError) Error() string { return e.msg }

// Is reports whether the original error matches target.
func (e *scrubbedError) Is(target error) bool { return errors.Is(e.err, target) }

// As finds target in the original error, unless the error found would
// show a secret in its text.
func (e *scrubbedError) As(target any) bool {
	if !errors.As(e.err, target) {
		return false
	}
	v := reflect.ValueOf(target).Elem()
	if found, ok := v.Interface().(error); ok && found != nil {
		for _, secret := range e.secrets {
			if secret != "" && strings.Contains(found.Error(), secret) {
				v.SetZero()
				return false
			}
		}
	}
	return true
}
