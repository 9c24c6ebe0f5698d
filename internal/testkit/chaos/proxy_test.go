package chaos_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/chaos"
)

// exchange is what a plain HTTP client got through the proxy.
type exchange struct {
	status  int
	header  http.Header
	body    []byte
	err     error // from the round trip
	bodyErr error // from reading the body
	took    time.Duration
}

func send(ctx context.Context, t *testing.T, method, url, key, body string) exchange {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	// A fresh connection per request: net/http silently retries some
	// requests that fail on a reused one.
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	start := time.Now()
	resp, err := hc.Do(req)
	x := exchange{err: err}
	if err == nil {
		x.status, x.header = resp.StatusCode, resp.Header
		x.body, x.bodyErr = io.ReadAll(resp.Body)
		resp.Body.Close()
	}
	x.took = time.Since(start)
	return x
}

// startBackend starts a fake behind the recorder, closed when the test ends.
func startBackend(t *testing.T) *chaos.Backend {
	t.Helper()
	b, err := chaos.StartBackend()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// createService creates a service on b directly and returns its id and
// initial password.
func createService(t *testing.T, b *chaos.Backend, name string) (id, password string) {
	t.Helper()
	x := send(t.Context(), t, "POST", b.URL+"/projects/"+b.ProjectID+"/services", b.APIKey, `{"name":"`+name+`"}`)
	var svc struct {
		ID       string `json:"service_id"`
		Password string `json:"initial_password"`
	}
	if err := json.Unmarshal(x.body, &svc); err != nil || x.status != 202 || svc.Password == "" {
		t.Fatalf("create: %d %q %v", x.status, x.body, err)
	}
	return svc.ID, svc.Password
}

func createdNamed(b *chaos.Backend, name string) int {
	n := 0
	for _, c := range b.Created() {
		if c.Name == name {
			n++
		}
	}
	return n
}

// TestProxyFaults sends a create through the proxy with each fault forced,
// on real sockets, and checks what the client got and whether the server
// acted.
func TestProxyFaults(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	backend := startBackend(t)

	cases := []struct {
		fault      chaos.Fault
		status     int   // 0: no response
		err        error // of the round trip
		bodyErr    error
		validJSON  bool
		acted      bool
		retryAfter string
		least      time.Duration
	}{
		{fault: chaos.Fault{Kind: chaos.None}, status: 202, validJSON: true, acted: true},
		{fault: chaos.Fault{Kind: chaos.Status5xxBefore, Status: 502}, status: 502},
		{fault: chaos.Fault{Kind: chaos.Status5xxAfter, Status: 504}, status: 504, acted: true},
		{fault: chaos.Fault{Kind: chaos.RateLimited}, status: 429, validJSON: true, retryAfter: "1"},
		{fault: chaos.Fault{Kind: chaos.ResetBefore}, err: syscall.ECONNRESET},
		{fault: chaos.Fault{Kind: chaos.ResetAfter}, err: syscall.ECONNRESET, acted: true},
		{fault: chaos.Fault{Kind: chaos.CutOff}, status: 202, bodyErr: io.ErrUnexpectedEOF, acted: true},
		{fault: chaos.Fault{Kind: chaos.Malformed}, status: 202, acted: true},
		{fault: chaos.Fault{Kind: chaos.Spike, Delay: 300 * time.Millisecond}, status: 202, validJSON: true, acted: true, least: 300 * time.Millisecond},
	}
	for _, c := range cases {
		t.Run(c.fault.Kind.String(), func(t *testing.T) {
			proxy, err := chaos.StartProxy(backend.URL, func() chaos.Fault { return c.fault }, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			name := "proxy-" + strings.ReplaceAll(c.fault.Kind.String(), " ", "-")
			x := send(t.Context(), t, "POST", proxy.URL+"/projects/"+backend.ProjectID+"/services", backend.APIKey, `{"name":"`+name+`"}`)
			proxy.Close() // its handlers have ended: the server acted or never will

			if x.status != c.status || !errors.Is(x.err, c.err) || !errors.Is(x.bodyErr, c.bodyErr) {
				t.Errorf("got status %d, error %v, body error %v; want %d, %v, %v", x.status, x.err, x.bodyErr, c.status, c.err, c.bodyErr)
			}
			if c.err == nil && c.bodyErr == nil && json.Valid(x.body) != c.validJSON {
				t.Errorf("body %q: valid JSON = %t, want %t", x.body, !c.validJSON, c.validJSON)
			}
			if got := x.header.Get("Retry-After"); got != c.retryAfter {
				t.Errorf("Retry-After = %q, want %q", got, c.retryAfter)
			}
			if x.took < c.least {
				t.Errorf("took %s, want at least %s", x.took, c.least)
			}
			want := 0
			if c.acted {
				want = 1
			}
			if got := createdNamed(backend, name); got != want {
				t.Errorf("the server created %d services, want %d", got, want)
			}
			counts := proxy.Counts()
			if counts.Requests != 1 || counts.Faults[c.fault.Kind] != 1 || counts.Inert != 0 {
				t.Errorf("counts = %+v, want 1 request of kind %s, none inert", counts, c.fault.Kind)
			}
			// The evidence the failures are classified by: an untagged
			// request is call 0's.
			rec := proxy.Attempts(0)
			if len(rec) != 1 || rec[0].Kind != c.fault.Kind || (rec[0].Reach == chaos.ReachYes) != c.acted || rec[0].Abandoned || !rec[0].IsCreate() {
				t.Errorf("attempts = %+v, want one create of kind %s, reached the server: %t", rec, c.fault.Kind, c.acted)
			}
		})
	}
}

// TestProxyAbandonedSpike: a request held past its client's deadline is
// recorded under the call number its header carries, as abandoned and not
// forwarded, and the server never sees it.
func TestProxyAbandonedSpike(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	backend := startBackend(t)
	proxy, err := chaos.StartProxy(backend.URL, func() chaos.Fault { return chaos.Fault{Kind: chaos.Spike, Delay: time.Minute} }, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", proxy.URL+"/projects/"+backend.ProjectID+"/services", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+backend.APIKey)
	req.Header.Set("X-Chaos-Call", "7")
	c := &http.Client{Transport: &http.Transport{}}
	if resp, err := c.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		if err == nil {
			resp.Body.Close()
		}
		t.Fatalf("got %v, want the client's deadline", err)
	}
	c.CloseIdleConnections()
	if err := proxy.Drain(t.Context()); err != nil {
		t.Fatal(err)
	}
	proxy.Close()
	rec := proxy.Attempts(7)
	if len(rec) != 1 || !rec[0].Abandoned || rec[0].Reach != chaos.ReachNo || rec[0].Delay != time.Minute || rec[0].IsCreate() {
		t.Errorf("attempts = %+v, want one list, abandoned while held a minute, not forwarded", rec)
	}
	if got := len(proxy.Attempts(0)); got != 0 {
		t.Errorf("%d untagged attempts, want 0", got)
	}
}

// TestProxyLateFault: the client gets the 5xx at once and the server gets
// the request later, after the client has moved on; Drain waits for it.
// The server sits behind a gate the test opens, so "at once" and "later"
// are events, not timings.
func TestProxyLateFault(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	backend := startBackend(t)
	arrived, open := make(chan struct{}, 1), make(chan struct{})
	target, err := url.Parse(strings.TrimSuffix(backend.URL, "/v1"))
	if err != nil {
		t.Fatal(err)
	}
	toBackend := httputil.NewSingleHostReverseProxy(target)
	gate := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		<-open
		toBackend.ServeHTTP(w, r)
	}))
	t.Cleanup(gate.Close)
	var opening sync.Once
	openGate := func() { opening.Do(func() { close(open) }) }
	t.Cleanup(openGate) // before gate.Close, which waits for its handler
	proxy, err := chaos.StartProxy(gate.URL+"/v1", func() chaos.Fault {
		return chaos.Fault{Kind: chaos.Status5xxLate, Status: 504, Delay: 10 * time.Millisecond}
	}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer proxy.Close()

	// A proxy that forwarded before answering would be stuck at the gate.
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	x := send(ctx, t, "POST", proxy.URL+"/projects/"+backend.ProjectID+"/services", backend.APIKey, `{"name":"late"}`)
	if x.status != 504 {
		t.Fatalf("got %d (%v) with the server's gate shut, want the 504 at once", x.status, x.err)
	}
	<-arrived // forwarded after the answer
	if got := createdNamed(backend, "late"); got != 0 {
		t.Errorf("the server created %d services before the gate opened, want 0", got)
	}

	drained := make(chan error, 1)
	go func() { drained <- proxy.Drain(t.Context()) }()
	select {
	case err := <-drained:
		t.Fatalf("Drain returned (%v) while the late forward was held at the gate", err)
	case <-time.After(100 * time.Millisecond):
	}
	openGate()
	if err := <-drained; err != nil {
		t.Fatal(err)
	}
	if got := createdNamed(backend, "late"); got != 1 {
		t.Errorf("the server created %d services once the request landed, want 1", got)
	}
	if x := send(t.Context(), t, "GET", proxy.URL+"/projects/"+backend.ProjectID+"/services", backend.APIKey, ""); x.err == nil {
		t.Errorf("a drained proxy answered %d, want no connection", x.status)
	}
}

// TestProxyDoesNotForwardWhatTheClientAbandoned: a client that gives up
// while its request is held by a spike leaves the server untouched, as with
// a real proxy.
func TestProxyDoesNotForwardWhatTheClientAbandoned(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	backend := startBackend(t)
	proxy, err := chaos.StartProxy(backend.URL, func() chaos.Fault {
		return chaos.Fault{Kind: chaos.Spike, Delay: time.Minute}
	}, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	x := send(ctx, t, "POST", proxy.URL+"/projects/"+backend.ProjectID+"/services", backend.APIKey, `{"name":"abandoned"}`)
	proxy.Close()
	if !errors.Is(x.err, context.DeadlineExceeded) {
		t.Errorf("error = %v, want the deadline", x.err)
	}
	if got := createdNamed(backend, "abandoned"); got != 0 {
		t.Errorf("the server created %d services, want 0", got)
	}
}

// TestProxyInertFaults: a cut-off of an empty body and a malformed body on
// a 204 cannot act; the answer arrives whole and the proxy counts the fault
// as inert.
func TestProxyInertFaults(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	backend := startBackend(t)
	id, _ := createService(t, backend, "inert")
	service := "/projects/" + backend.ProjectID + "/services/" + id
	cases := []struct {
		kind         chaos.Kind
		method, path string
		body         string
		status       int
	}{
		{chaos.Malformed, "POST", service + "/updatePassword", `{"password":"inert-password-1234"}`, 204},
		{chaos.CutOff, "DELETE", service, "", 202},
	}
	for _, c := range cases {
		t.Run(c.kind.String(), func(t *testing.T) {
			proxy, err := chaos.StartProxy(backend.URL, func() chaos.Fault { return chaos.Fault{Kind: c.kind} }, time.Second)
			if err != nil {
				t.Fatal(err)
			}
			x := send(t.Context(), t, c.method, proxy.URL+c.path, backend.APIKey, c.body)
			proxy.Close()
			if x.err != nil || x.bodyErr != nil || x.status != c.status || len(x.body) != 0 {
				t.Errorf("%s %s through a %s: %d %q %v %v, want a whole, empty %d", c.method, c.path, c.kind, x.status, x.body, x.err, x.bodyErr, c.status)
			}
			if got := proxy.Counts(); got.Inert != 1 || got.Faults[c.kind] != 1 {
				t.Errorf("counts = %+v, want 1 %s, inert", got, c.kind)
			}
		})
	}
}

// TestBackendRecords: the recorder keeps what the server created, a fork
// too, and the passwords it issued.
func TestBackendRecords(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	backend := startBackend(t)
	id, password := createService(t, backend, "pw")
	services := backend.URL + "/projects/" + backend.ProjectID + "/services"
	var fork struct {
		ID       string `json:"service_id"`
		Password string `json:"initial_password"`
	}
	fx := send(t.Context(), t, "POST", services+"/"+id+"/forkService", backend.APIKey, `{"fork_strategy":"NOW","name":"pw-fork"}`)
	if err := json.Unmarshal(fx.body, &fork); err != nil || fx.status != 202 || fork.Password == "" {
		t.Fatalf("fork: %d %q %v", fx.status, fx.body, err)
	}
	given := send(t.Context(), t, "POST", services+"/"+id+"/updatePassword", backend.APIKey, `{"password":"given-password-1234"}`)
	if given.status != 204 {
		t.Fatalf("updatePassword: %d %q", given.status, given.body)
	}
	if got := backend.Passwords(); len(got) != 2 || got[0] != password || got[1] != fork.Password {
		t.Errorf("recorded %d passwords, want the two issued ones", len(got))
	}
	// Compared, never printed: they are secrets.
	if got := backend.CurrentPasswords(); len(got) != 2 || got[id] != "given-password-1234" || got[fork.ID] != fork.Password {
		t.Errorf("%d current passwords, want the service's as updatePassword set it and the fork's as issued", len(got))
	}
	rs := send(t.Context(), t, "POST", services+"/"+id+"/replicaSets", backend.APIKey,
		`{"name":"pw-rs","nodes":1,"cpu_millis":500,"memory_gbs":2}`)
	var set struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(rs.body, &set); err != nil || rs.status != 202 {
		t.Fatalf("create replica set: %d %q %v", rs.status, rs.body, err)
	}
	want := []chaos.Created{
		{Kind: chaos.KindService, ID: id, Name: "pw"},
		{Kind: chaos.KindService, ID: fork.ID, Name: "pw-fork"},
		{Kind: chaos.KindReplicaSet, ID: set.ID, Name: "pw-rs"},
	}
	if diff := cmp.Diff(want, backend.Created()); diff != "" {
		t.Errorf("created (-want +got):\n%s", diff)
	}
	if errs := backend.RecordErrors(); len(errs) != 0 {
		t.Errorf("record errors: %v", errs)
	}
}

// TestProxyKeepsGivenPasswords: the password of an updatePassword is kept
// even when the request never reaches the server.
func TestProxyKeepsGivenPasswords(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	backend := startBackend(t)
	id, _ := createService(t, backend, "given")
	proxy, err := chaos.StartProxy(backend.URL, func() chaos.Fault { return chaos.Fault{Kind: chaos.ResetBefore} }, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	services := proxy.URL + "/projects/" + backend.ProjectID + "/services"
	x := send(t.Context(), t, "POST", services+"/"+id+"/updatePassword", backend.APIKey, `{"password":"given-password-1234"}`)
	_ = send(t.Context(), t, "POST", services+"/"+id+"/resize", backend.APIKey, `{"password":"not-a-password-update"}`)
	proxy.Close()
	if !errors.Is(x.err, syscall.ECONNRESET) {
		t.Errorf("error = %v, want the reset", x.err)
	}
	if diff := cmp.Diff([]string{"given-password-1234"}, proxy.Passwords()); diff != "" {
		t.Errorf("passwords (-want +got):\n%s", diff)
	}
}
