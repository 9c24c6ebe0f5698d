package dbcloudtest_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// statuses waits for READY with 1 ms polls, without moving the clock, and
// returns every status the wait saw, each once.
func statuses(t *testing.T, c *dbcloud.Client, project, id string) []string {
	t.Helper()
	var seen []string
	_, err := c.Services.WaitForReady(t.Context(), project, id,
		dbcloud.WithPollInterval(time.Millisecond, time.Millisecond),
		dbcloud.WithWaitTimeout(10*time.Second),
		dbcloud.WithProgress(func(p dbcloud.WaitProgress) {
			s := fmt.Sprint(p.Status)
			if len(seen) == 0 || seen[len(seen)-1] != s {
				seen = append(seen, s)
			}
		}))
	if err != nil {
		t.Fatalf("%v after %v", err, seen)
	}
	return seen
}

// With a ticking clock a program that polls by itself sees every status,
// without the test calling Advance; Now looks without ticking.
func TestWithTickingClock(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithTickingClock(30*time.Second), dbcloudtest.WithStep(time.Minute))
	c := srv.Client()
	svc := create(t, c, srv.ProjectID)
	if got := strings.Join(statuses(t, c, srv.ProjectID, svc.ServiceID), " "); got != "QUEUED CONFIGURING READY" {
		t.Errorf("statuses %q, want each one", got)
	}
	// The test's looks and changes do not tick either: only requests and
	// connections do.
	at := srv.Now()
	srv.Now()
	srv.Service(svc.ServiceID)
	srv.Services()
	if _, err := srv.Logs(svc.ServiceID); err != nil {
		t.Fatal(err)
	}
	if err := srv.AppendLogs(svc.ServiceID, dbcloud.LogEntry{Message: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := srv.SetStatus(svc.ServiceID, dbcloud.StatusReady); err != nil {
		t.Fatal(err)
	}
	if got := srv.Now(); !got.Equal(at) {
		t.Errorf("Now, Service, Services, Logs, AppendLogs and SetStatus moved the clock %v", got.Sub(at))
	}
	before := srv.Now()
	srv.Advance(time.Hour)
	if got := srv.Now().Sub(before); got != time.Hour {
		t.Errorf("Advance(1h) moved the clock %v", got)
	}
}

// With real time, statuses move as real time passes; Advance still moves
// the clock, and WithStartTime sets where it starts.
func TestWithRealTime(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithRealTime(), dbcloudtest.WithStep(20*time.Millisecond))
	c := srv.Client()
	svc := create(t, c, srv.ProjectID)
	if got := statuses(t, c, srv.ProjectID, svc.ServiceID); got[len(got)-1] != "READY" {
		t.Errorf("statuses %q", got)
	}
	if d := time.Until(srv.Now()); d < -time.Minute || d > time.Minute {
		t.Errorf("Now is %v off the real time", d)
	}
	srv.Advance(time.Hour)
	if d := time.Until(srv.Now()); d < 59*time.Minute || d > 61*time.Minute {
		t.Errorf("after Advance(1h), Now is %v ahead of the real time", d)
	}

	start := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	later := newServer(t, dbcloudtest.WithStartTime(start), dbcloudtest.WithRealTime())
	if d := later.Now().Sub(start); d < 0 || d > time.Minute {
		t.Errorf("Now is %v after the start time", d)
	}
	// The last clock option wins.
	ticking := newServer(t, dbcloudtest.WithRealTime(), dbcloudtest.WithTickingClock(time.Minute), dbcloudtest.WithStartTime(start))
	if _, err := ticking.Client().Services.List(t.Context(), ticking.ProjectID); err != nil {
		t.Fatal(err)
	}
	if got := ticking.Now(); !got.Equal(start.Add(time.Minute)) {
		t.Errorf("ticking after real time: Now %v, want one tick after the start", got)
	}
}

// WithLogInterval writes a line per interval of the server's clock;
// WithLogRetention keeps a history's newest lines.
func TestWithLogIntervalAndRetention(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithLogInterval(time.Second))
	svc := create(t, srv.Client(), srv.ProjectID)
	before, err := srv.Logs(svc.ServiceID)
	if err != nil {
		t.Fatal(err)
	}
	srv.Advance(10 * time.Second)
	after, err := srv.Logs(svc.ServiceID)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(after) - len(before); n != 10 {
		t.Fatalf("%d lines written in 10 intervals, want 10", n)
	}
	for i := 1; i < 10; i++ {
		if d := after[i-1].Timestamp.Sub(after[i].Timestamp); d != time.Second {
			t.Errorf("lines %v apart, want 1s", d)
		}
	}

	kept := newServer(t, dbcloudtest.WithLogRetention(50))
	svc = create(t, kept.Client(), kept.ProjectID)
	if err := kept.SeedLogs(svc.ServiceID, 1000); err != nil {
		t.Fatal(err)
	}
	all, err := kept.Logs(svc.ServiceID)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 50 || len(all) > 100 {
		t.Errorf("%d lines kept, want 50 to 100", len(all))
	}
}

func TestWithRequestLogOff(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithRequestLog(false))
	if _, err := srv.Client().Services.List(t.Context(), srv.ProjectID); err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests(); len(got) != 0 {
		t.Errorf("Requests() = %v, want none kept", got)
	}
	if n := srv.Count("GET", "/projects/*/services"); n != 1 {
		t.Errorf("Count = %d, want 1", n)
	}
}

// NewServerAt listens where it is told and says when it cannot.
func TestNewServerAt(t *testing.T) {
	srv, err := dbcloudtest.NewServerAt("127.0.0.1:0", dbcloudtest.WithAPIKey("k-1"))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") || srv.APIKey != "k-1" {
		t.Errorf("URL %q, key %q", srv.URL, srv.APIKey)
	}
	createReady(t, srv.Client(), srv.ProjectID)

	wild, err := dbcloudtest.NewServerAt(":0")
	if err != nil {
		t.Fatal(err)
	}
	defer wild.Close()
	if _, err := wild.Client().Services.List(t.Context(), wild.ProjectID); err != nil {
		t.Errorf("a server on a wildcard address: %v at %s", err, wild.URL)
	}

	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	// The listen error is wrapped: on Unix it matches syscall.EADDRINUSE
	// (Windows reports its own WSAEADDRINUSE).
	s, err := dbcloudtest.NewServerAt(busy.Addr().String())
	if err == nil || !strings.HasPrefix(err.Error(), "dbcloudtest: ") || (runtime.GOOS != "windows" && !errors.Is(err, syscall.EADDRINUSE)) {
		if s != nil {
			s.Close()
		}
		t.Errorf("on a port in use: err = %v, want one matching syscall.EADDRINUSE", err)
	}
}

// Setenv points NewClientFromEnv at the server, whatever else is set.
func TestSetenv(t *testing.T) {
	t.Setenv("DBCLOUD_PUBLIC_KEY", "someone-elses")
	srv := newServer(t)
	srv.Setenv(t)
	c, err := dbcloud.NewClientFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	if c.ProjectID() != srv.ProjectID {
		t.Errorf("ProjectID() = %q, want %q", c.ProjectID(), srv.ProjectID)
	}
	createReady(t, c, c.ProjectID())
	if n := len(srv.Services()); n != 1 {
		t.Errorf("%d services on the server, want 1", n)
	}
	if got := srv.Client().ProjectID(); got != srv.ProjectID {
		t.Errorf("Client().ProjectID() = %q", got)
	}
}

// The clock options refuse durations that mean nothing.
func TestOptionsPanic(t *testing.T) {
	for name, opt := range map[string]func(){
		"WithTickingClock(0)":  func() { dbcloudtest.WithTickingClock(0) },
		"WithLogInterval(-1)":  func() { dbcloudtest.WithLogInterval(-1) },
		"WithLogRetention(-1)": func() { dbcloudtest.WithLogRetention(-1) },
	} {
		func() {
			defer func() {
				if r, _ := recover().(string); !strings.HasPrefix(r, "dbcloudtest: ") {
					t.Errorf("%s: panic %v", name, r)
				}
			}()
			opt()
		}()
	}
}

// A client from Client polls its waits every few milliseconds unless the
// server runs in real time: a wait on a QUEUED service for a second reads it
// many times, where the SDK's defaults (1 s, after a first check within
// 250 ms) read it once or twice. A wait's own WithPollInterval wins. The
// second is far from both: the fast polls read about a hundred times in
// it, the SDK's defaults cannot read a third time before 2.25 s.
func TestClientPollsFastUnlessRealTime(t *testing.T) {
	// reads creates a service of srv, QUEUED for a minute of its clock, and
	// returns a wait of a second on it that sets n to the reads the server
	// saw. The waits run in a synctest bubble, whose second passes at once
	// and whatever the machine's load; the servers' clocks, real time for
	// the last one, are their own. The clients open a connection per
	// request: an idle connection waits on the network, which is never
	// durable, and would keep the bubble's clock from moving.
	type wait struct {
		srv *dbcloudtest.Server
		id  string
	}
	start := func(srv *dbcloudtest.Server) wait { return wait{srv, create(t, srv.Client(), srv.ProjectID).ServiceID} }
	fastWait := start(newServer(t, dbcloudtest.WithStep(time.Minute)))
	ownWait := start(newServer(t, dbcloudtest.WithStep(time.Minute)))
	realTimeWait := start(newServer(t, dbcloudtest.WithRealTime(), dbcloudtest.WithStep(time.Minute)))
	reads := func(t *testing.T, n *int, w wait, opts ...dbcloud.WaitOption) func() {
		c := w.srv.Client(dbcloud.WithHTTPClient(&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}))
		return func() {
			before := w.srv.Count("GET", "/projects/*/services/*")
			_, err := c.Services.WaitForReady(t.Context(), w.srv.ProjectID, w.id,
				append([]dbcloud.WaitOption{dbcloud.WithWaitTimeout(time.Second)}, opts...)...)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("wait on a QUEUED service: %v, want a timeout", err)
			}
			*n = w.srv.Count("GET", "/projects/*/services/*") - before
		}
	}
	var fast, own, realTime int
	synctest.Test(t, func(t *testing.T) {
		var wg sync.WaitGroup
		for _, w := range []func(){
			reads(t, &fast, fastWait),
			reads(t, &own, ownWait, dbcloud.WithPollInterval(time.Second, 10*time.Second)),
			reads(t, &realTime, realTimeWait),
		} {
			wg.Go(w)
		}
		wg.Wait()
	})
	t.Logf("reads: fast %d, own %d, real time %d", fast, own, realTime)
	if fast < 5 {
		t.Errorf("default server: %d reads in 1 s, want many", fast)
	}
	if own > 2 {
		t.Errorf("with the wait's own WithPollInterval(1s, 10s): %d reads in 1 s", own)
	}
	if realTime > 2 {
		t.Errorf("real-time server: %d reads in 1 s, want the SDK's polling", realTime)
	}
}
