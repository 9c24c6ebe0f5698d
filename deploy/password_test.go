package deploy_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/deploy"
)

// keep returns a password hook that keeps every password in got.
func keep(got map[string]dbcloud.Secret) deploy.Option {
	return deploy.WithPasswords(func(p deploy.Password) error {
		got[p.Name] = p.Password
		return nil
	})
}

// The answers of the service's and the fork's creates are lost after the
// API made them: the run resolves both (create recovery, on a client
// without it), and the new passwords recovery set reach the hook and the
// Result in that same run.
func TestPasswordsOfLostCreates(t *testing.T) {
	srv := newServer(t)
	for _, path := range []string{"/projects/*/services", "/projects/*/services/*/forkService"} {
		srv.InjectFault(dbcloudtest.Fault{Method: http.MethodPost, Path: path, Drop: true, AfterHandling: true})
	}
	got := map[string]dbcloud.Secret{}
	res, err := trial().Apply(t.Context(), srv.Client(), keep(got))
	if err != nil {
		t.Fatal(err)
	}
	checkDeployed(t, srv)
	if got["orders"] == "" || got["orders-staging"] == "" || got["orders"] != res.Services[0].InitialPassword || got["orders-staging"] != res.Forks[0].InitialPassword {
		t.Errorf("passwords: hook %d, result %v", len(got), res)
	}
	if n := srv.Count(http.MethodPost, "/projects/*/services/*/updatePassword"); n != 2 {
		t.Errorf("%d passwords set by recovery, want 2", n)
	}
}

// A run cancelled right after each create (at the password hook, or at
// the first poll of a replica set's wait) returns the created resource in
// its Result, with its password; so does a run whose hook fails.
func TestCancelledRightAfterACreate(t *testing.T) {
	for _, kind := range []dbcloud.ResourceKind{dbcloud.KindService, dbcloud.KindReplicaSet, dbcloud.KindFork} {
		t.Run(string(kind), func(t *testing.T) {
			srv := newServer(t)
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			got := map[string]dbcloud.Secret{}
			res, err := trial().Apply(ctx, srv.Client(), keep(got), deploy.WithPasswords(func(p deploy.Password) error {
				if p.Kind == kind {
					cancel()
				}
				return nil
			}), deploy.WithProgress(func(p deploy.Progress) {
				if p.Poll != nil && p.Record.Change.Kind == kind {
					cancel()
				}
			}))
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("err = %v, want a cancelled run", err)
			}
			switch kind {
			case dbcloud.KindService:
				if res.Service("orders") == nil || res.Services[0].InitialPassword == "" || res.Services[0].InitialPassword != got["orders"] {
					t.Errorf("result service %v", res.Service("orders"))
				}
			case dbcloud.KindReplicaSet:
				if len(res.ReplicaSets) != 1 || res.ReplicaSets["orders"][0].ID == "" || res.Services[0].InitialPassword == "" {
					t.Errorf("result replica sets %v", res.ReplicaSets)
				}
			case dbcloud.KindFork:
				if len(res.Forks) != 1 || res.Forks[0].InitialPassword == "" || res.Forks[0].InitialPassword != got["orders-staging"] {
					t.Errorf("result forks %v", res.Forks)
				}
			}
		})
	}
	srv := newServer(t)
	stop := errors.New("the secret store is down")
	res, err := trial().Apply(t.Context(), srv.Client(), deploy.WithPasswords(func(deploy.Password) error { return stop }))
	if !errors.Is(err, stop) || res.Service("orders") == nil || res.Services[0].InitialPassword == "" || len(srv.Services()) != 1 {
		t.Errorf("a failing hook: %v, %v", err, res.Service("orders"))
	}
}

// Under WithReadOnlyProd, a PROD service whose create's answer was lost is
// recovered with a new password, which the hook and the Result get, though
// the run is then refused its change to the PROD service.
func TestPasswordOfARecoveryUnderReadOnlyProd(t *testing.T) {
	srv := newServer(t)
	srv.InjectFault(dbcloudtest.Fault{Method: http.MethodPost, Path: "/projects/*/services", Drop: true, AfterHandling: true})
	st := &deploy.State{Services: []deploy.Service{{Name: "orders", Environment: dbcloud.EnvironmentProd, Pooler: new(true)}}}
	got := map[string]dbcloud.Secret{}
	res, err := st.Apply(t.Context(), srv.Client(dbcloud.WithReadOnlyProd()), keep(got))
	if !errors.Is(err, dbcloud.ErrReadOnly) {
		t.Fatalf("err = %v, want the pooler refused", err)
	}
	if got["orders"] == "" || res.Service("orders") == nil || res.Services[0].InitialPassword != got["orders"] {
		t.Errorf("the recovered password: hook %v, result %v", got["orders"] != "", res.Service("orders"))
	}
}
