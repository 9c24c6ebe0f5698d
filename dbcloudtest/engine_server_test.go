package dbcloudtest

import (
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"
)

// settled waits, briefly, for the goroutine count to fall back to n.
func settled(n int) (int, bool) {
	deadline := time.Now().Add(3 * time.Second)
	for {
		got := runtime.NumGoroutine()
		if got <= n || time.Now().After(deadline) {
			return got, got <= n
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func get(t *testing.T, c *http.Client, s *EngineServer, path string) int {
	t.Helper()
	req, _ := http.NewRequest("GET", s.URL+path, nil)
	req.Header.Set("Authorization", "Bearer "+s.APIKey)
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body) // a connection is reused only once its body was read
	return res.StatusCode
}

func TestServer(t *testing.T) {
	before := runtime.NumGoroutine()
	s, err := Start("", Options{APIKey: "k-123", ProjectIDs: []string{"pA"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") || !strings.HasSuffix(s.URL, "/v1") || s.APIKey != "k-123" || s.ProjectID != "pA" || s.API == nil {
		t.Fatalf("server %+v", s)
	}
	tr := &http.Transport{}
	c := &http.Client{Transport: tr}
	for range 3 {
		if st := get(t, c, s, "/projects/pA/services"); st != 200 {
			t.Fatalf("status %d", st)
		}
	}
	if n := s.NewConnections(); n != 1 {
		t.Errorf("3 requests on a keep-alive client opened %d connections", n)
	}
	tr2 := &http.Transport{}
	get(t, &http.Client{Transport: tr2}, s, "/projects/pA/services")
	if n := s.NewConnections(); n != 2 {
		t.Errorf("a second client: %d connections, want 2", n)
	}

	// Hijacked connections are fine, and a delayed request in flight does
	// not hold Close up.
	s.API.InjectFault(Fault{Drop: true})
	if _, err := (&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}).Get(s.URL + "/x"); err == nil {
		t.Error("dropped request succeeded")
	}
	s.API.InjectFault(Fault{Delay: time.Minute})
	done := make(chan error, 1)
	go func() {
		res, err := c.Get(s.URL + "/projects/pA/services")
		if err == nil {
			res.Body.Close()
		}
		done <- err
	}()
	deadline := time.Now().Add(3 * time.Second)
	for s.API.Count("GET", "/projects/pA/services") < 5 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("Close took %v", d)
	}
	if err := <-done; err == nil {
		t.Error("the delayed request got an answer from a closed server")
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	tr.CloseIdleConnections()
	tr2.CloseIdleConnections()
	if n, ok := settled(before); !ok {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after Close, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
	if _, err := http.Get(s.URL + "/projects/pA/services"); err == nil {
		t.Error("closed server still answers")
	}
}

func TestStartErrors(t *testing.T) {
	s, err := Start("", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	addr := strings.TrimSuffix(strings.TrimPrefix(s.URL, "http://"), "/v1")
	if _, err := Start(addr, Options{}); err == nil {
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

func TestTickingClockMovesEachRequestOneTick(t *testing.T) {
	f := newFake(t, Options{Clock: NewTickingClock(epoch, 30*time.Second), Step: time.Minute})
	id := f.create(nil) // read at epoch: QUEUED until +1m, CONFIGURING until +2m
	var seen []string
	for range 5 {
		seen = append(seen, f.get(id)["status"].(string))
	}
	want := []string{"QUEUED", "CONFIGURING", "CONFIGURING", "READY", "READY"}
	if strings.Join(seen, " ") != strings.Join(want, " ") {
		t.Errorf("statuses = %v, want %v", seen, want)
	}
}
