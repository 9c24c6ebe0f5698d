package mydeploy_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/deploy"
	"github.com/dbcloud/dbcloud-go/examples/mydeploy"
)

// These tests are written as a user of the SDK writes them: only the public
// packages, a dbcloudtest server per test, no sleeps, and Deploy called as
// production calls it (no clock parameter: the PITR fork's target comes
// from the real clock, which the test server accepts).

// newServer starts a test server that closes with the test, after which no
// goroutine that Deploy started may still run.
func newServer(t *testing.T, opts ...dbcloudtest.Option) *dbcloudtest.Server {
	t.Helper()
	dbcloudtest.CheckGoroutines(t)
	srv := dbcloudtest.NewServer(opts...)
	t.Cleanup(srv.Close)
	return srv
}

// mutating counts the requests other than GET from the n-th on.
func mutating(srv *dbcloudtest.Server, from int) int {
	n := 0
	for _, r := range srv.Requests()[from:] {
		if r.Method != http.MethodGet {
			n++
		}
	}
	return n
}

// checkDeployed checks that the server holds the orders databases once.
func checkDeployed(t *testing.T, srv *dbcloudtest.Server) {
	t.Helper()
	all := srv.Services()
	if len(all) != 2 {
		t.Fatalf("%d services, want orders and its fork", len(all))
	}
	svc, fork := all[1], all[0]
	if svc.HAReplicas == nil || svc.HAReplicas.ReplicaCount != 2 || svc.ConnectionPooler == nil || svc.Status != dbcloud.StatusReady {
		t.Errorf("orders: %s, HA %+v, pooler %v", svc.Status, svc.HAReplicas, svc.ConnectionPooler)
	}
	if len(svc.ReadReplicaSets) != 1 || svc.ReadReplicaSets[0].ConnectionPooler == nil {
		t.Errorf("replica sets %+v, want orders-read with a pooler", svc.ReadReplicaSets)
	}
	if fork.Name != "orders-staging" || fork.ForkedFrom == nil || fork.ForkedFrom.ServiceID != svc.ServiceID {
		t.Errorf("fork %q from %+v", fork.Name, fork.ForkedFrom)
	}
}

// Each status lasts a minute on the server's clock, which the test moves
// on after each poll: every wait sees each status. The fork's target comes
// from the real clock, which the server's has left behind. A second Deploy
// sends no request that changes anything.
func TestDeployTwice(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithStep(time.Minute))
	c := srv.Client()
	var log strings.Builder
	res, err := mydeploy.Deploy(t.Context(), c, srv.ProjectID, &log, deploy.WithProgress(func(p deploy.Progress) {
		if p.Poll != nil {
			srv.Advance(time.Minute)
		}
	}))
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	checkDeployed(t, srv)
	if res.Services[0].InitialPassword == "" {
		t.Error("the new service's password was lost")
	}
	for _, want := range []string{
		"project proj-fake: 5 change(s)",
		`+ create fork "orders-staging" of "orders": PITR as of when the fork step runs`,
		`service "orders" (` + res.Services[0].ServiceID + `): CONFIGURING`,
		`replica set "orders-read" of "orders" (` + res.ReplicaSets["orders"][0].ID + `): creating`,
		`fork "orders-staging" of "orders" (` + res.Forks[0].ServiceID + `): QUEUED`,
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}

	mark := len(srv.Requests())
	log.Reset()
	if res, err = mydeploy.Deploy(t.Context(), c, srv.ProjectID, &log); err != nil {
		t.Fatal(err)
	}
	if n := mutating(srv, mark); n != 0 || res.Changed() {
		t.Errorf("second run: %d mutating requests, changed %v", n, res.Changed())
	}
	if !strings.HasPrefix(log.String(), "project proj-fake: no changes\n") {
		t.Errorf("second run's log:\n%s", log.String())
	}
	checkDeployed(t, srv)
}

// The server's clock ticks half a step per request, as in a test of a
// whole pipeline that cannot reach into the deploy to move the clock:
// every wait sees each status, and the server's clock runs far ahead of
// the real one the fork's target is read from. Deploy needs no change.
func TestDeployOnATickingClock(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithTickingClock(30*time.Second), dbcloudtest.WithStep(time.Minute))
	var log strings.Builder
	if _, err := mydeploy.Deploy(t.Context(), srv.Client(), srv.ProjectID, &log); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	checkDeployed(t, srv)
	// Each request moves the clock 30 s, and a deploy sends more than ten:
	// a clock not 5 minutes ahead did not tick.
	if srv.Now().Before(time.Now().Add(5 * time.Minute)) {
		t.Errorf("the server's clock (%s) did not run ahead: the test does not test it", srv.Now())
	}
}

// A paused service is started.
func TestDeployStartsAPausedService(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	res, err := mydeploy.Deploy(t.Context(), c, srv.ProjectID, new(strings.Builder))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Services.Stop(t.Context(), srv.ProjectID, res.Services[0].ServiceID); err != nil {
		t.Fatal(err)
	}
	if res, err = mydeploy.Deploy(t.Context(), c, srv.ProjectID, new(strings.Builder)); err != nil || res.Services[0].Status != dbcloud.StatusReady {
		t.Fatalf("Deploy of a paused service: %v", err)
	}
	if n := srv.Count("POST", "/projects/*/services/*/start"); n != 1 {
		t.Errorf("%d starts, want 1", n)
	}
}

// The answer to each create is lost after the server made the resource.
// The deploy's creates recover by themselves, on a plain client as on one
// with dbcloud.WithCreateRecovery: the run finds the resource, makes no
// second one, and the passwords of the service and the fork reach the
// pipeline in that same run (a recovered one is new: set by recovery).
func TestDeployRecoversFromALostCreateAnswer(t *testing.T) {
	for _, path := range []string{"/projects/*/services", "/projects/*/services/*/replicaSets", "/projects/*/services/*/forkService"} {
		for _, recovering := range []bool{true, false} {
			srv := newServer(t)
			srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: path, Drop: true, AfterHandling: true})
			c := srv.Client()
			if recovering {
				c = srv.Client(dbcloud.WithCreateRecovery())
			}
			stored := map[string]bool{}
			_, err := mydeploy.Deploy(t.Context(), c, srv.ProjectID, new(strings.Builder), deploy.WithPasswords(func(p deploy.Password) error {
				stored[p.Name] = p.Password != ""
				return nil
			}))
			if err != nil {
				t.Fatalf("%s, recovering client %v: %v", path, recovering, err)
			}
			checkDeployed(t, srv)
			if n := srv.Count("POST", path); n != 1 {
				t.Errorf("%s: %d creates sent, want 1", path, n)
			}
			if !stored["orders"] || !stored["orders-staging"] {
				t.Errorf("%s: passwords stored: %v", path, stored)
			}
		}
	}
}

// Reads that fail (a reset, a 502 from a proxy) are retried by the SDK.
func TestDeployRidesOutFlakyReads(t *testing.T) {
	srv := newServer(t)
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services", Status: 502, Body: "<html>Bad Gateway</html>"})
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services/*", Times: 2, Drop: true})
	if _, err := mydeploy.Deploy(t.Context(), srv.Client(), srv.ProjectID, new(strings.Builder)); err != nil {
		t.Fatal(err)
	}
	checkDeployed(t, srv)
}

// A service that never gets READY: the wait's timeout ends Deploy with an
// error that says so. WithStep(time.Hour) and no Advance keep it QUEUED.
// Deploy runs in a testing/synctest bubble, whose clock moves only when all
// its goroutines wait: the two seconds pass at once, and however loaded the
// machine, the first poll (which LastStatus needs) comes before them. The
// client opens a connection per request: an idle one would wait on the
// network, which keeps the bubble's clock from moving.
func TestDeployTimesOut(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithStep(time.Hour))
	synctest.Test(t, func(t *testing.T) {
		c := srv.Client(dbcloud.WithHTTPClient(&http.Client{Transport: &http.Transport{DisableKeepAlives: true}}))
		_, err := mydeploy.Deploy(t.Context(), c, srv.ProjectID, new(strings.Builder),
			deploy.WithWaitOptions(dbcloud.WithWaitTimeout(2*time.Second)))
		var waitErr *dbcloud.WaitError
		if !errors.As(err, &waitErr) || !errors.Is(err, context.DeadlineExceeded) || waitErr.LastStatus != string(dbcloud.StatusQueued) {
			t.Errorf("Deploy of a service that stays QUEUED: %v", err)
		}
	})
}
