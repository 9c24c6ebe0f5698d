package dbcloudtest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

type countKey struct{ method, path string }

// injectFault queues f.
func (a *engine) injectFault(f Fault) {
	f.Header = f.Header.Clone()
	if f.Times <= 0 {
		f.Times = 1
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.faults = append(a.faults, &f)
}

// count returns how many requests, faulted ones included, had this method
// ("" for any) and an escaped path matching pattern (as Fault.Path).
func (a *engine) count(method, pattern string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for k, c := range a.counts {
		if (method == "" || k.method == method) && pathMatches(pattern, k.path) {
			n += c
		}
	}
	return n
}

// resetCounts forgets the requests seen so far, for count and requestLog.
func (a *engine) resetCounts() {
	a.mu.Lock()
	defer a.mu.Unlock()
	clear(a.counts)
	a.logBase += len(a.log)
	a.log = nil
}

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

// takeFault returns the fault that answers a request, if any; the caller
// holds a.mu.
func (a *engine) takeFault(method, path string) *Fault {
	for i, f := range a.faults {
		if (f.Method == "" || f.Method == method) && pathMatches(f.Path, path) {
			f.Times--
			if f.Times == 0 {
				a.faults = slices.Delete(a.faults, i, i+1)
			}
			answer := *f
			return &answer
		}
	}
	return nil
}

func (a *engine) serveFault(w http.ResponseWriter, r *http.Request, id string, f *Fault, seq int) {
	if f.Delay > 0 {
		t := time.NewTimer(f.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			// Released by Close (or the client gave up, and reads nothing):
			// a held request must not end as an empty 200.
			a.answerClosed(w)
			return
		}
	}
	// The model acts unless the fault answers in its place (a drop or a
	// canned status) without AfterHandling.
	var e encoded
	if f.AfterHandling || (!f.Drop && f.Status == 0) {
		e = a.handle(r, id)
	}
	if f.Drop {
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, maxBodyBytes))
		conn, _ := hijack(w)
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.SetLinger(0) // a reset, as when a proxy or the server dies mid-request
		}
		_ = conn.Close()
		return
	}
	if f.Status != 0 {
		e = canned(f, id)
	}
	for k, v := range f.Header {
		e.header[k] = v
	}
	a.answered(seq, e.status)
	if !f.Truncate {
		writeEncoded(w, e)
		return
	}
	conn, brw := hijack(w)
	defer conn.Close()
	// Close ends the request's context: it must not wait on a client that
	// stopped reading the half body.
	defer context.AfterFunc(r.Context(), func() { _ = conn.Close() })()
	fmt.Fprintf(brw, "HTTP/1.1 %03d %s\r\n", e.status, http.StatusText(e.status))
	_ = e.header.Write(brw)
	_, _ = brw.WriteString("\r\n")
	_, _ = brw.Write(e.body[:len(e.body)/2])
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

func canned(f *Fault, id string) encoded {
	e := encoded{status: f.Status, header: http.Header{}, body: []byte(f.Body)}
	e.header.Set("X-Request-Id", id)
	if f.Body != "" && json.Valid(e.body) {
		e.header.Set("Content-Type", "application/json")
	}
	if f.Status != http.StatusNoContent {
		e.header.Set("Content-Length", strconv.Itoa(len(e.body)))
	}
	return e
}
