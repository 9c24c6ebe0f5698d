package pipeline

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// BenchmarkDo is what the pipeline costs a call answered at once, with
// and without the attempt bound, on a transport that treats the request's
// context as net/http's does.
func BenchmarkDo(b *testing.B) {
	for _, bc := range []struct {
		name  string
		bound time.Duration
	}{{"bound=30s", 30 * time.Second}, {"bound=none", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			c := New(Config{HTTPClient: &http.Client{Transport: netHTTPLike{}}, Scheme: "https", Host: "api.test",
				Auth: Static("Bearer k3y"), Policy: Policy{RetryMax: 4, AttemptMax: bc.bound}})
			r := Request{Method: "GET", URL: "https://api.test/v1/x", Out: new(struct{}), Decode: func([]byte, any) error { return nil }}
			ctx := b.Context()
			b.ReportAllocs()
			for b.Loop() {
				if res := c.Do(ctx, r); !res.OK() {
					b.Fatalf("%+v", res)
				}
			}
		})
	}
}

// netHTTPLike answers at once, doing with the request's context what
// net/http's Transport does: it makes a child of it for the request,
// watches its Done, and cancels it once the answer's body is read.
type netHTTPLike struct{}

func (netHTTPLike) RoundTrip(r *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancelCause(r.Context())
	_ = ctx.Done()
	return &http.Response{StatusCode: 200, Header: http.Header{}, Request: r, ContentLength: 2,
		Body: &cancelOnEOF{Reader: strings.NewReader("{}"), cancel: cancel}}, nil
}

// cancelOnEOF is a body that cancels the request's context at its end.
type cancelOnEOF struct {
	io.Reader
	cancel context.CancelCauseFunc
}

func (b *cancelOnEOF) Read(p []byte) (int, error) {
	n, err := b.Reader.Read(p)
	if err == io.EOF {
		b.cancel(nil)
	}
	return n, err
}

func (b *cancelOnEOF) Close() error { b.cancel(nil); return nil }
