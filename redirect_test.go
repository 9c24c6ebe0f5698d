package dbcloud_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/dbcloud/dbcloud-go"
)

// authRecorder answers [] and records the Authorization header it saw.
func authRecorder(t *testing.T) (*httptest.Server, *atomic.Value, *atomic.Int32) {
	var auth atomic.Value
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		auth.Store(r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("[]"))
	}))
	t.Cleanup(srv.Close)
	return srv, &auth, &hits
}

func redirector(t *testing.T, tls bool, to func(r *http.Request) string) (*httptest.Server, *atomic.Int32) {
	var hits atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.Redirect(w, r, to(r), http.StatusTemporaryRedirect)
	})
	srv := httptest.NewUnstartedServer(h)
	if tls {
		srv.StartTLS()
	} else {
		srv.Start()
	}
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestRedirectToAnotherHostDropsAuthorization(t *testing.T) {
	target, auth, _ := authRecorder(t)
	from, _ := redirector(t, false, func(r *http.Request) string { return target.URL + r.URL.Path })
	c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(from.URL+"/v1"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	if _, err := c.Services.List(t.Context(), "p"); err != nil {
		t.Fatal(err)
	}
	if got := auth.Load(); got != "" {
		t.Errorf("the other host got Authorization %q", got)
	}
}

func TestRedirectOnSameHostKeepsAuthorization(t *testing.T) {
	var auth atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/moved") {
			http.Redirect(w, r, r.URL.Path+"/moved", http.StatusTemporaryRedirect)
			return
		}
		auth.Store(r.Header.Get("Authorization"))
		_, _ = w.Write([]byte("[]"))
	}))
	defer srv.Close()
	c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(srv.URL+"/v1"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	if _, err := c.Services.List(t.Context(), "p"); err != nil {
		t.Fatal(err)
	}
	if got := auth.Load(); got != "Bearer "+mockKey {
		t.Errorf("same host got Authorization %q, want the key", got)
	}
}

func TestRedirectRefused(t *testing.T) {
	target, _, targetHits := authRecorder(t)
	tests := []struct {
		name string
		tls  bool
		to   string
	}{
		{"https to http", true, target.URL + "/v1/projects/p/services"},
		{"to plain http on a public host", false, "http://api.example.com/v1/projects/p/services"},
		{"to another scheme", false, "ftp://127.0.0.1/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, fromHits := redirector(t, tt.tls, func(*http.Request) string { return tt.to })
			opts := []dbcloud.Option{dbcloud.WithBaseURL(from.URL + "/v1")}
			if tt.tls {
				opts = append(opts, dbcloud.WithHTTPClient(from.Client()))
			}
			c, err := dbcloud.NewClient(mockKey, opts...)
			if err != nil {
				t.Fatal(err)
			}
			defer c.CloseIdleConnections()
			_, err = c.Services.List(t.Context(), "p")
			if err == nil || !strings.Contains(err.Error(), "redirect refused") {
				t.Fatalf("err = %v, want the redirect refused", err)
			}
			if n := fromHits.Load(); n != 1 {
				t.Errorf("attempts = %d, want 1: a refused redirect is not retried", n)
			}
		})
	}
	if n := targetHits.Load(); n != 0 {
		t.Errorf("the http target was reached %d times", n)
	}
}

// The caller's http.Client is used for attempts but not modified.
func TestWithHTTPClientIsNotModified(t *testing.T) {
	srv, _, hits := authRecorder(t)
	hc := &http.Client{}
	c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(srv.URL+"/v1"), dbcloud.WithHTTPClient(hc))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Services.List(t.Context(), "p"); err != nil {
		t.Fatal(err)
	}
	if hc.CheckRedirect != nil || hc.Transport != nil || hc.Timeout != 0 || hc.Jar != nil {
		t.Errorf("the caller's client was modified: %+v", hc)
	}
	if hits.Load() != 1 {
		t.Errorf("hits = %d, want 1", hits.Load())
	}
	hc.CloseIdleConnections()
}
