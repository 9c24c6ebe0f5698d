package dbcloudtest_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// Close leaves no goroutine and no listener, also with a request held by a
// Delay fault, clients with idle connections, and Close called again.
func TestCloseLeavesNothing(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	srv := dbcloudtest.NewServer()
	c1, c2 := srv.Client(), srv.Client()
	createReady(t, c1, srv.ProjectID)
	if _, err := c2.Services.List(t.Context(), srv.ProjectID); err != nil {
		t.Fatal(err)
	}
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Delay: time.Hour})
	held := make(chan error, 1)
	go func() {
		_, err := c1.Services.List(context.Background(), srv.ProjectID)
		held <- err
	}()
	// The held List's arrival has no event to wait on: look for it, briefly.
	for deadline := time.Now().Add(5 * time.Second); srv.Count("GET", "/projects/*/services") < 2; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the held List never arrived")
		}
	}

	start := time.Now()
	srv.Close()
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Close took %v with a request held", d)
	}
	if err := <-held; err == nil {
		t.Error("the held request succeeded after Close")
	}
	srv.Close() // idempotent

	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if conn, err := net.DialTimeout("tcp", u.Host, time.Second); err == nil {
		conn.Close()
		t.Errorf("%s still accepts connections after Close", u.Host)
	}
}

func TestCloseConcurrently(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	srv := dbcloudtest.NewServer()
	srv.Client()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(srv.Close)
	}
	wg.Wait()
}

func TestClientDefaults(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	ctx := t.Context()

	// Retries take milliseconds: four 503s, then the real answer.
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Times: 4, Status: 503})
	start := time.Now()
	if _, err := c.Services.List(ctx, srv.ProjectID); err != nil {
		t.Fatalf("List after four 503s: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("four retries took %v", d)
	}
	if n := srv.Count("GET", ""); n != 5 {
		t.Errorf("%d GETs, want 5", n)
	}

	// A Retry-After longer than the retry waits is not slept.
	srv.InjectFault(dbcloudtest.Fault{Status: 429, Header: map[string][]string{"Retry-After": {"30"}}})
	start = time.Now()
	_, err := c.Services.List(ctx, srv.ProjectID)
	var apiErr *dbcloud.APIError
	if !errors.As(err, &apiErr) || apiErr.RetryAfter != 30*time.Second {
		t.Errorf("List under Retry-After: 30: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("a Retry-After of 30 s took %v", d)
	}

	// The caller's options win.
	strict := srv.Client(dbcloud.WithRetryMax(0))
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Status: 503})
	if _, err := strict.Services.List(ctx, srv.ProjectID); !errors.Is(err, dbcloud.ErrServer) {
		t.Errorf("WithRetryMax(0) after a 503: %v", err)
	}
}

func TestClientPanicsOnBadOptions(t *testing.T) {
	srv := newServer(t)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "dbcloudtest: Client") {
			t.Errorf("recovered %v", r)
		}
	}()
	srv.Client(dbcloud.WithRetryMax(-1))
}

func TestOptions(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	srv := newServer(t,
		dbcloudtest.WithAPIKey("sk-test-own"),
		dbcloudtest.WithProjects("alpha", "beta"),
		dbcloudtest.WithStartTime(start),
	)
	if srv.APIKey != "sk-test-own" || srv.ProjectID != "alpha" || !strings.HasPrefix(srv.URL, "http://127.0.0.1:") || !strings.HasSuffix(srv.URL, "/v1") {
		t.Fatalf("server %+v", srv)
	}
	c := srv.Client()
	for _, p := range []string{"alpha", "beta"} {
		svc, err := c.Services.Create(t.Context(), p, &dbcloud.CreateServiceRequest{Name: "db"})
		if err != nil {
			t.Fatalf("create in %s: %v", p, err)
		}
		if !svc.Created.Equal(start) {
			t.Errorf("created %v, want the start time %v", svc.Created, start)
		}
	}
	if _, err := c.Services.List(t.Context(), "gamma"); !errors.Is(err, dbcloud.ErrNotFound) {
		t.Errorf("unknown project: %v", err)
	}
	other, err := dbcloud.NewClient("another-key", dbcloud.WithBaseURL(srv.URL), dbcloud.WithRetryMax(0))
	if err != nil {
		t.Fatal(err)
	}
	defer other.CloseIdleConnections()
	if _, err := other.Services.List(t.Context(), "alpha"); !errors.Is(err, dbcloud.ErrUnauthorized) {
		t.Errorf("another key: %v", err)
	}
}

// The default clock starts at the real time, so code that filters with
// time.Now sees what the server made.
func TestDefaultStartIsNow(t *testing.T) {
	before := time.Now()
	srv := newServer(t)
	if now := srv.Now(); now.Before(before) || now.After(time.Now()) {
		t.Errorf("server clock at %v, NewServer ran at %v", now, before)
	}
}

// Two servers with the same seed make the same ids and passwords; another
// seed makes others.
func TestSeed(t *testing.T) {
	made := func(opts ...dbcloudtest.Option) (string, string) {
		srv := dbcloudtest.NewServer(opts...)
		defer srv.Close()
		svc, err := srv.Client().Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "db"})
		if err != nil {
			t.Fatal(err)
		}
		return svc.ServiceID, string(svc.InitialPassword)
	}
	id1, pw1 := made(dbcloudtest.WithSeed(7))
	id2, pw2 := made(dbcloudtest.WithSeed(7))
	id3, _ := made(dbcloudtest.WithSeed(8))
	if id1 != id2 || pw1 != pw2 {
		t.Errorf("same seed: %s/%s and %s/%s", id1, pw1, id2, pw2)
	}
	if id1 == id3 {
		t.Errorf("seeds 7 and 8 both made %s", id1)
	}
}

func TestOptionsPanicOnNonsense(t *testing.T) {
	for name, f := range map[string]func(){
		"WithStep":     func() { dbcloudtest.WithStep(-time.Second) },
		"WithAPIKey":   func() { dbcloudtest.WithAPIKey("") },
		"WithProjects": func() { dbcloudtest.WithProjects("a", "") },
		"Advance": func() {
			srv := dbcloudtest.NewServer()
			defer srv.Close()
			srv.Advance(-time.Second)
		},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "dbcloudtest: "+name) {
					t.Errorf("%s: recovered %v", name, r)
				}
			}()
			f()
		}()
	}
}

// Every endpoint is a live listener while its resource lives: a probe of a
// warming database times out naming 57P03, a deleted service's endpoint
// refuses, and Close closes every listener.
func TestEndpointsAreLive(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	srv := newServer(t, dbcloudtest.WithConnectDelay(time.Minute))
	client := srv.Client()
	svc := createReady(t, client, srv.ProjectID)
	if svc.Endpoint == nil || svc.Endpoint.Host != "127.0.0.1" || svc.Endpoint.Port == 0 {
		t.Fatalf("endpoint %+v, want a loopback port", svc.Endpoint)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	_, err := client.Services.WaitForConnectable(ctx, srv.ProjectID, svc.ServiceID, dbcloud.WithPollInterval(time.Millisecond, 5*time.Millisecond))
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "57P03") {
		t.Errorf("within the delay: %v, want a timeout naming 57P03", err)
	}
	srv.Advance(time.Minute)
	if _, err := client.Services.WaitForConnectable(t.Context(), srv.ProjectID, svc.ServiceID); err != nil {
		t.Errorf("after the delay: %v", err)
	}

	other := createReady(t, client, srv.ProjectID)
	if err := client.Services.Delete(t.Context(), srv.ProjectID, svc.ServiceID); err != nil {
		t.Fatal(err)
	}
	if err := client.Services.WaitForDeleted(t.Context(), srv.ProjectID, svc.ServiceID); err != nil {
		t.Fatal(err)
	}
	refused(t, "a deleted service's endpoint", svc.Endpoint)
	srv.Close()
	refused(t, "an endpoint after Close", other.Endpoint)
}

// refused fails the test when something still accepts connections at ep.
func refused(t *testing.T, what string, ep *dbcloud.Endpoint) {
	t.Helper()
	addr := net.JoinHostPort(ep.Host, strconv.Itoa(ep.Port))
	if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		conn.Close()
		t.Errorf("%s, %s, accepts connections", what, addr)
	}
}

// Behind the caller's middleware, the handler is the same model: its
// requests change the state, meet faults (a Drop included, which hijacks
// through the middleware's server) and are counted.
func TestHandlerBehindMiddleware(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	srv := newServer(t)
	var seen atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Add(1)
		if r.Header.Get("X-Tenant") != "acme" {
			http.Error(w, "no tenant", http.StatusForbidden)
			return
		}
		srv.Handler().ServeHTTP(w, r)
	}))
	defer ts.Close()

	tenant := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		r.Header.Set("X-Tenant", "acme")
		return ts.Client().Transport.RoundTrip(r)
	})}
	c := srv.Client(dbcloud.WithBaseURL(ts.URL+"/v1"), dbcloud.WithHTTPClient(tenant))
	defer c.CloseIdleConnections()
	svc := createReady(t, c, c.ProjectID())
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services/*", Times: 2, Drop: true})
	if _, err := c.Services.Get(t.Context(), srv.ProjectID, svc.ServiceID); err != nil {
		t.Fatalf("Get through two drops: %v", err)
	}
	if got, ok := srv.Service(svc.ServiceID); !ok || got.Status != dbcloud.StatusReady {
		t.Errorf("the server holds %+v, %v", got, ok)
	}
	if n, m := srv.Count("", ""), seen.Load(); n == 0 || int64(n) != m {
		t.Errorf("the server counted %d requests, the middleware saw %d", n, m)
	}

	plain := srv.Client(dbcloud.WithBaseURL(ts.URL + "/v1"))
	if _, err := plain.Services.List(t.Context(), srv.ProjectID); err == nil || !strings.Contains(err.Error(), "403") {
		t.Errorf("without the header: %v, want the middleware's 403", err)
	}
}

// Close ends a request that a Delay fault holds in the handler, and the
// handler answers 503 from then on.
func TestHandlerClose(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	srv := dbcloudtest.NewServer()
	// The handler asks the request's context for Done as it takes the
	// request in (to end it at Close): the event that the request is the
	// handler's to end.
	taken := make(chan struct{})
	var once sync.Once
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := doneNotifier{r.Context(), func() { once.Do(func() { close(taken) }) }}
		srv.Handler().ServeHTTP(w, r.WithContext(ctx))
	}))
	defer ts.Close()
	defer srv.Close() // on an early failure, before ts.Close waits for the held request
	c := srv.Client(dbcloud.WithBaseURL(ts.URL+"/v1"), dbcloud.WithRetryMax(0))
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Delay: time.Hour})
	held := make(chan error, 1)
	go func() {
		_, err := c.Services.List(context.Background(), srv.ProjectID)
		held <- err
	}()
	select {
	case <-taken:
	case <-time.After(5 * time.Second):
		t.Fatal("the held List never arrived")
	}
	done := make(chan struct{})
	go func() { srv.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not end the request held in the handler")
	}
	select {
	case err := <-held:
		// Not an empty 200, which a client would take for a success.
		var apiErr *dbcloud.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusServiceUnavailable || apiErr.Code != "UNAVAILABLE" {
			t.Errorf("the held List got %v; want the closed server's 503 UNAVAILABLE", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the held handler did not return")
	}

	res, err := ts.Client().Get(ts.URL + "/v1/projects/" + srv.ProjectID + "/services")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), `"code":"UNAVAILABLE"`) ||
		!strings.Contains(string(body), "closed") || !strings.Contains(string(body), `"details"`) || res.Header.Get("X-Request-Id") == "" {
		t.Errorf("after Close: %d %s %v; want the API's 503 UNAVAILABLE, with details and a request id", res.StatusCode, body, res.Header)
	}
	c.CloseIdleConnections()
	ts.Client().CloseIdleConnections()
}

// A client that stops reading a truncated answer does not hold Close: the
// half body (16 MiB here) fills the socket's buffers, and Close ends the
// write by closing the taken-over connection.
func TestCloseEndsATruncatedWrite(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	srv := dbcloudtest.NewServer()
	defer srv.Close() // on an early failure
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Status: 200, Body: strings.Repeat("x", 32<<20), Truncate: true})
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET /v1/projects/"+srv.ProjectID+"/services HTTP/1.1\r\nHost: fake\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	// The status line has come: the server is writing; the client reads no more.
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadFull(conn, make([]byte, len("HTTP/1.1 200"))); err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() { srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		conn.Close() // let Close and the test end
		<-closed
		t.Fatal("Close waited on a client that stopped reading")
	}
}

// doneNotifier is a request context that calls notify whenever its Done
// is asked for.
type doneNotifier struct {
	context.Context
	notify func()
}

func (c doneNotifier) Done() <-chan struct{} {
	c.notify()
	return c.Context.Done()
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
