package dbcloudtest

import (
	"context"
	"sync"
)

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
