package dbcloud_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// bubbleTransport is a transport for clients inside a testing/synctest
// bubble, whose clock moves only when every goroutine of the bubble waits,
// of a dbcloudtest server made outside it: a server listens on the
// network, which would keep the clock from moving, and the WaitGroup and
// condition variables it closes with must not be used from both sides.
// Each request is answered by the server's handler, called in memory on a
// goroutine outside the bubble, one request at a time; the bubble waits
// for the answer without its clock moving, so a request takes no time on
// it. The handler gets the request without the caller's context, whose
// channels belong to the bubble.
type bubbleTransport struct {
	mu  sync.Mutex // one request at a time on in and out
	in  chan *http.Request
	out chan *http.Response
}

// newBubbleTransport starts the goroutine that calls h, outside any
// bubble: call it before synctest.Test. It ends with t.
func newBubbleTransport(t *testing.T, h http.Handler) *bubbleTransport {
	b := &bubbleTransport{in: make(chan *http.Request), out: make(chan *http.Response)}
	go func() {
		for r := range b.in {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			b.out <- rec.Result()
		}
	}()
	t.Cleanup(func() { close(b.in) })
	return b
}

func (b *bubbleTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	in := r.WithContext(context.Background())
	if in.Body == nil {
		in.Body = http.NoBody // a server's request always has a body
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.in <- in
	resp := <-b.out
	_ = in.Body.Close() // a RoundTripper closes the request's body
	return resp, nil
}
