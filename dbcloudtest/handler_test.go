package dbcloudtest_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/leakcheck"
)

// Behind the caller's middleware, the handler is the same model: its
// requests change the state, meet faults (a Drop included, which hijacks
// through the middleware's server) and are counted.
func TestHandlerBehindMiddleware(t *testing.T) {
	leakcheck.Check(t)
	srv := dbcloudtest.NewServer()
	defer srv.Close()
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
	leakcheck.Check(t)
	srv := dbcloudtest.NewServer()
	// The handler asks the request's context for Done once it has taken the
	// request in (to end it at Close) and again while a Delay holds it: the
	// first call is the event that the request is the handler's to end.
	taken := make(chan struct{})
	var once sync.Once
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := doneNotifier{r.Context(), func() { once.Do(func() { close(taken) }) }}
		srv.Handler().ServeHTTP(w, r.WithContext(ctx))
	}))
	defer ts.Close()
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
	<-held

	res, err := ts.Client().Get(ts.URL + "/v1/projects/" + srv.ProjectID + "/services")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "closed") {
		t.Errorf("after Close: %d %s", res.StatusCode, body)
	}
	c.CloseIdleConnections()
	ts.Client().CloseIdleConnections()
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
