package dbcloud

// What an answer, or its absence, means as an error for the caller: the
// errors of the core (caller.outcome), with the secrets kept out of them.

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

// apiError is the *APIError of an error answer to r.
func (api *caller) apiError(r *request, a pipeline.Answer) *APIError {
	e := &APIError{
		StatusCode: a.Status,
		RequestID:  api.serverText(a.Header.Get("X-Request-Id"), r),
		Method:     r.method,
		Path:       r.path,
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
		e.Code = clip(api.scrub(body.Code, r), maxFieldRunes)
		e.Message = clip(api.scrub(body.Message, r), maxFieldRunes)
		e.Details = clip(api.scrub(body.Details, r), maxFieldRunes)
	} else {
		// Scrubbed before it is cut: a key across the cut would leave a
		// prefix. Only the start of a long body can reach the message.
		e.Message = textStart([]byte(api.scrub(string(a.Body[:min(len(a.Body), maxMessageScan)]), r)))
	}
	return e
}

// responseError reports a 2xx whose body could not be used.
func (api *caller) responseError(r *request, res pipeline.Result) error {
	err := res.Err
	if r.method != http.MethodGet {
		err = fmt.Errorf("%w (the API accepted the request: it took effect, only its answer was lost)", err)
	}
	return &ResponseError{
		StatusCode: res.Last.Status,
		RequestID:  api.serverText(res.Last.Header.Get("X-Request-Id"), r),
		Method:     r.method,
		Path:       r.path,
		Err:        api.scrubError(err, r),
	}
}

// transportError wraps a failure that left no answer to report: a network
// error after the last allowed attempt, the attempt timeout, or the
// context ending.
func (api *caller) transportError(r *request, res pipeline.Result, lastErr *APIError) error {
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
	err = api.scrubError(err, r)
	switch {
	case lastErr == nil:
		return fmt.Errorf("dbcloud: %s %s%s: %w", r.method, r.path, attempts, err)
	case r.creates != "" && res.Acted:
		// An earlier 429 said nothing was created, but a later attempt may
		// have created it: its sentinel must not match.
		return fmt.Errorf("dbcloud: %s %s%s: %w; an earlier response: %v", r.method, r.path, attempts, err, lastErr)
	}
	// An earlier attempt got a response (a 503, say) before this network
	// error or the context's end, during the backoff: keep it.
	return fmt.Errorf("dbcloud: %s %s%s: %w; last response: %w", r.method, r.path, attempts, err, lastErr)
}

// serverText makes a text the server chose (a header, a field) fit for an
// error or a log record: without the call's secrets, at most maxFieldRunes.
func (api *caller) serverText(s string, r *request) string {
	return clip(api.scrub(s, r), maxFieldRunes)
}

// scrub replaces the client's credentials and the call's own secret,
// wherever a server echoed them (a message, a header), with "[redacted]".
// r is nil for a text of no request: only the credentials are removed.
func (api *caller) scrub(s string, r *request) string {
	for _, secret := range api.pipe.Secrets() {
		s = redact(s, secret)
	}
	if r == nil {
		return s
	}
	return redact(s, r.scrub)
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
func (api *caller) scrubError(err error, r *request) error {
	if msg := err.Error(); api.scrub(msg, r) != msg {
		secrets := api.pipe.Secrets()
		if r != nil && r.scrub != "" {
			secrets = append(slices.Clip(secrets), r.scrub)
		}
		return &scrubbedError{msg: api.scrub(msg, r), err: err, secrets: secrets}
	}
	return err
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
