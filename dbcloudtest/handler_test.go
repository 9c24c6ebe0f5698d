package dbcloudtest_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
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
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	c := srv.Client(dbcloud.WithBaseURL(ts.URL+"/v1"), dbcloud.WithRetryMax(0))
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Delay: time.Hour})
	held := make(chan error, 1)
	go func() {
		_, err := c.Services.List(context.Background(), srv.ProjectID)
		held <- err
	}()
	// The held List's arrival has no event to wait on: look for it, briefly.
	for deadline := time.Now().Add(5 * time.Second); srv.Count("GET", "") < 1; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the held List never arrived")
		}
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

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
