package dbcloudtest

import (
	"bytes"
	"io"
	"net/http"
	"sync"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/httpapi"
)

// front is what every request meets first, through URL or Handler alike:
// it numbers the request, counts and records it, answers the fault armed
// for it, if any, and passes the rest to the API. It is the http.Handler
// that Server.Handler returns, and tracks the requests it serves so that
// Close can end and wait for them. Faults are matched before
// authentication and routing, the first matching one in the order added.
type front struct {
	api   *httpapi.API
	calls handlerCalls

	mu     sync.Mutex
	faults faultQueue
	rec    recorder
}

// newFront returns the front of a new API configured by cfg.
func newFront(cfg config) *front {
	f := &front{api: httpapi.New(cfg.api), rec: recorder{off: cfg.noLog}}
	f.calls.init()
	return f
}

// ServeHTTP answers one request as one of the calls that close ends and
// waits for. Once closed, it answers 503 UNAVAILABLE.
func (h *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.calls.begin() {
		h.answerClosed(w)
		return
	}
	defer h.calls.done()
	id := h.api.NextRequestID()
	f, seq := h.arrive(r.Method, httpapi.RelPath(r), r.URL.RawQuery)
	if f == nil {
		e := h.api.Handle(r, id)
		h.answered(seq, e.Status)
		e.Write(w)
		return
	}
	ctx, release := h.calls.held(r.Context())
	defer release()
	h.serveFault(w, r.WithContext(ctx), id, f, seq)
}

// serveFault answers a request that a fault takes.
func (h *front) serveFault(w http.ResponseWriter, r *http.Request, id string, f *Fault, seq int) {
	if f.Delay > 0 {
		// Read the body before holding the request, as a proxy holding it
		// would: net/http watches the connection, and ends the request's
		// context when its client gives up, only once the body is read. A
		// held create or delete given up then never reaches the model.
		buf, _ := io.ReadAll(io.LimitReader(r.Body, httpapi.MaxBodyBytes+1))
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(buf), r.Body), r.Body}
	}
	if !f.wait(r.Context()) {
		// Released by Close (or the client gave up, and reads nothing): a
		// held request must not end as an empty 200.
		h.answerClosed(w)
		return
	}
	var e httpapi.Encoded
	if f.reachesModel() {
		e = h.api.Handle(r, id)
	}
	if f.Drop {
		drop(w, r)
		return
	}
	e = f.answer(e, id)
	h.answered(seq, e.Status)
	if f.Truncate {
		truncate(w, r, e)
		return
	}
	e.Write(w)
}

// answerClosed answers as a closed server does.
func (h *front) answerClosed(w http.ResponseWriter) {
	closed := apierr.Unavailable("dbcloudtest: the server is closed", "Close was called")
	httpapi.EncodeError(closed, h.api.NextRequestID()).Write(w)
}

// arrive records a request and returns the fault that answers it, if any,
// and its sequence number for answered.
func (h *front) arrive(method, path, query string) (*Fault, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	seq := h.rec.arrive(method, path, query)
	return h.faults.take(method, path), seq
}

// answered records the status of request seq before the first byte of its
// answer is written: a client that has its answer finds it in requestLog.
func (h *front) answered(seq, status int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.rec.answered(seq, status)
}

// injectFault arms f.
func (h *front) injectFault(f Fault) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.faults.add(f)
}

// count returns how many requests, faulted ones included, had this method
// ("" for any) and an escaped path matching pattern (as Fault.Path).
func (h *front) count(method, pattern string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.rec.count(method, pattern)
}

// requestLog returns every request seen since the start or the last
// resetCounts, in the order they arrived; nothing WithRequestLog(false).
func (h *front) requestLog() []Request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.rec.requests()
}

// resetCounts forgets the requests seen so far, for count and requestLog.
func (h *front) resetCounts() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.rec.reset()
}
