package pipeline

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Each request carries the SDK's headers, Content-Type only with a body,
// and the credential's current value (tok-2 after the 401 to tok-1),
// through net/http's Transport, whose requests share one header per
// credential value, and through a transport of the user's that writes into
// the header it is given, whose requests each get their own: with -race,
// its concurrent requests would report a shared one.
func TestRequestHeaders(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/concurrent" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path+" "+strings.Join([]string{
			r.Header.Get("Accept"), r.Header.Get("User-Agent"), r.Header.Get("Content-Type"), r.Header.Get("Authorization"),
		}, "|"))
		mu.Unlock()
		if r.URL.Path == "/d" && r.Header.Get("Authorization") == "Bearer tok-1" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	for name, base := range map[string]http.RoundTripper{
		"net/http's": srv.Client().Transport,
		"the user's": scribbler{srv.Client().Transport},
	} {
		seen = nil
		var n atomic.Int32
		auth := Tokens(func() (string, time.Time, error) {
			return "tok-" + strconv.Itoa(int(n.Add(1))), time.Time{}, nil
		}, time.Minute)
		c := New(Config{HTTPClient: &http.Client{Transport: base}, Scheme: "http", Host: host, Auth: auth, UserAgent: "sdk/1"})
		for _, r := range []Request{
			{Method: "GET", URL: srv.URL + "/a"},
			{Method: "POST", URL: srv.URL + "/b", Body: []byte("{}")},
			{Method: "GET", URL: srv.URL + "/c"},
			{Method: "GET", URL: srv.URL + "/d"},
			{Method: "POST", URL: srv.URL + "/e", Body: []byte("{}")},
		} {
			if res := c.Do(t.Context(), r); !res.OK() {
				t.Fatalf("%s: %+v", name, res)
			}
		}
		want := []string{
			"GET /a application/json|sdk/1||Bearer tok-1",
			"POST /b application/json|sdk/1|application/json|Bearer tok-1",
			"GET /c application/json|sdk/1||Bearer tok-1",
			"GET /d application/json|sdk/1||Bearer tok-1",
			"GET /d application/json|sdk/1||Bearer tok-2",
			"POST /e application/json|sdk/1|application/json|Bearer tok-2",
		}
		if diff := cmp.Diff(want, seen); diff != "" {
			t.Errorf("%s transport: headers on the wire (-want +got):\n%s", name, diff)
		}
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() { c.Do(t.Context(), Request{Method: "GET", URL: srv.URL + "/concurrent"}) })
		}
		wg.Wait()
	}
}

// scribbler is a transport of the user's that breaks RoundTripper's
// contract: it writes into the request's header, then sends it without.
type scribbler struct{ next http.RoundTripper }

func (s scribbler) RoundTrip(r *http.Request) (*http.Response, error) {
	r.Header.Set("X-Scribbled", "yes")
	delete(r.Header, "X-Scribbled")
	return s.next.RoundTrip(r)
}
