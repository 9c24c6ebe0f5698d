package dbcloudtest_test

import (
	"context"
	"errors"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/leakcheck"
)

// Close leaves no goroutine and no listener, also with a request held by a
// Delay fault, clients with idle connections, and Close called again.
func TestCloseLeavesNothing(t *testing.T) {
	leakcheck.Check(t)
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
	leakcheck.Check(t)
	srv := dbcloudtest.NewServer()
	srv.Client()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(srv.Close)
	}
	wg.Wait()
}

func TestClientDefaults(t *testing.T) {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
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
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "dbcloudtest: Client") {
			t.Errorf("recovered %v", r)
		}
	}()
	srv.Client(dbcloud.WithRetryMax(-1))
}

func TestOptions(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	srv := dbcloudtest.NewServer(
		dbcloudtest.WithAPIKey("sk-test-own"),
		dbcloudtest.WithProjects("alpha", "beta"),
		dbcloudtest.WithStartTime(start),
	)
	defer srv.Close()
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
	srv := dbcloudtest.NewServer()
	defer srv.Close()
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
