package dbcloudtest

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"
)

func TestFaultStatus(t *testing.T) {
	f := newFake(t, config{})
	list := f.ServicesPath()
	f.api.injectFault(Fault{Method: "GET", Path: "/projects/*/services", Times: 2, Status: 503,
		Header: http.Header{"Retry-After": {"7"}}, Body: "<html>busy</html>"})
	for range 2 {
		r := f.Send("GET", list, nil)
		if r.Status != 503 || r.Header.Get("Retry-After") != "7" || string(r.Raw) != "<html>busy</html>" || r.Header.Get("X-Request-Id") == "" {
			t.Fatalf("fault answer %d %v %q", r.Status, r.Header, r.Raw)
		}
		if ct := r.Header.Get("Content-Type"); ct == "application/json" {
			t.Errorf("HTML labelled %q", ct)
		}
	}
	f.Send("GET", list, nil).Must(t, 200)

	// JSON bodies are labelled JSON; empty bodies are empty.
	f.api.injectFault(Fault{Status: 429, Body: `{"code":"RATE_LIMITED","message":"slow down"}`})
	r := f.Send("GET", list, nil)
	if r.Status != 429 || r.Obj(t)["code"] != "RATE_LIMITED" {
		t.Errorf("JSON fault %d %s", r.Status, r.Raw)
	}
	f.api.injectFault(Fault{Status: 502})
	if r := f.Send("GET", list, nil); r.Status != 502 || len(r.Raw) != 0 {
		t.Errorf("empty fault %d %q", r.Status, r.Raw)
	}
	f.api.injectFault(Fault{Status: 500, Body: `{"code": "INT`})
	if r := f.Send("GET", list, nil); r.Status != 500 || string(r.Raw) != `{"code": "INT` {
		t.Errorf("malformed fault %d %q", r.Status, r.Raw)
	}
}

func TestFaultMatching(t *testing.T) {
	f := newFake(t, config{})
	id := f.Ready(nil)
	f.api.injectFault(Fault{Method: "POST", Path: "/projects/*/services/*/start", Status: 500})
	f.api.injectFault(Fault{Method: "GET", Status: 502})
	f.api.injectFault(Fault{Status: 503})
	f.api.injectFault(Fault{Status: 504})
	// Each request takes the first fault, in the order added, that matches
	// its method and path.
	r := f.Send("POST", f.SvcPath(id)+"/stop", nil)
	if r.Status != 503 {
		t.Errorf("stop matched %d, want 503 (third fault: any method, any path)", r.Status)
	}
	r = f.Send("GET", f.SvcPath(id), nil)
	if r.Status != 502 {
		t.Errorf("GET matched %d, want 502 (second fault)", r.Status)
	}
	r = f.Send("POST", f.SvcPath(id)+"/start", nil)
	if r.Status != 500 {
		t.Errorf("start matched %d, want 500 (first fault)", r.Status)
	}
	if r = f.Send("DELETE", f.SvcPath(id), nil); r.Status != 504 {
		t.Errorf("last fault %d", r.Status)
	}
	f.WantStatus(id, "READY")
	// Faults come before authentication.
	f.api.injectFault(Fault{Status: 418})
	if r := f.Send("GET", f.SvcPath(id), nil, "Authorization", ""); r.Status != 418 {
		t.Errorf("unauthenticated request got %d, want the fault", r.Status)
	}
	// '*' is one whole segment.
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"", "/anything/at/all", true},
		{"/projects/*/services", "/projects/p/services", true},
		{"/projects/*/services", "/projects/p/q/services", false},
		{"/projects/*/services", "/projects/p/services/s", false},
		{"/projects/*/services/*", "/projects/p/services/a%2Fb", true},
		{"/projects/p*/services", "/projects/p1/services", false},
	} {
		if got := pathMatches(tc.pattern, tc.path); got != tc.want {
			t.Errorf("pathMatches(%q, %q) = %v", tc.pattern, tc.path, got)
		}
	}
}

func TestFaultDrop(t *testing.T) {
	f := newFake(t, config{})
	list := f.ServicesPath()
	f.api.injectFault(Fault{Method: "POST", Path: "/projects/*/services", Drop: true})
	if _, err := f.RawDo(t.Context(), "POST", list, `{"name": "lost"}`); err == nil {
		t.Fatal("dropped request succeeded")
	}
	if n := len(f.Send("GET", list, nil).List(t)); n != 0 {
		t.Errorf("a dropped create made %d services", n)
	}

	f.api.injectFault(Fault{Method: "POST", Path: "/projects/*/services", Drop: true, AfterHandling: true})
	if _, err := f.RawDo(t.Context(), "POST", list, `{"name": "made"}`); err == nil {
		t.Fatal("dropped request succeeded")
	}
	l := f.Send("GET", list, nil).Must(t, 200).List(t)
	if len(l) != 1 || l[0].(map[string]any)["name"] != "made" {
		t.Errorf("Drop+AfterHandling: services %v, want the one created", l)
	}
	if n := f.api.count("POST", "/projects/*/services"); n != 2 {
		t.Errorf("Count = %d, want 2", n)
	}
}

// A status with AfterHandling answers as a proxy that failed after the
// server acted: the change is made, the caller gets the canned answer.
func TestFaultStatusAfterHandling(t *testing.T) {
	f := newFake(t, config{})
	list := f.ServicesPath()
	f.api.injectFault(Fault{Method: "POST", Path: "/projects/*/services", Status: 504, Body: "gateway timeout", AfterHandling: true})
	resp, err := f.RawDo(t.Context(), "POST", list, `{"name": "made"}`)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 504 || string(body) != "gateway timeout" {
		t.Errorf("answer %d %q, want the canned 504", resp.StatusCode, body)
	}
	l := f.Send("GET", list, nil).Must(t, 200).List(t)
	if len(l) != 1 || l[0].(map[string]any)["name"] != "made" {
		t.Errorf("services %v, want the one created behind the 504", l)
	}
}

func TestFaultTruncate(t *testing.T) {
	f := newFake(t, config{})
	f.Create(nil)
	f.Create(nil)
	list := f.ServicesPath()
	full := f.Send("GET", list, nil).Must(t, 200).Raw
	f.api.injectFault(Fault{Path: "/projects/*/services", Truncate: true, Header: http.Header{"X-Extra": {"1"}}})
	res, err := f.RawDo(t.Context(), "GET", list, "")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 || res.ContentLength != int64(len(full)) || res.Header.Get("X-Extra") != "1" || res.Header.Get("X-Request-Id") == "" {
		t.Errorf("truncated response: %d, Content-Length %d (full %d), header %v", res.StatusCode, res.ContentLength, len(full), res.Header)
	}
	got, err := io.ReadAll(res.Body)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("reading a truncated body: %v", err)
	}
	if string(got) != string(full[:len(full)/2]) {
		t.Errorf("got %d bytes %q, want the first half of %q", len(got), got, full)
	}
}

func TestFaultDelay(t *testing.T) {
	f := newFake(t, config{})
	list := f.ServicesPath()
	// A delay alone answers normally, late.
	f.api.injectFault(Fault{Delay: 30 * time.Millisecond})
	start := time.Now()
	f.Send("GET", list, nil).Must(t, 200)
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Errorf("answered after %v", d)
	}
	// A delay with a status answers the fault, late.
	f.api.injectFault(Fault{Delay: 10 * time.Millisecond, Status: 503})
	f.Send("GET", list, nil).Must(t, 503)

	// The delay ends with the request's context: closing the server, which
	// waits for every handler, is quick.
	g := newFake(t, config{})
	g.api.injectFault(Fault{Delay: time.Minute})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := g.RawDo(ctx, "GET", list, ""); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("delayed request: %v", err)
	}
	start = time.Now()
	g.Srv.Close()
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("closing took %v: the delayed handler outlived its request", d)
	}
}

func TestCount(t *testing.T) {
	f := newFake(t, config{})
	id := f.Ready(nil)
	f.api.resetCounts()
	f.Send("GET", f.SvcPath(id), nil)
	f.Send("GET", f.SvcPath(id), nil, "Authorization", "") // 401s count
	f.Send("GET", f.SvcPath("other"), nil)                 // 404s count
	f.Send("POST", f.SvcPath(id)+"/stop", nil)
	f.api.injectFault(Fault{Status: 500})
	f.Send("POST", f.SvcPath(id)+"/start", nil) // faulted requests count
	f.Send("GET", f.SvcPath("a%2Fb"), nil)
	for _, tc := range []struct {
		method, pattern string
		want            int
	}{
		{"GET", f.SvcPath(id), 2},
		{"GET", "/projects/*/services/*", 4},
		{"POST", "/projects/*/services/*/*", 2},
		{"POST", "/projects/*/services/*/stop", 1},
		{"", "", 6},
		{"", "/projects/*/services/*", 4},
		{"DELETE", "", 0},
		{"GET", f.SvcPath("a%2Fb"), 1},
		{"GET", f.SvcPath("a/b"), 0},
	} {
		if got := f.api.count(tc.method, tc.pattern); got != tc.want {
			t.Errorf("Count(%q, %q) = %d, want %d", tc.method, tc.pattern, got, tc.want)
		}
	}
	f.api.resetCounts()
	if n := f.api.count("", ""); n != 0 {
		t.Errorf("after ResetCounts: %d", n)
	}
}
