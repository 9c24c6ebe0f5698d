package dbcloud_test

import (
	"context"
	"errors"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
)

// The SDK's own steps never go through the public methods, so an option
// that governs those methods cannot refuse a step of a call it already let
// through: WithReadOnlyProd allows Services.Create (it changes no existing
// service), and when the create's answer is lost and recovery finds the
// PROD service it made, setting its new password is part of that create.
// Before, recovery called UpdatePassword, which the guard refused: the
// service existed and nobody held its password.
func TestReadOnlyProdRecoveryFinishesTheUsersCreate(t *testing.T) {
	t.Parallel()
	c, srv := recoveryClient(t, nil, dbcloud.WithReadOnlyProd())
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: servicesPattern, Drop: true, AfterHandling: true})
	svc, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders", EnvironmentTag: dbcloud.EnvironmentProd})
	if err != nil || svc == nil || len(svc.InitialPassword) != 32 {
		t.Fatalf("create: %v, %+v; want the recovered PROD service with a new password", err, svc)
	}
	var set []int
	for _, r := range srv.Requests() {
		if r.Method == "POST" && r.Path == "/projects/"+srv.ProjectID+"/services/"+svc.ServiceID+"/updatePassword" {
			set = append(set, r.Status)
		}
	}
	if len(set) != 1 || set[0] < 200 || set[0] > 299 {
		t.Errorf("password updates answered %v, want one success", set)
	}
	// The guard still refuses the user's own change to that service.
	if err := c.Services.UpdatePassword(t.Context(), srv.ProjectID, svc.ServiceID, "an0ther-pw"); !errors.Is(err, dbcloud.ErrReadOnly) {
		t.Errorf("UpdatePassword on the PROD service: %v, want ErrReadOnly", err)
	}
}

// ctxKey is a value a caller puts in its context.
type ctxKey struct{}

// valueObserver records the ctxKey value of each call's context.
type valueObserver struct {
	mu   sync.Mutex
	seen map[string][]any // by operation
}

func (o *valueObserver) StartCall(ctx context.Context, call dbcloud.CallInfo) context.Context {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.seen[call.Operation] = append(o.seen[call.Operation], ctx.Value(ctxKey{}))
	return ctx
}
func (o *valueObserver) StartAttempt(ctx context.Context, _ dbcloud.CallInfo, _ int) context.Context {
	return ctx
}
func (o *valueObserver) EndAttempt(context.Context, dbcloud.CallInfo, dbcloud.AttemptInfo) {}
func (o *valueObserver) EndCall(context.Context, dbcloud.CallInfo, dbcloud.CallResult)     {}

// A wait alone reads on its caller's context: the values the caller put in
// it (a trace span, a request id) reach every read. Before, the reads ran
// under context.Background().
func TestLoneWaitReadsCarryTheCallersValues(t *testing.T) {
	t.Parallel()
	obs := &valueObserver{seen: map[string][]any{}}
	c, srv := fixture.NewFake(t, nil, dbcloud.WithObserver(obs), dbcloud.WithDefaultPollInterval(time.Millisecond, time.Millisecond))
	svc := fixture.CreateReady(t, c, srv.ProjectID, "orders")
	setStatus(t, srv, svc.ServiceID, dbcloud.StatusConfiguring)
	obs.mu.Lock()
	clear(obs.seen)
	obs.mu.Unlock()
	ctx := context.WithValue(t.Context(), ctxKey{}, "deploy-42")
	polls := 0
	_, err := c.Services.WaitForReady(ctx, srv.ProjectID, svc.ServiceID, dbcloud.WithProgress(func(dbcloud.WaitProgress) {
		if polls++; polls == 2 {
			setStatus(t, srv, svc.ServiceID, dbcloud.StatusReady)
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	gets := obs.seen["Services.Get"]
	if len(gets) < 3 {
		t.Fatalf("%d reads observed, want at least 3", len(gets))
	}
	for i, v := range gets {
		if v != "deploy-42" {
			t.Errorf("read %d carried %v, want the caller's value", i+1, v)
		}
	}
}

// An attempt ended by the attempt timeout has an identity a caller can
// branch on: it matches ErrAttemptTimeout and is a net.Error whose Timeout
// reports true, and it is not context.DeadlineExceeded (the caller's
// deadline has not passed).
func TestAttemptTimeoutHasAnIdentity(t *testing.T) {
	t.Parallel()
	_, srv := fixture.NewFake(t, nil)
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: servicesPattern + "/*", Delay: time.Minute, Times: 10})
	c := srv.Client(dbcloud.WithAttemptTimeout(100*time.Millisecond), dbcloud.WithRetryMax(1), fixture.TinyRetries)
	_, err := c.Services.Get(t.Context(), srv.ProjectID, "svc-held")
	var netErr net.Error
	switch {
	case !errors.Is(err, dbcloud.ErrAttemptTimeout):
		t.Errorf("err = %v, want it to match ErrAttemptTimeout", err)
	case !errors.As(err, &netErr) || !netErr.Timeout():
		t.Errorf("err = %v, want a net.Error whose Timeout is true", err)
	case errors.Is(err, context.DeadlineExceeded):
		t.Errorf("err = %v matches context.DeadlineExceeded, but no deadline passed", err)
	}
	if n := srv.Count("GET", servicesPattern+"/*"); n != 2 {
		t.Errorf("attempts = %d, want 2 (one retry after the first timed out)", n)
	}
}
