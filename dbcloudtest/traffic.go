package dbcloudtest

import "net/http"

// What a test does with the server's traffic: where else to serve it,
// which requests to break, and what was sent.

// Handler returns the server's API as an http.Handler, so that the fake can
// be served behind the caller's own middleware, proxy or server, as
// httptest serves any handler: to test code that adds headers on the way,
// a gateway that rewrites paths, or a client configured with a proxy.
//
//	ts := httptest.NewServer(logRequests(srv.Handler()))
//	defer ts.Close()
//	client := srv.Client(dbcloud.WithBaseURL(ts.URL + "/v1"))
//
// It is the same model as URL serves, not a copy: what goes through it
// changes the state that Service and Services show, meets the faults of
// InjectFault, and is counted by Count and Requests. It serves the API's
// routes under /v1, as URL does: mount it at the root, or strip a prefix of
// your own first (http.StripPrefix). The server keeps listening on URL as
// well.
//
// The database endpoints it hands out are the server's own live loopback
// ports, whoever serves the handler. Drop and Truncate faults take over the
// connection (http.ResponseController's Hijack): a middleware whose
// ResponseWriter cannot hijack, and does not Unwrap to one that can, gets
// the request aborted instead (http.ErrAbortHandler), the nearest thing.
//
// Close ends the requests that a Delay fault holds in the handler, which
// are answered 503 UNAVAILABLE, and waits for the handler's requests to
// return, as it does for its own; from then on the handler answers 503
// UNAVAILABLE. Close the server that serves the
// handler before, or after, as suits: neither waits for the other.
func (s *Server) Handler() http.Handler { return s.front }

// InjectFault arms f: the next Times requests that match it get the fault.
//
// Go's http.Transport silently resends a GET, HEAD, OPTIONS or TRACE that
// fails on a reused keep-alive connection before any byte of the answer
// arrives, so one Drop of such a request may never reach the client's code:
// use Times: 2 (the SDK's own retry takes the second) to see the SDK act.
func (s *Server) InjectFault(f Fault) {
	s.front.injectFault(f)
}

// Count returns how many requests with this method and path the server has
// seen, faulted and failed ones included. method "" matches any method;
// path is matched as Fault.Path is ("" any path, '*' one segment).
func (s *Server) Count(method, path string) int { return s.front.count(method, path) }

// Requests returns every request the server has seen, in the order they
// arrived. A request's Status is set before its answer is sent: once a
// client call returns, its requests are there with their statuses.
func (s *Server) Requests() []Request {
	return s.front.requestLog()
}

// ResetRequests forgets the requests the server has seen so far, for Count
// and Requests, so that a test that sets the state up through the API (a
// service created and made READY) can then count exactly what the step
// under test sends, with Count(method, path) == n, instead of subtracting
// counts taken before. The state of the model, the faults armed and the
// clock do not change. A request in flight when ResetRequests runs is not
// counted afterwards.
func (s *Server) ResetRequests() { s.front.resetCounts() }
