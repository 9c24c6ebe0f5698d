package dbcloudtest

import (
	"net/http"
	"slices"
	"strings"
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

// faultQueue is the faults armed, in the order injected.
type faultQueue []*Fault

// add arms f.
func (q *faultQueue) add(f Fault) {
	f.Header = f.Header.Clone()
	if f.Times <= 0 {
		f.Times = 1
	}
	*q = append(*q, &f)
}

// take returns the fault that answers a request, if any: the first armed
// that matches, used up after its Times.
func (q *faultQueue) take(method, path string) *Fault {
	for i, f := range *q {
		if (f.Method == "" || f.Method == method) && pathMatches(f.Path, path) {
			f.Times--
			if f.Times == 0 {
				*q = slices.Delete(*q, i, i+1)
			}
			answer := *f
			return &answer
		}
	}
	return nil
}

// pathMatches matches an escaped path against a pattern of Fault.Path:
// "" matches any, '*' one whole segment.
func pathMatches(pattern, path string) bool {
	if pattern == "" {
		return true
	}
	ps, xs := strings.Split(pattern, "/"), strings.Split(path, "/")
	if len(ps) != len(xs) {
		return false
	}
	for i, p := range ps {
		if p != "*" && p != xs[i] {
			return false
		}
	}
	return true
}
