package dbcloud_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/jarcoal/httpmock"
)

const servicePattern = "/projects/*/services/*"

// stepper returns a fake whose statuses move one step each time the wait
// reports progress: every poll sees the next status, with no sleeping.
func stepper(t *testing.T, extra ...dbcloudtest.Option) (*dbcloud.Client, *dbcloudtest.Server) {
	return fixture.NewFake(t, append([]dbcloudtest.Option{dbcloudtest.WithStartTime(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)), dbcloudtest.WithStep(time.Minute)}, extra...))
}

// recordAndAdvance is a WithProgress that appends each status the wait
// sees to seen, then moves srv's clock by step: each poll sees the clock a
// step later than the last, with no sleeping.
func recordAndAdvance(srv *dbcloudtest.Server, step time.Duration, seen *[]string) dbcloud.WaitOption {
	return dbcloud.WithProgress(func(p dbcloud.WaitProgress) {
		*seen = append(*seen, fmt.Sprint(p.Status))
		srv.Advance(step)
	})
}

func TestWaitForReadySeesEveryStatus(t *testing.T) {
	t.Parallel()
	c, srv := stepper(t)
	ctx, p := t.Context(), srv.ProjectID
	svc := fixture.CreateService(t, c, p, "db")
	var seen []string
	got, err := c.Services.WaitForReady(ctx, p, svc.ServiceID, fixture.FastPolls, recordAndAdvance(srv, time.Minute, &seen))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"QUEUED", "CONFIGURING", "READY"}, seen); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	if got.Status != dbcloud.StatusReady || got.ServiceID != svc.ServiceID {
		t.Errorf("got %s %s, want the READY service", got.ServiceID, got.Status)
	}
	if n := srv.Count("GET", servicePattern); n != 3 {
		t.Errorf("GETs = %d, want one per poll (3)", n)
	}
}

// The first check is immediate: a READY service returns at once even with an
// hour between polls.
func TestWaitFirstCheckIsImmediate(t *testing.T) {
	t.Parallel()
	c, srv := fixture.NewFake(t, nil)
	svc := fixture.CreateReady(t, c, srv.ProjectID, "db")
	srv.ResetRequests()
	start := time.Now()
	if _, err := c.Services.WaitForReady(t.Context(), srv.ProjectID, svc.ServiceID, dbcloud.WithPollInterval(time.Hour, time.Hour)); err != nil {
		t.Fatal(err)
	}
	// Far below the hour a second poll would wait, and far above what a
	// loaded machine adds to one GET.
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	if n := srv.Count("GET", servicePattern); n != 1 {
		t.Errorf("GETs = %d, want 1", n)
	}
}

func TestWaitTimeout(t *testing.T) {
	t.Parallel()
	c, srv := stepper(t) // the clock never moves: the service stays QUEUED
	svc := fixture.CreateService(t, c, srv.ProjectID, "db")
	check := func(t *testing.T, err error) {
		t.Helper()
		assertWaitTimedOut(t, err, dbcloud.WaitError{Resource: "service", ID: svc.ServiceID, Name: "db", Want: "READY", LastStatus: "QUEUED"})
		if !strings.Contains(err.Error(), "QUEUED") || !strings.Contains(err.Error(), svc.ServiceID) {
			t.Errorf("Error() = %q, want the id and last status", err)
		}
	}
	// Both waits at once, in a synctest bubble whose clock moves only when
	// every goroutine of the bubble waits: the first poll, which LastStatus
	// needs, comes before their 200 ms are up, however loaded the machine
	// (in real time they needed 2 s), and they share their reads, as waits
	// of one client do.
	base := newBubbleTransport(t, srv.Handler())
	synctest.Test(t, func(t *testing.T) {
		c := srv.Client(fixture.TinyRetries, dbcloud.WithHTTPClient(&http.Client{Transport: base}))
		var timeout, deadline error
		var wg sync.WaitGroup
		wg.Go(func() {
			_, timeout = c.Services.WaitForReady(t.Context(), srv.ProjectID, svc.ServiceID, fixture.FastPolls, dbcloud.WithWaitTimeout(200*time.Millisecond))
		})
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
			defer cancel()
			_, deadline = c.Services.WaitForReady(ctx, srv.ProjectID, svc.ServiceID, fixture.FastPolls)
		})
		wg.Wait()
		check(t, timeout)  // WithWaitTimeout
		check(t, deadline) // the context's deadline
	})
	// The two waits share their reads: GETs while one runs, Lists while both do.
	if n := srv.Count("GET", servicePattern) + srv.Count("GET", "/projects/*/services"); n < 4 {
		t.Errorf("reads = %d: the waits did not poll", n)
	}
}

func TestWaitEndsAtOnceWhenItCannotSucceed(t *testing.T) {
	t.Parallel()
	setup, srv := fixture.NewFake(t, nil)
	p := srv.ProjectID
	slow := dbcloud.WithPollInterval(time.Hour, time.Hour) // a second poll would hang the test
	svc := fixture.CreateReady(t, setup, p, "db")
	other := fixture.CreateReady(t, setup, p, "other")
	base := newBubbleTransport(t, srv.Handler())
	// Each case runs in a synctest bubble: the random delay of a wait's
	// first poll (up to 250 ms with these intervals) costs no time.
	run := func(name string, test func(t *testing.T, ctx context.Context, c *dbcloud.Client)) {
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				test(t, t.Context(), srv.Client(fixture.TinyRetries, dbcloud.WithHTTPClient(&http.Client{Transport: base})))
			})
		})
	}

	run("gone", func(t *testing.T, ctx context.Context, c *dbcloud.Client) {
		_, err := c.Services.WaitForStatus(ctx, p, "no-such-service", dbcloud.StatusReady, slow)
		assertWaitErr(t, err, dbcloud.ErrNotFound, "")
	})
	run("deleting while waiting for READY", func(t *testing.T, ctx context.Context, c *dbcloud.Client) {
		setStatus(t, srv, other.ServiceID, "DELETING")
		_, err := c.Services.WaitForReady(ctx, p, other.ServiceID, slow)
		assertWaitErr(t, err, dbcloud.ErrUnexpectedStatus, "DELETING")
	})
	run("deleted while waiting for PAUSED", func(t *testing.T, ctx context.Context, c *dbcloud.Client) {
		setStatus(t, srv, other.ServiceID, "DELETED")
		_, err := c.Services.WaitForStatus(ctx, p, other.ServiceID, dbcloud.StatusPaused, slow)
		assertWaitErr(t, err, dbcloud.ErrUnexpectedStatus, "DELETED")
	})
	run("replica set missing", func(t *testing.T, ctx context.Context, c *dbcloud.Client) {
		_, err := c.ReplicaSets.WaitForActive(ctx, p, svc.ServiceID, "rs-none", slow)
		assertWaitErr(t, err, dbcloud.ErrNotFound, "")
	})
	run("replica set in error", func(t *testing.T, ctx context.Context, c *dbcloud.Client) {
		set, err := c.ReplicaSets.Create(ctx, p, svc.ServiceID, &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 500, MemoryGBs: 2})
		if err != nil {
			t.Fatal(err)
		}
		if err := srv.SetReplicaSetStatus(svc.ServiceID, set.ID, "error"); err != nil {
			t.Fatal(err)
		}
		_, err = c.ReplicaSets.WaitForActive(ctx, p, svc.ServiceID, set.ID, slow)
		assertWaitErr(t, err, dbcloud.ErrUnexpectedStatus, "error")
		err = c.ReplicaSets.WaitForDeleted(ctx, p, svc.ServiceID, set.ID, slow)
		assertWaitErr(t, err, dbcloud.ErrUnexpectedStatus, "error")
	})
	for _, status := range []int{400, 401, 403, 409} {
		run(http.StatusText(status), func(t *testing.T, ctx context.Context, c *dbcloud.Client) {
			srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: servicePattern, Status: status, Body: `{"code":"NOPE"}`})
			_, err := c.Services.WaitForReady(ctx, p, svc.ServiceID, slow)
			assertWaitErr(t, err, nil, "")
			var apiErr *dbcloud.APIError
			if !errors.As(err, &apiErr) || apiErr.StatusCode != status || apiErr.Code != "NOPE" {
				t.Errorf("err = %v, want the %d *APIError as the cause", err, status)
			}
		})
	}
}

// assertWaitTimedOut checks err is a *WaitError that ran to a deadline and
// otherwise equals want (whose Err it sets to context.DeadlineExceeded; the
// error it is compared with need only wrap it). cmpopts.EquateErrors is the
// symmetric errors.Is that go-cmp requires of a comparer: a one-way
// errors.Is(got, want) makes it panic when it checks the comparer, which it
// does only now and then.
func assertWaitTimedOut(t *testing.T, err error, want dbcloud.WaitError) {
	t.Helper()
	var w *dbcloud.WaitError
	if !errors.As(err, &w) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a *WaitError matching DeadlineExceeded", err)
	}
	want.Err = context.DeadlineExceeded
	if diff := cmp.Diff(want, *w, cmpopts.EquateErrors()); diff != "" {
		t.Errorf("WaitError (-want +got):\n%s", diff)
	}
}

// assertWaitErr checks a wait ended at once with a *WaitError matching cause
// (nil: any) after seeing lastStatus.
func assertWaitErr(t *testing.T, err, cause error, lastStatus string) {
	t.Helper()
	var w *dbcloud.WaitError
	if !errors.As(err, &w) {
		t.Fatalf("err = %v, want a *WaitError", err)
	}
	if cause != nil && !errors.Is(err, cause) {
		t.Errorf("err = %v, want errors.Is %v", err, cause)
	}
	if w.LastStatus != lastStatus {
		t.Errorf("LastStatus = %q, want %q", w.LastStatus, lastStatus)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v: the wait ran to a deadline instead of ending at once", err)
	}
}

// Network errors, 5xx and 429 are polled through; the wait ends when the
// status arrives.
func TestWaitPollsThroughTransientFailures(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t, dbcloud.WithRetryMax(0))
	configuring := strings.Replace(serviceJSON, `"READY"`, `"CONFIGURING"`, 1)
	mt.RegisterResponder("GET", serviceURL, httpmock.NewErrorResponder(errReset).
		Then(httpmock.NewStringResponder(503, "")).
		Then(httpmock.NewStringResponder(200, configuring)).
		Then(httpmock.NewStringResponder(429, "")).
		Then(httpmock.NewStringResponder(502, "<html>")).
		Then(httpmock.NewStringResponder(200, serviceJSON)))
	var seen []string
	svc, err := c.Services.WaitForReady(t.Context(), "p1", "s1", fixture.FastPolls, dbcloud.WithProgress(func(p dbcloud.WaitProgress) { seen = append(seen, fmt.Sprint(p.Status)) }))
	if err != nil {
		t.Fatal(err)
	}
	if svc.Status != dbcloud.StatusReady {
		t.Errorf("status = %s", svc.Status)
	}
	if diff := cmp.Diff([]string{"CONFIGURING", "READY"}, seen); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	if n := mt.GetTotalCallCount(); n != 6 {
		t.Errorf("GETs = %d, want 6", n)
	}
}

// A wait whose context ends while polls fail keeps the last failure in its
// error. The context ends inside the third GET, whatever the machine's speed.
func TestWaitCutShortKeepsLastFailure(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t, dbcloud.WithRetryMax(0))
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	calls := 0
	mt.RegisterResponder("GET", serviceURL, func(*http.Request) (*http.Response, error) {
		if calls++; calls == 3 {
			cancel()
		}
		return httpmock.NewStringResponse(503, `{"message":"maintenance `+strconv.Itoa(calls)+`"}`), nil
	})
	_, err := c.Services.WaitForReady(ctx, "p1", "s1", fixture.FastPolls)
	if !errors.Is(err, context.Canceled) || !errors.Is(err, dbcloud.ErrServer) || !strings.Contains(err.Error(), "maintenance 2") {
		t.Fatalf("err = %v, want the cancellation and the 503 of the last whole poll", err)
	}
}

func TestWaitForDeleted(t *testing.T) {
	t.Parallel()
	c, srv := stepper(t)
	ctx, p := t.Context(), srv.ProjectID
	srv.Advance(time.Hour)
	svc := fixture.CreateService(t, c, p, "db")
	srv.Advance(time.Hour) // READY
	set, err := c.ReplicaSets.Create(ctx, p, svc.ServiceID, &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 2, CPUMillis: 500, MemoryGBs: 2})
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	step := recordAndAdvance(srv, time.Minute, &seen)

	active, err := c.ReplicaSets.WaitForActive(ctx, p, svc.ServiceID, set.ID, fixture.FastPolls, step)
	if err != nil || active.Status != dbcloud.ReplicaSetActive || active.ID != set.ID {
		t.Fatalf("WaitForActive = %+v, %v", active, err)
	}
	if err := c.ReplicaSets.Delete(ctx, p, svc.ServiceID, set.ID); err != nil {
		t.Fatal(err)
	}
	if err := c.ReplicaSets.WaitForDeleted(ctx, p, svc.ServiceID, set.ID, fixture.FastPolls, step); err != nil {
		t.Fatal(err)
	}
	if err := c.Services.Delete(ctx, p, svc.ServiceID); err != nil {
		t.Fatal(err)
	}
	if err := c.Services.WaitForDeleted(ctx, p, svc.ServiceID, fixture.FastPolls, step); err != nil {
		t.Fatal(err)
	}
	want := []string{"creating", "active", "deleting", "DELETING"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
	// A set whose service is gone is gone too.
	if err := c.ReplicaSets.WaitForDeleted(ctx, p, svc.ServiceID, set.ID, fixture.FastPolls); err != nil {
		t.Errorf("set of a deleted service: %v", err)
	}
}

func TestWaitForDeletedAcceptsDELETED(t *testing.T) {
	t.Parallel()
	c, srv := fixture.NewFake(t, nil)
	svc := fixture.CreateReady(t, c, srv.ProjectID, "db")
	setStatus(t, srv, svc.ServiceID, "DELETED")
	if err := c.Services.WaitForDeleted(t.Context(), srv.ProjectID, svc.ServiceID, dbcloud.WithPollInterval(time.Hour, time.Hour)); err != nil {
		t.Fatal(err)
	}
}

func TestWaitValidatesBeforePolling(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t)
	ctx := t.Context()
	errs := []error{
		func() error { _, err := c.Services.WaitForReady(ctx, "", "s1"); return err }(),
		func() error { _, err := c.Services.WaitForStatus(ctx, "p1", "s1", ""); return err }(),
		c.Services.WaitForDeleted(ctx, "p1", ""),
		func() error { _, err := c.ReplicaSets.WaitForActive(ctx, "p1", "s1", "r"); return err }(),
		c.ReplicaSets.WaitForDeleted(ctx, "p1", "", "rs-1"),
		func() error {
			_, err := c.Services.WaitForReady(ctx, "p1", "s1", dbcloud.WithPollInterval(0, time.Second))
			return err
		}(),
		func() error {
			_, err := c.Services.WaitForReady(ctx, "p1", "s1", dbcloud.WithPollInterval(time.Second, time.Millisecond))
			return err
		}(),
	}
	for i, err := range errs {
		var v *dbcloud.ValidationError
		if !errors.As(err, &v) {
			t.Errorf("case %d: err = %v, want a *ValidationError", i, err)
		}
	}
	if n := mt.GetTotalCallCount(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// A status is the server's text: a WaitError prints it clipped and on one
// line, however long or odd it is.
func TestWaitErrorClipsTheStatus(t *testing.T) {
	t.Parallel()
	e := &dbcloud.WaitError{Resource: "service", ID: "s1", Want: "READY",
		LastStatus: "BAD\nforged log line " + strings.Repeat("x", 10000), Err: dbcloud.ErrUnexpectedStatus}
	msg := e.Error()
	if len(msg) > 1200 || strings.Contains(msg, "\n") { // maxFieldRunes (1,000) and the sentence
		t.Errorf("%d bytes, newline %v: %.200q", len(msg), strings.Contains(msg, "\n"), msg)
	}
}

// liveStepper is stepper with live endpoints that answer 57P03 for
// connectDelay after READY or active.
func liveStepper(t *testing.T, connectDelay time.Duration) (*dbcloud.Client, *dbcloudtest.Server) {
	t.Helper()
	dbcloudtest.CheckGoroutines(t) // registered first, so it checks after the server has closed
	return stepper(t, dbcloudtest.WithConnectDelay(connectDelay))
}

// The database warms up after READY: the wait goes on through the 57P03
// answers and ends at the first authentication request. The clock moves
// 20 s per poll: READY from the 7th poll, answering from 30 s later.
func TestServiceWaitForConnectableWaitsOutWarmUp(t *testing.T) {
	t.Parallel()
	c, srv := liveStepper(t, 30*time.Second)
	ctx, p := t.Context(), srv.ProjectID
	svc := fixture.CreateService(t, c, p, "db")
	var seen []string
	got, err := c.Services.WaitForConnectable(ctx, p, svc.ServiceID, fixture.FastPolls, recordAndAdvance(srv, 20*time.Second, &seen))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"QUEUED", "QUEUED", "QUEUED", "CONFIGURING", "CONFIGURING", "CONFIGURING", "READY", "READY", "READY"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("polls (-want +got):\n%s", diff)
	}
	if got.ServiceID != svc.ServiceID || got.Status != dbcloud.StatusReady || got.Endpoint == nil || got.Endpoint.Host != "127.0.0.1" {
		t.Errorf("got %+v, want the READY service with its live endpoint", got)
	}
}

// A wait that ends while the database answers 57P03 says so.
func TestWaitForConnectableNamesStartingUp(t *testing.T) {
	t.Parallel()
	c, srv := liveStepper(t, time.Hour)
	ctx, p := t.Context(), srv.ProjectID
	svc := fixture.CreateService(t, c, p, "db")
	srv.Advance(2 * time.Minute) // READY, warming up for an hour
	waitCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	polls := 0
	_, err := c.Services.WaitForConnectable(waitCtx, p, svc.ServiceID, fixture.FastPolls, dbcloud.WithProgress(func(dbcloud.WaitProgress) {
		if polls++; polls == 3 {
			cancel()
		}
	}))
	var w *dbcloud.WaitError
	if !errors.As(err, &w) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want a *WaitError matching Canceled", err)
	}
	if w.Want != "connectable" || w.LastStatus != "READY" || w.Resource != "service" || w.ID != svc.ServiceID {
		t.Errorf("WaitError %+v", w)
	}
	if msg := err.Error(); !strings.Contains(msg, `SQLSTATE "57P03"`) || !strings.Contains(msg, "starting up") {
		t.Errorf("err = %q, want the last probe's 57P03 named", msg)
	}
}

func TestWaitForConnectableTimesOutBeforeReady(t *testing.T) {
	t.Parallel()
	c, srv := liveStepper(t, 0) // the clock never moves: QUEUED for ever
	svc := fixture.CreateService(t, c, srv.ProjectID, "db")
	_, err := c.Services.WaitForConnectable(t.Context(), srv.ProjectID, svc.ServiceID, fixture.FastPolls, dbcloud.WithWaitTimeout(250*time.Millisecond))
	assertWaitTimedOut(t, err, dbcloud.WaitError{Resource: "service", ID: svc.ServiceID, Name: "db", Want: "connectable", LastStatus: "QUEUED"})
}

func TestReplicaSetWaitForConnectable(t *testing.T) {
	t.Parallel()
	c, srv := liveStepper(t, 30*time.Second)
	ctx, p := t.Context(), srv.ProjectID
	svc := fixture.CreateService(t, c, p, "db")
	srv.Advance(time.Hour)
	set, err := c.ReplicaSets.Create(ctx, p, svc.ServiceID, &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 500, MemoryGBs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.ReplicaSets.EnablePooler(ctx, p, svc.ServiceID, set.ID); err != nil {
		t.Fatal(err)
	}
	var seen []string
	got, err := c.ReplicaSets.WaitForConnectable(ctx, p, svc.ServiceID, set.ID, fixture.FastPolls, dbcloud.WithPoolerCheck(),
		recordAndAdvance(srv, 20*time.Second, &seen))
	if err != nil {
		t.Fatal(err)
	}
	// creating at 0, 20 and 40 s; active from 60 s, answering from 90 s.
	want := []string{"creating", "creating", "creating", "active", "active", "active"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("polls (-want +got):\n%s", diff)
	}
	if got.ID != set.ID || got.ConnectionPooler == nil {
		t.Errorf("got %+v", got)
	}

	if err := srv.SetReplicaSetStatus(svc.ServiceID, set.ID, "error"); err != nil {
		t.Fatal(err)
	}
	_, err = c.ReplicaSets.WaitForConnectable(ctx, p, svc.ServiceID, set.ID, fixture.FastPolls)
	assertWaitErr(t, err, dbcloud.ErrUnexpectedStatus, "error")
}

// Nothing to probe: the resource comes back with ErrNoEndpoint at once.
func TestWaitForConnectableWithoutEndpoint(t *testing.T) {
	t.Parallel()
	slow := dbcloud.WithPollInterval(time.Hour, time.Hour) // a second poll would hang the test
	t.Run("no endpoint", func(t *testing.T) {
		c, mt := mockClient(t)
		mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(200, serviceJSON))
		svc, err := c.Services.WaitForConnectable(t.Context(), "p1", "s1", slow)
		assertWaitErr(t, err, dbcloud.ErrNoEndpoint, "READY")
		if svc == nil || svc.ServiceID != "s1" {
			t.Errorf("service %+v, want it returned with the error", svc)
		}
	})
	t.Run("no pooler with WithPoolerCheck", func(t *testing.T) {
		c, srv := liveStepper(t, 0)
		p := srv.ProjectID
		svc := fixture.CreateService(t, c, p, "db")
		srv.Advance(time.Hour)
		got, err := c.Services.WaitForConnectable(t.Context(), p, svc.ServiceID, slow, dbcloud.WithPoolerCheck())
		assertWaitErr(t, err, dbcloud.ErrNoEndpoint, "READY")
		if got == nil || !strings.Contains(err.Error(), "connection pooler") {
			t.Errorf("service %v, err %v: want the service and the pooler named", got, err)
		}

		if err := c.Services.EnablePooler(t.Context(), p, svc.ServiceID); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Services.WaitForConnectable(t.Context(), p, svc.ServiceID, slow, dbcloud.WithPoolerCheck()); err != nil {
			t.Errorf("with the pooler on: %v", err)
		}
	})
}

// A database that accepts connections and never answers is cut off by the
// wait's own deadline, which is not reported as a probe failure.
func TestWaitForConnectableSilentDatabase(t *testing.T) {
	t.Parallel()
	dbcloudtest.CheckGoroutines(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(io.Discard, conn); conn.Close() }()
		}
	}()
	c, mt := mockClient(t)
	port := ln.Addr().(*net.TCPAddr).Port
	mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(200,
		strings.Replace(serviceJSON, `"resources":[]`, `"resources":[],"endpoint":{"host":"127.0.0.1","port":`+strconv.Itoa(port)+`}`, 1)))
	start := time.Now()
	_, err = c.Services.WaitForConnectable(t.Context(), "p1", "s1", fixture.FastPolls, dbcloud.WithWaitTimeout(300*time.Millisecond))
	if !errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "probe") {
		t.Errorf("err = %v, want the deadline alone: the only probe was cut off by it", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v", d)
	}
	if n := mt.GetTotalCallCount(); n != 1 {
		t.Errorf("GETs = %d, want 1: the first probe held until the deadline", n)
	}
}

func TestWaitForConnectableValidates(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t)
	ctx := t.Context()
	_, err1 := c.Services.WaitForConnectable(ctx, "p1", "")
	_, err2 := c.ReplicaSets.WaitForConnectable(ctx, "p1", "s1", "r")
	_, err3 := c.Services.WaitForConnectable(ctx, "p1", "s1", dbcloud.WithPollInterval(0, 0))
	for i, err := range []error{err1, err2, err3} {
		var v *dbcloud.ValidationError
		if !errors.As(err, &v) {
			t.Errorf("case %d: err = %v, want a *ValidationError", i, err)
		}
	}
	if n := mt.GetTotalCallCount(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}
