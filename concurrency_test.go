package dbcloud_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
)

// workload runs every operation once, with log reads and waits, as one
// goroutine of a fleet controller would. Any error fails it.
func workload(ctx context.Context, c *dbcloud.Client, p string, w int) error {
	s, rs := c.Services, c.ReplicaSets
	wait := []dbcloud.WaitOption{fixture.FastPolls, dbcloud.WithWaitTimeout(time.Minute)}
	step := func(what string, err error) error {
		if err != nil {
			return fmt.Errorf("worker %d: %s: %w", w, what, err)
		}
		return nil
	}
	svc, err := s.Create(ctx, p, &dbcloud.CreateServiceRequest{Name: fmt.Sprintf("worker-%d", w), Addons: []dbcloud.Addon{dbcloud.AddonAI}})
	if err != nil {
		return step("create", err)
	}
	id, vpcID := svc.ServiceID, ""
	ready := func(what, id string) error {
		_, err := s.WaitForReady(ctx, p, id, wait...)
		return step(what, err)
	}
	steps := []func() error{
		func() error { return ready("wait created", id) },
		func() error { _, err := s.Get(ctx, p, id); return step("get", err) },
		func() error { _, err := s.List(ctx, p); return step("list", err) },
		func() error {
			_, err := s.Resize(ctx, p, id, &dbcloud.ResizeRequest{CPUMillis: 1000, MemoryGBs: 4})
			return step("resize", err)
		},
		func() error { return ready("wait resized", id) },
		func() error {
			_, err := s.SetHA(ctx, p, id, &dbcloud.SetHARequest{ReplicaCount: new(1)})
			return step("set HA", err)
		},
		func() error { return ready("wait HA", id) },
		func() error { return step("enable pooler", s.EnablePooler(ctx, p, id)) },
		func() error { return step("disable pooler", s.DisablePooler(ctx, p, id)) },
		func() error { return step("set environment", s.SetEnvironment(ctx, p, id, dbcloud.EnvironmentProd)) },
		func() error {
			// A VPC of the worker's own: the fake answers an unknown one 404.
			vpc, err := c.VPCs.Create(ctx, p, &dbcloud.CreateVPCRequest{Name: fmt.Sprintf("vpc-%d", w), CIDR: fmt.Sprintf("10.%d.0.0/16", w), RegionCode: "us-east-1"})
			if err != nil {
				return step("create VPC", err)
			}
			vpcID = vpc.ID
			return nil
		},
		func() error { return step("attach VPC", s.AttachToVPC(ctx, p, id, vpcID)) },
		func() error { return step("detach VPC", s.DetachFromVPC(ctx, p, id, vpcID)) },
		func() error { return step("delete VPC", c.VPCs.Delete(ctx, p, vpcID)) },
		func() error {
			return step("update password", s.UpdatePassword(ctx, p, id, fmt.Sprintf("pw-%d-secret", w)))
		},
		func() error {
			n := 0
			for _, err := range s.AllLogs(ctx, p, id, &dbcloud.LogOptions{Severities: []string{"LOG"}}) {
				if err != nil {
					return step("all logs", err)
				}
				n++
			}
			if n == 0 {
				return step("all logs", fmt.Errorf("no entries"))
			}
			return nil
		},
		func() error { _, err := s.ListLogs(ctx, p, id, nil); return step("list logs", err) },
		func() error {
			set, err := rs.Create(ctx, p, id, &dbcloud.CreateReplicaSetRequest{Name: "reads", Nodes: 2, CPUMillis: 500, MemoryGBs: 2})
			if err != nil {
				return step("create replica set", err)
			}
			for _, f := range []func() error{
				func() error { _, err := rs.WaitForActive(ctx, p, id, set.ID, wait...); return err },
				func() error {
					return rs.Resize(ctx, p, id, set.ID, &dbcloud.ResizeRequest{CPUMillis: 1000, MemoryGBs: 4})
				},
				func() error { _, err := rs.WaitForActive(ctx, p, id, set.ID, wait...); return err },
				func() error { return rs.EnablePooler(ctx, p, id, set.ID) },
				func() error { return rs.DisablePooler(ctx, p, id, set.ID) },
				func() error { return rs.SetEnvironment(ctx, p, id, set.ID, dbcloud.EnvironmentProd) },
				func() error { _, err := rs.List(ctx, p, id); return err },
				func() error { return rs.Delete(ctx, p, id, set.ID) },
				func() error { return rs.WaitForDeleted(ctx, p, id, set.ID, wait...) },
			} {
				if err := f(); err != nil {
					return step("replica set "+set.ID, err)
				}
			}
			return nil
		},
		func() error {
			fork, err := s.Fork(ctx, p, id, &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkLastSnapshot})
			if err == nil {
				err = ready("wait fork", fork.ServiceID)
			}
			if err == nil {
				err = s.Delete(ctx, p, fork.ServiceID)
			}
			if err == nil {
				err = s.WaitForDeleted(ctx, p, fork.ServiceID, wait...)
			}
			return step("fork", err)
		},
		func() error { _, err := s.Stop(ctx, p, id); return step("stop", err) },
		func() error {
			_, err := s.WaitForStatus(ctx, p, id, dbcloud.StatusPaused, wait...)
			return step("wait stopped", err)
		},
		func() error { _, err := s.Start(ctx, p, id); return step("start", err) },
		func() error { return ready("wait started", id) },
		func() error { return step("delete", s.Delete(ctx, p, id)) },
		func() error { return step("wait deleted", s.WaitForDeleted(ctx, p, id, wait...)) },
	}
	for _, f := range steps {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

// One client shared by 64 goroutines doing every operation: no race (the
// suite runs under -race), no error, no goroutine left, and keep-alive
// connections reused.
func TestConcurrentClient(t *testing.T) {
	t.Parallel()
	dbcloudtest.CheckGoroutines(t)
	const workers = 64
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	// The fake served through Handler by a server of the test's own, which
	// counts the connections it accepts.
	ts, newConns := countingServer(srv.Handler())
	defer ts.Close()
	c, err := dbcloud.NewClient(srv.APIKey, dbcloud.WithBaseURL(ts.URL+"/v1"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()

	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { errs <- workload(t.Context(), c, srv.ProjectID, w) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	requests, conns := srv.Count("", ""), newConns.Load()
	t.Logf("%d requests over %d connections", requests, conns)
	// Each worker sends about 30 requests of its own; its waits share the
	// reads of the project with the other workers' (one List per tick), so
	// they add fewer than one request each.
	if requests < workers*25 {
		t.Errorf("only %d requests: the workload did not run", requests)
	}
	if conns*10 > int64(requests) {
		t.Errorf("%d connections for %d requests: keep-alive connections are not reused", conns, requests)
	}
}

// poolServer serves a service to every GET and counts the TCP connections
// opened to it.
func poolServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	srv, conns := countingServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(serviceJSON))
	}))
	t.Cleanup(srv.Close)
	return srv, conns
}

// countingServer serves h with httptest and counts the connections it
// accepts.
func countingServer(h http.Handler) (*httptest.Server, *atomic.Int64) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	return srv, &conns
}

// The default client keeps its connections pooled under many goroutines
// doing Get against one loopback server: it opens about one connection per
// goroutine, like raw net/http on a transport tuned with as many idle
// connections as goroutines. (With an http.Client Timeout it opened 2 to 3
// times as many: net/http races the cancel at the end of each body with
// returning its connection to the pool.) By default 64 goroutines Get 5
// times each; with DBCLOUD_MEASURE=1, as CI's measurement step runs it, 20
// times, and 256 goroutines too (14 s under -race).
func TestDefaultClientKeepsConnectionsPooled(t *testing.T) {
	for _, tc := range []struct {
		goroutines int
		slack      float64 // how many more connections the SDK may open
		noRace     bool    // the bound holds only without -race
	}{
		// Both open about one connection per goroutine, plus the dials a
		// start burst races (measured over 3 rounds of 64: raw 201-234,
		// the SDK 211-277; of 256: raw 818-862, the SDK 795-940).
		{goroutines: 64, slack: 1.35},
		// Under -race, which slows the SDK's side far more than raw
		// net/http's, the count of 256 varied more (when the SDK's pool
		// was net/http's 100, the ratio ranged from 0.72 to 1.91 over 8
		// runs): there it is only logged, and CI's run without -race holds
		// the bound.
		{goroutines: 256, slack: 1.6, noRace: true},
	} {
		if tc.goroutines > 64 && !measuring {
			continue
		}
		each := atScale(5, 20)
		raw, sdk := poolConnections(t, tc.goroutines, each)
		t.Logf("3 rounds of %d goroutines × %d Gets: raw net/http (a pool as large) opened %d connections, the SDK %d",
			tc.goroutines, each, raw, sdk)
		if tc.noRace && raceEnabled {
			continue
		}
		if float64(sdk) > tc.slack*float64(raw)+3 {
			t.Errorf("%d goroutines: the SDK opened %d connections, raw net/http %d: want at most %.2f times as many",
				tc.goroutines, sdk, raw, tc.slack)
		}
	}
}

// A burst of more goroutines than net/http's default pool (100 idle
// connections) leaves all its connections pooled for the next burst: the
// server holds each round's Gets until all have arrived, so that each
// round needs one connection per goroutine at once. With the default
// pool, the second round dialed again for the 50 connections over 100.
func TestDefaultClientKeepsABurstsConnections(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	const burst = 150
	var (
		mu      sync.Mutex
		arrived int
		all     = make(chan struct{})
	)
	srv, conns := countingServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if arrived++; arrived == burst {
			close(all)
		}
		round := all
		mu.Unlock()
		select {
		case <-round:
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(serviceJSON))
	}))
	defer srv.Close()
	c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(srv.URL+"/v1"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()

	var opened [2]int64
	for round := range opened {
		mu.Lock()
		arrived, all = 0, make(chan struct{})
		mu.Unlock()
		before := conns.Load()
		var wg sync.WaitGroup
		for range burst {
			wg.Go(func() {
				if _, err := c.Services.Get(ctx, "p1", "s1"); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		opened[round] = conns.Load() - before
	}
	t.Logf("%d goroutines held together: %d connections opened in the first round, %d in the second", burst, opened[0], opened[1])
	if opened[0] < burst {
		t.Fatalf("the first round opened %d connections for %d requests held at once", opened[0], burst)
	}
	if opened[1] != 0 {
		t.Errorf("the second round opened %d connections: the pool closed them after the first", opened[1])
	}
}

// poolConnections counts the connections that raw net/http and the SDK's
// default client open, in 3 alternating rounds of goroutines each doing
// each Gets.
func poolConnections(t *testing.T, goroutines, each int) (raw, sdk int64) {
	hammer := func(get func() error) {
		var wg sync.WaitGroup
		for range goroutines {
			wg.Go(func() {
				for range each {
					if err := get(); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
	}

	rawRun := func() int64 {
		srv, conns := poolServer(t)
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConns, tr.MaxIdleConnsPerHost = goroutines, goroutines
		client := &http.Client{Transport: tr}
		defer tr.CloseIdleConnections()
		hammer(func() error {
			req, _ := http.NewRequestWithContext(context.Background(), "GET", srv.URL+"/v1/projects/p1/services/s1", nil)
			resp, err := client.Do(req)
			if err != nil {
				return err
			}
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			return err
		})
		return conns.Load()
	}
	sdkRun := func() int64 {
		srv, conns := poolServer(t)
		c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(srv.URL+"/v1"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseIdleConnections()
		hammer(func() error {
			_, err := c.Services.Get(context.Background(), "p1", "s1")
			return err
		})
		return conns.Load()
	}
	// Rounds alternate, so that a busy moment of the machine does not
	// weigh on one side only.
	for range 3 {
		raw += rawRun()
		sdk += sdkRun()
	}
	return raw, sdk
}
