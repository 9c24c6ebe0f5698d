package dbcloudtest

import (
	"net/http"
	"time"
)

// Fault is a misbehaviour the server shows instead of, or on top of, its
// normal answer to the requests it matches: an error status, a dropped
// connection, a body cut off, a slow answer. Faults are matched before
// authentication and routing, in the order they were injected; a request
// takes at most one.
type Fault struct {
	// Method and Path select the requests; "" matches any. Path is the
	// escaped path after /v1, where '*' matches exactly one segment:
	// "/projects/*/services/*" is every service's GET (and DELETE).
	Method, Path string
	// Times is how many matching requests the fault answers before it is
	// used up; 0 means 1.
	Times int
	// Status, when not 0, is answered instead of the real response, with
	// Header and Body. The request does not reach the model, unless
	// AfterHandling is set.
	Status int
	// Header is added to the answer, real or not: Retry-After, say.
	Header http.Header
	// Body is sent with Status, as is: JSON, an HTML page from a proxy, or
	// nothing. It is labelled application/json when it is valid JSON and
	// Header sets no Content-Type.
	Body string
	// Drop reads the request and closes the connection without an answer:
	// the client sees a reset. The request does not reach the model.
	Drop bool
	// AfterHandling, with Drop or Status, has the model handle the request
	// first, so the change it asks for happens and only the answer is lost:
	// a create that made the service although its client saw a reset, or a
	// proxy's 504 after the API acted.
	AfterHandling bool
	// Truncate sends the real answer's status and headers, with the full
	// Content-Length, and half of its body, then closes the connection.
	Truncate bool
	// Delay holds the answer this long, or until the client gives up or the
	// server closes. A fault with only Delay set then answers normally; with
	// Status, Drop or Truncate it delays that.
	Delay time.Duration
}

// InjectFault arms f: the next Times requests that match it get the fault.
//
// Go's http.Transport silently resends a GET, HEAD, OPTIONS or TRACE that
// fails on a reused keep-alive connection before any byte of the answer
// arrives, so one Drop of such a request may never reach the client's code:
// use Times: 2 (the SDK's own retry takes the second) to see the SDK act.
func (s *Server) InjectFault(f Fault) {
	s.api.injectFault(f)
}

// Request is one request the server has seen.
type Request struct {
	Method string
	// Path is the escaped path after /v1, as Fault.Path matches it:
	// "/projects/proj-fake/services/a1b2c3".
	Path string
	// Query is the raw query string, without "?": "severities=ERROR".
	Query string
	// Status is the status the server sent; 0 while the request is in flight,
	// and when no answer was sent (a Drop fault, or a Delay its client gave
	// up on).
	Status int
}

// Count returns how many requests with this method and path the server has
// seen, faulted and failed ones included. method "" matches any method;
// path is matched as Fault.Path is ("" any path, '*' one segment).
func (s *Server) Count(method, path string) int { return s.api.count(method, path) }

// Requests returns every request the server has seen, in the order they
// arrived. A request's Status is set before its answer is sent: once a
// client call returns, its requests are there with their statuses.
func (s *Server) Requests() []Request {
	return s.api.requestLog()
}
