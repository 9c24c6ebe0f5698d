package dbcloud_test

import (
	"context"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

// liveStepper is stepper with live endpoints that answer 57P03 for
// connectDelay after READY or active.
func liveStepper(t *testing.T, connectDelay time.Duration) (*dbcloud.Client, *dbcloudtest.Server) {
	t.Helper()
	dbcloudtest.CheckGoroutines(t) // registered first, so it checks after the server has closed
	return newFake(t, []dbcloudtest.Option{dbcloudtest.WithStartTime(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)),
		dbcloudtest.WithStep(time.Minute), dbcloudtest.WithConnectDelay(connectDelay)})
}

// The database warms up after READY: the wait goes on through the 57P03
// answers and ends at the first authentication request. The clock moves
// 20 s per poll: READY from the 7th poll, answering from 30 s later.
func TestServiceWaitForConnectableWaitsOutWarmUp(t *testing.T) {
	c, srv := liveStepper(t, 30*time.Second)
	ctx, p := t.Context(), srv.ProjectID
	svc, err := c.Services.Create(ctx, p, &dbcloud.CreateServiceRequest{Name: "db"})
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	got, err := c.Services.WaitForConnectable(ctx, p, svc.ServiceID, fastPolls, dbcloud.WithProgress(func(s string) {
		seen = append(seen, s)
		srv.Advance(20 * time.Second)
	}))
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
	c, srv := liveStepper(t, time.Hour)
	ctx, p := t.Context(), srv.ProjectID
	svc, err := c.Services.Create(ctx, p, &dbcloud.CreateServiceRequest{Name: "db"})
	if err != nil {
		t.Fatal(err)
	}
	srv.Advance(2 * time.Minute) // READY, warming up for an hour
	waitCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	polls := 0
	_, err = c.Services.WaitForConnectable(waitCtx, p, svc.ServiceID, fastPolls, dbcloud.WithProgress(func(string) {
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
	c, srv := liveStepper(t, 0) // the clock never moves: QUEUED for ever
	svc, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "db"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Services.WaitForConnectable(t.Context(), srv.ProjectID, svc.ServiceID, fastPolls, dbcloud.WithWaitTimeout(250*time.Millisecond))
	var w *dbcloud.WaitError
	if !errors.As(err, &w) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a *WaitError matching DeadlineExceeded", err)
	}
	want := dbcloud.WaitError{Resource: "service", ID: svc.ServiceID, Want: "connectable", LastStatus: "QUEUED", Err: context.DeadlineExceeded}
	if diff := cmp.Diff(want, *w, cmp.Comparer(func(a, b error) bool { return errors.Is(b, a) })); diff != "" {
		t.Errorf("WaitError (-want +got):\n%s", diff)
	}
}

func TestReplicaSetWaitForConnectable(t *testing.T) {
	c, srv := liveStepper(t, 30*time.Second)
	ctx, p := t.Context(), srv.ProjectID
	svc, err := c.Services.Create(ctx, p, &dbcloud.CreateServiceRequest{Name: "db"})
	if err != nil {
		t.Fatal(err)
	}
	srv.Advance(time.Hour)
	set, err := c.ReplicaSets.Create(ctx, p, svc.ServiceID, &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 500, MemoryGBs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.ReplicaSets.EnablePooler(ctx, p, svc.ServiceID, set.ID); err != nil {
		t.Fatal(err)
	}
	var seen []string
	got, err := c.ReplicaSets.WaitForConnectable(ctx, p, svc.ServiceID, set.ID, fastPolls, dbcloud.WithPoolerCheck(),
		dbcloud.WithProgress(func(s string) {
			seen = append(seen, s)
			srv.Advance(20 * time.Second)
		}))
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
	_, err = c.ReplicaSets.WaitForConnectable(ctx, p, svc.ServiceID, set.ID, fastPolls)
	assertWaitErr(t, err, dbcloud.ErrUnexpectedStatus, "error")
}

// Nothing to probe: the resource comes back with ErrNoEndpoint at once.
func TestWaitForConnectableWithoutEndpoint(t *testing.T) {
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
		svc, err := c.Services.Create(t.Context(), p, &dbcloud.CreateServiceRequest{Name: "db"})
		if err != nil {
			t.Fatal(err)
		}
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
	_, err = c.Services.WaitForConnectable(t.Context(), "p1", "s1", fastPolls, dbcloud.WithWaitTimeout(300*time.Millisecond))
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
