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

// listVia lists a project's services with a client of base (a server's
// URL) and opts, and returns the error; the client's idle connections are
// closed after.
func listVia(t *testing.T, base string, opts ...dbcloud.Option) error {
	t.Helper()
	c, err := dbcloud.NewClient(mockKey, append([]dbcloud.Option{dbcloud.WithBaseURL(base + "/v1")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	_, err = c.Services.List(t.Context(), "p")
	return err
}

func TestRedirectToAnotherHostDropsAuthorization(t *testing.T) {
	t.Parallel()
	target, auth, _ := authRecorder(t)
	from, _ := redirector(t, false, func(r *http.Request) string { return target.URL + r.URL.Path })
	if err := listVia(t, from.URL); err != nil {
		t.Fatal(err)
	}
	if got := auth.Load(); got != "" {
		t.Errorf("the other host got Authorization %q", got)
	}
}

func TestRedirectOnSameHostKeepsAuthorization(t *testing.T) {
	t.Parallel()
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
	if err := listVia(t, srv.URL); err != nil {
		t.Fatal(err)
	}
	if got := auth.Load(); got != "Bearer "+mockKey {
		t.Errorf("same host got Authorization %q, want the key", got)
	}
}

func TestRedirectRefused(t *testing.T) {
	t.Parallel()
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
			var opts []dbcloud.Option
			if tt.tls {
				opts = append(opts, dbcloud.WithHTTPClient(from.Client()))
			}
			if err := listVia(t, from.URL, opts...); err == nil || !strings.Contains(err.Error(), "redirect refused") {
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
	t.Parallel()
	srv, _, hits := authRecorder(t)
	hc := &http.Client{}
	if err := listVia(t, srv.URL, dbcloud.WithHTTPClient(hc)); err != nil {
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
