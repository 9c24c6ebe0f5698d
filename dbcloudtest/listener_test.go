package dbcloudtest

import (
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/httpapi"
)

func get(t *testing.T, c *http.Client, s *listener, path string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", s.url+path, nil)
	req.Header.Set("Authorization", "Bearer "+s.front.api.Config().APIKey)
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body) // a connection is reused only once its body was read
	return res.StatusCode
}

func TestServer(t *testing.T) {
	CheckGoroutines(t)
	s, err := listen("", config{api: httpapi.Config{APIKey: "k-123", Projects: []string{"pA"}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.close() }) // on an early failure; close is idempotent
	if !strings.HasPrefix(s.url, "http://127.0.0.1:") || !strings.HasSuffix(s.url, "/v1") || s.front.api.Config().APIKey != "k-123" || s.front.api.Config().Projects[0] != "pA" || s.front == nil {
		t.Fatalf("server %+v", s)
	}
	tr := &http.Transport{}
	c := &http.Client{Transport: tr}
	for range 3 {
		if st := get(t, c, s, "/projects/pA/services"); st != 200 {
			t.Fatalf("status %d", st)
		}
	}
	if n := s.newConnections(); n != 1 {
		t.Errorf("3 requests on a keep-alive client opened %d connections", n)
	}
	tr2 := &http.Transport{}
	get(t, &http.Client{Transport: tr2}, s, "/projects/pA/services")
	if n := s.newConnections(); n != 2 {
		t.Errorf("a second client: %d connections, want 2", n)
	}

	// Hijacked connections are fine, and a delayed request in flight does
	// not hold close up.
	s.front.injectFault(Fault{Drop: true})
	if _, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Get(s.url + "/x"); err == nil {
		t.Error("dropped request succeeded")
	}
	s.front.injectFault(Fault{Delay: time.Minute})
	done := make(chan error, 1)
	go func() {
		res, err := c.Get(s.url + "/projects/pA/services")
		if err == nil {
			res.Body.Close()
		}
		done <- err
	}()
	deadline := time.Now().Add(3 * time.Second)
	for s.front.count("GET", "/projects/pA/services") < 5 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond) // the count has no event to wait on
	}
	if n := s.front.count("GET", "/projects/pA/services"); n < 5 {
		t.Fatalf("the delayed request never came: %d GETs", n)
	}
	start := time.Now()
	if err := s.close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Close took %v", d)
	}
	if err := <-done; err == nil {
		t.Error("the delayed request got an answer from a closed server")
	}
	if err := s.close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	tr.CloseIdleConnections()
	tr2.CloseIdleConnections()
	if _, err := http.Get(s.url + "/projects/pA/services"); err == nil {
		t.Error("closed server still answers")
	}
}

func TestStartErrors(t *testing.T) {
	s, err := listen("", config{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	addr := strings.TrimSuffix(strings.TrimPrefix(s.url, "http://"), "/v1")
	if _, err := listen(addr, config{}); err == nil {
		t.Error("second server on a busy port")
	}
}

func TestDialable(t *testing.T) {
	for _, tc := range []struct {
		ip   net.IP
		want string
	}{
		{net.IPv4zero, "127.0.0.1:80"},
		{net.IPv6unspecified, "[::1]:80"},
		{net.IPv4(127, 0, 0, 2), "127.0.0.2:80"},
		{net.IPv6loopback, "[::1]:80"},
	} {
		if got := dialable(&net.TCPAddr{IP: tc.ip, Port: 80}); got != tc.want {
			t.Errorf("dialable(%v) = %s, want %s", tc.ip, got, tc.want)
		}
	}
}
