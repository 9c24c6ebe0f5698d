package dbcloudtest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/httpapi"
)

// How a fault's answer goes out, step by step; front.serveFault runs the
// steps in order.

// wait holds the request for the fault's Delay, and is false when the
// request's context ended first: Close released it, or its client gave up.
// The SDK's one sleep is internal/pipeline's Sleep; this package is the
// test server users run their programs against, and does not import the
// SDK's internal packages, so that what it serves never depends on how
// the client it tests is built.
func (f *Fault) wait(ctx context.Context) bool {
	if f.Delay <= 0 {
		return true
	}
	t := time.NewTimer(f.Delay)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// reachesModel says whether the model acts on the request: unless the
// fault answers in its place (a drop or a canned status) without
// AfterHandling.
func (f *Fault) reachesModel() bool { return f.AfterHandling || (!f.Drop && f.Status == 0) }

// answer is what the fault sends instead of, or on top of, the model's
// answer e: its canned Status and Body, if any, with its Header added.
func (f *Fault) answer(e httpapi.Encoded, id string) httpapi.Encoded {
	if f.Status != 0 {
		e = httpapi.Encoded{Status: f.Status, Header: http.Header{}, Body: []byte(f.Body)}
		e.Header.Set("X-Request-Id", id)
		if f.Body != "" && json.Valid(e.Body) {
			e.Header.Set("Content-Type", "application/json")
		}
		if f.Status != http.StatusNoContent {
			e.Header.Set("Content-Length", strconv.Itoa(len(e.Body)))
		}
	}
	for k, v := range f.Header {
		e.Header[k] = v
	}
	return e
}

// drop reads the request and resets its connection, as when a proxy or
// the server dies mid-request.
func drop(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, httpapi.MaxBodyBytes))
	conn, _ := hijack(w)
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// truncate sends e's status and headers, with the full Content-Length, and
// half of its body, then closes the connection.
func truncate(w http.ResponseWriter, r *http.Request, e httpapi.Encoded) {
	conn, brw := hijack(w)
	defer conn.Close()
	// Close ends the request's context: it must not wait on a client that
	// stopped reading the half body.
	defer context.AfterFunc(r.Context(), func() { _ = conn.Close() })()
	fmt.Fprintf(brw, "HTTP/1.1 %03d %s\r\n", e.Status, http.StatusText(e.Status))
	_ = e.Header.Write(brw)
	_, _ = brw.WriteString("\r\n")
	_, _ = brw.Write(e.Body[:len(e.Body)/2])
	_ = brw.Flush()
}

// hijack takes the raw connection. Where that is impossible (HTTP/2, a
// recorder) the response is aborted instead, the nearest equivalent.
func hijack(w http.ResponseWriter) (net.Conn, *bufio.ReadWriter) {
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	return conn, brw
}
