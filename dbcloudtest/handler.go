package dbcloudtest

import (
	"context"
	"net/http"
	"sync"
)

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
func (s *Server) Handler() http.Handler { return s.api }

// handlerCalls tracks the requests being served, by the server's own
// listener or by whatever serves Handler, so that Close can end the ones a
// Delay fault holds and wait for all.
type handlerCalls struct {
	stop context.Context // cancelled by close: ends requests a Delay holds
	end  context.CancelFunc

	mu     sync.Mutex
	closed bool
	wg     sync.WaitGroup
}

func (h *handlerCalls) init() { h.stop, h.end = context.WithCancel(context.Background()) }

// begin registers a request; it is false once close has begun. done must
// be called when a request begun returns.
func (h *handlerCalls) begin() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.wg.Add(1)
	return true
}

func (h *handlerCalls) done() { h.wg.Done() }

// held returns the context of a request that a fault may hold: it ends with
// the request's own or with close. Only such a request needs one, which
// costs allocations that every other request is spared; release must be
// called when the request returns.
func (h *handlerCalls) held(parent context.Context) (ctx context.Context, release func()) {
	ctx, cancel := context.WithCancel(parent)
	unhook := context.AfterFunc(h.stop, cancel)
	return ctx, func() { unhook(); cancel() }
}

// close refuses new requests, ends the held ones and waits for all.
func (h *handlerCalls) close() {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	h.end()
	h.wg.Wait()
}
