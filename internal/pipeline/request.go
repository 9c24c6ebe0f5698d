package pipeline

import (
	"context"
	"net/http"
	"time"
)

// Request is one request to send.
type Request struct {
	Method string
	URL    string
	Body   []byte // sent whole on every attempt; nil: no body
	// Creating: the request makes a new resource, and is never repeated
	// once it may have acted (see Policy.Decide).
	Creating bool
	// Reads: the request changes nothing, whatever its method (a POST
	// that queries), so a lost answer is read again as a GET's is.
	Reads bool
	// Out receives a 2xx body through Decode; a nil Out means the status is
	// the answer, and the body is not read.
	Out    any
	Decode func(data []byte, out any) error
	// Observe, when not nil, is told of each attempt.
	Observe Observer
}

// Observer is told of each attempt of a request, on the calling goroutine.
type Observer interface {
	// StartAttempt is called before attempt n is sent; the context it
	// returns is the attempt's.
	StartAttempt(ctx context.Context, n int) context.Context
	// EndAttempt is called with the context StartAttempt returned once
	// the attempt's outcome is known.
	EndAttempt(ctx context.Context, a Report)
}

// Report is what one attempt came to, for an Observer.
type Report struct {
	Number   int
	Came     Came
	Answer   Answer        // the answer, when one came (Status 0: none)
	Err      error         // the connection error, or why a 2xx was unusable
	Duration time.Duration // of the attempt
	Retry    bool          // another attempt follows
	Reason   string        // why it is retried
}

// Answer is an HTTP answer as the attempts keep it: the body is read (an
// error answer's, within MaxErrorBody) when the answer is not a usable 2xx.
type Answer struct {
	Status int
	Header http.Header
	Body   []byte
}

// Result is what the attempts of one request came to.
type Result struct {
	Attempts int
	// Came is what the last attempt came to, and Err its failure: the
	// connection or context error, or why its 2xx was unusable; nil for an
	// answer (a usable 2xx, or an error answer in Answer). Came is Usable
	// exactly when the call succeeded.
	Came Came
	Err  error
	// Last is the last answer (Status 0 when none came); Failed is the
	// last error answer, kept when a connection error came after it.
	Last, Failed Answer
	// Acted: some attempt may have acted on the server (MayHaveActed);
	// EarlierActed: one before the last may have.
	Acted, EarlierActed bool
}
