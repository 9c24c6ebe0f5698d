package dbcloud

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"
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

// newAPIError reads a non-2xx response into an *APIError and leaves the
// response with an empty body.
func (api *caller) newAPIError(resp *http.Response, x *exchange) *APIError {
	data, _ := readBody(resp.Body, resp.ContentLength, maxErrorBody) // what was read is what there is
	_ = resp.Body.Close()                                            // an oversized body is not worth draining
	resp.Body = http.NoBody

	e := &APIError{
		StatusCode: resp.StatusCode,
		RequestID:  api.serverText(resp.Header.Get("X-Request-Id"), x),
		Method:     x.method,
		Path:       x.path,
	}
	if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), api.now()); ok {
		e.RetryAfter = d
	}
	var body struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Details string `json:"details"`
	}
	err := json.Unmarshal(data, &body)
	_, typeErr := errors.AsType[*json.UnmarshalTypeError](err)
	if (err == nil || typeErr) && body.Code+body.Message+body.Details != "" {
		e.Code = clip(api.scrub(body.Code, x), maxFieldRunes)
		e.Message = clip(api.scrub(body.Message, x), maxFieldRunes)
		e.Details = clip(api.scrub(body.Details, x), maxFieldRunes)
	} else {
		// Scrubbed before it is cut: a key across the cut would leave a
		// prefix. Only the start of a long body can reach the message.
		e.Message = textStart([]byte(api.scrub(string(data[:min(len(data), maxMessageScan)]), x)))
	}
	return e
}

// responseError reports a 2xx whose body could not be used.
func (api *caller) responseError(resp *http.Response, x *exchange) error {
	err := x.answerErr
	if x.method != http.MethodGet {
		err = fmt.Errorf("%w (the API accepted the request: it took effect, only its answer was lost)", err)
	}
	return &ResponseError{
		StatusCode: resp.StatusCode,
		RequestID:  api.serverText(resp.Header.Get("X-Request-Id"), x),
		Method:     x.method,
		Path:       x.path,
		Err:        api.scrubError(err, x),
	}
}

// serverText makes a text the server chose (a header, a field) fit for an
// error or a log record: without the call's secrets, at most maxFieldRunes.
func (api *caller) serverText(s string, x *exchange) string {
	return clip(api.scrub(s, x), maxFieldRunes)
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
