package dbcloud

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
)

const (
	// errorMessageRunes is how much of a non-JSON error body becomes Message.
	errorMessageRunes = 200
	// maxFieldRunes bounds each text field of an *APIError, so that a server
	// cannot make an error line a megabyte long.
	maxFieldRunes = 1000
	// maxMessageScan is how much of a non-JSON error body is searched for
	// the message's start.
	maxMessageScan = 64 << 10
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
