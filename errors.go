package dbcloud

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
)

// Sentinel errors for errors.Is; the table under Errors in the package
// documentation says which error matches which and what to do. An
// *APIError matches its status code's (ErrServer: any 5xx; ErrRateLimited
// and ErrServer only once retries did not ride it out); a *WaitError its
// cause's. ErrUnexpectedStatus: a wait reached a status the wanted one
// cannot follow (DELETING while waiting for READY). ErrMaybeCreated: a
// create failed after its request may have reached the server (see
// Retries and MaybeCreatedError). ErrResponseTooLarge: a success body
// over 32 MiB, wrapped by a *ResponseError.
var (
	ErrBadRequest       = errors.New("dbcloud: bad request")
	ErrUnauthorized     = errors.New("dbcloud: unauthorized")
	ErrForbidden        = errors.New("dbcloud: forbidden")
	ErrNotFound         = errors.New("dbcloud: not found")
	ErrConflict         = errors.New("dbcloud: conflict")
	ErrRateLimited      = errors.New("dbcloud: rate limited")
	ErrServer           = errors.New("dbcloud: server error")
	ErrUnexpectedStatus = errors.New("dbcloud: unexpected status")
	ErrInvalidResponse  = errors.New("dbcloud: invalid response")
	ErrMaybeCreated     = errors.New("dbcloud: the resource may have been created")
	ErrResponseTooLarge = errors.New("dbcloud: response body too large")
)

// ErrNoEndpoint is the cause of a WaitForConnectable error when there is
// nothing to probe: the resource has no endpoint or, with WithPoolerCheck,
// no connection pooler. The resource is returned with it.
var ErrNoEndpoint = errors.New("dbcloud: no endpoint to probe")

// ErrAttemptTimeout matches a call whose last attempt its attempt timeout
// ended (see Retries in the package documentation) before the caller's
// deadline, so it is not context.DeadlineExceeded. A net.Error with
// Timeout true. A create's attempt may have acted: see ErrMaybeCreated.
var ErrAttemptTimeout net.Error = attemptTimeoutError{}

// attemptTimeoutError is ErrAttemptTimeout's type.
type attemptTimeoutError struct{}

func (attemptTimeoutError) Error() string   { return "attempt timed out" }
func (attemptTimeoutError) Timeout() bool   { return true }
func (attemptTimeoutError) Temporary() bool { return true }

// APIError is a non-2xx response from the API. Every field the server sent is
// kept, so a caller can report, branch and contact support without losing
// information.
type APIError struct {
	StatusCode int
	Code       string // body "code", e.g. "NOT_FOUND"
	Message    string // body "message", or the start of a non-JSON body
	Details    string // body "details"
	RequestID  string // X-Request-Id response header, when sent
	Method     string
	Path       string        // the path after the base URL as sent (escaped), no query
	RetryAfter time.Duration // parsed Retry-After, when sent
}

// Error returns a one-line description with the method, path, status, code,
// message, details and request id.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "dbcloud: %s %s: %d %s", e.Method, e.Path, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Code != "" {
		b.WriteString(": ")
		b.WriteString(e.Code)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Details != "" {
		fmt.Fprintf(&b, " (%s)", e.Details)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter)
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " [request id %s]", e.RequestID)
	}
	return b.String()
}

// statusSentinels are the sentinels of one status code each, keyed by the
// code: Is looks up its own status, never the caller's target, which may be
// of a type that cannot be a map key. ErrServer, of any 5xx, is Is's own.
var statusSentinels = map[int]error{
	http.StatusBadRequest:      ErrBadRequest,
	http.StatusUnauthorized:    ErrUnauthorized,
	http.StatusForbidden:       ErrForbidden,
	http.StatusNotFound:        ErrNotFound,
	http.StatusConflict:        ErrConflict,
	http.StatusTooManyRequests: ErrRateLimited,
}

// Is reports whether target is the sentinel of e's status code, so that
// errors.Is(err, ErrNotFound) works through any wrapping.
func (e *APIError) Is(target error) bool {
	if target == ErrServer {
		return e.StatusCode >= 500 && e.StatusCode <= 599
	}
	sentinel, ok := statusSentinels[e.StatusCode]
	return ok && target == sentinel
}

// ResponseError is a 2xx response whose body the SDK could not use: malformed
// or truncated JSON, an empty body where a resource was expected, or a body
// over the size bound. It keeps the request id, since the server did answer.
type ResponseError struct {
	StatusCode int
	RequestID  string
	Method     string
	Path       string
	Err        error // the decoding or reading error
}

// Error describes the request and why its response could not be read.
func (e *ResponseError) Error() string {
	s := fmt.Sprintf("dbcloud: %s %s: reading %d response: %v", e.Method, e.Path, e.StatusCode, e.Err)
	if e.RequestID != "" {
		s += " [request id " + e.RequestID + "]"
	}
	return s
}

// Unwrap returns the underlying reading or decoding error.
func (e *ResponseError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrInvalidResponse) true for every ResponseError.
func (e *ResponseError) Is(target error) bool { return target == ErrInvalidResponse }

// ValidationError is invalid input, found before any request is sent.
type ValidationError struct {
	Field  string // the Go name of the argument or request field, such as "projectID" or "CPUMillis"
	Reason string
}

// Error names the field and the rule it broke.
func (e *ValidationError) Error() string {
	return "dbcloud: invalid " + e.Field + ": " + e.Reason
}

func invalid(field, reason string) error {
	return &ValidationError{Field: field, Reason: reason}
}

// MaybeCreatedError is a create that failed after its request may have
// reached the server (see Retries in the package documentation): the
// resource may exist. It matches ErrMaybeCreated; errors.Is and errors.As
// reach only Err, never Recovery, so a list's dial error cannot read as a
// create never sent. List before creating again, or use WithCreateRecovery.
type MaybeCreatedError struct {
	Resource string // "service", "replica set", "VPC" or "VPC peering"
	// IDs are what create recovery found that is or may be this create's:
	// several with the requested name, or the one whose new password could
	// not be set. nil when recovery did not run.
	IDs []string
	Err error // the answer or network error the create got
	// Recovery is why recovery failed (a list, a settle period past the
	// deadline, the password); nil if it did not run or found several IDs.
	Recovery error
}

// Error says the resource may exist, names any candidates, and gives the
// cause and what recovery met.
func (e *MaybeCreatedError) Error() string {
	switch {
	case len(e.IDs) == 1:
		return fmt.Sprintf("dbcloud: the %s %s was created, but recovering it failed: %v; the create got: %v", e.Resource, e.IDs[0], e.Recovery, e.Err)
	case len(e.IDs) > 1:
		return fmt.Sprintf("dbcloud: the %s may have been created more than once: %d match the request (%s): %v",
			e.Resource, len(e.IDs), strings.Join(e.IDs, ", "), e.Err)
	case e.Recovery != nil:
		return fmt.Sprintf("dbcloud: the %s may have been created: %v; recovery %v", e.Resource, e.Err, e.Recovery)
	}
	return fmt.Sprintf("dbcloud: the %s may have been created: %v", e.Resource, e.Err)
}

// Unwrap returns the create's own cause, Err: not Recovery.
func (e *MaybeCreatedError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, ErrMaybeCreated) true.
func (e *MaybeCreatedError) Is(target error) bool { return target == ErrMaybeCreated }

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

func isNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

// isTerminal reports an error that more polling cannot outlast.
func isTerminal(err error) bool {
	if errors.Is(err, ErrUnexpectedStatus) || errors.Is(err, ErrNotFound) || errors.Is(err, ErrNoEndpoint) {
		return true
	}
	apiErr, ok := errors.AsType[*APIError](err)
	return ok && apiErr.StatusCode >= 400 && apiErr.StatusCode < 500 &&
		apiErr.StatusCode != http.StatusTooManyRequests
}

// ErrStopStatus is the cause of a wait ended by a WithStopOn status (the
// WaitError's LastStatus). It matches ErrUnexpectedStatus too.
var ErrStopStatus = fmt.Errorf("%w: a stop status was reached", ErrUnexpectedStatus)

// WaitError is a wait that ended without reaching the wanted status.
type WaitError struct {
	Resource string // the kind of resource: "service", "replica set" or "VPC peering" (KindService, KindReplicaSet, KindPeering)
	ID       string
	Name     string // as last read; "" if no read showed it
	Want     string // the status waited for; "deleted" for the delete waits, "connectable" for WaitForConnectable
	// LastStatus is the last status seen as the API sent it; "" if none.
	LastStatus string
	// Err is why it stopped: the context's error, ErrNotFound,
	// ErrUnexpectedStatus, ErrNoEndpoint, or an *APIError not waited out.
	Err error
}

// Error describes what was waited for, what was last seen and why it stopped.
func (e *WaitError) Error() string {
	// The status is the server's text: clipped, and quoted when it holds
	// control characters, so that an error or a log line stays one line of
	// bounded length.
	last := clip(e.LastStatus, maxFieldRunes)
	switch {
	case last == "":
		last = "none seen"
	case strings.ContainsFunc(last, pipeline.IsControl):
		last = strconv.Quote(last)
	}
	name := ""
	if e.Name != "" {
		name = strconv.Quote(clip(e.Name, maxFieldRunes)) + " "
	}
	return fmt.Sprintf("dbcloud: waiting for %s %s(%s) to be %s (last status: %s): %v", e.Resource, name, e.ID, e.Want, last, e.Err)
}

// Unwrap returns Err, so errors.Is and errors.As see the cause.
func (e *WaitError) Unwrap() error { return e.Err }
