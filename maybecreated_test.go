package dbcloud_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/jarcoal/httpmock"
)

// createOp is one of the three requests that create something.
type createOp struct {
	name, url, ok, resource string
	call                    func(context.Context, *dbcloud.Client) error
}

var replicaSetJSON = `{"id":"rs-1","name":"r","status":"creating","nodes":1,"cpu_millis":1,"memory_gbs":1}`

var createOps = []createOp{
	{"create service", servicesURL, serviceJSON, "service", func(ctx context.Context, c *dbcloud.Client) error {
		_, err := c.Services.Create(ctx, "p1", &dbcloud.CreateServiceRequest{Name: "db"})
		return err
	}},
	{"fork", forkURL, serviceJSON, "service", func(ctx context.Context, c *dbcloud.Client) error {
		_, err := c.Services.Fork(ctx, "p1", "s1", &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow})
		return err
	}},
	{"create replica set", replicasURL, replicaSetJSON, "replica set", func(ctx context.Context, c *dbcloud.Client) error {
		_, err := c.ReplicaSets.Create(ctx, "p1", "s1", &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 1, MemoryGBs: 1})
		return err
	}},
}

// Every way a create can fail is sorted into "the resource may exist"
// (ErrMaybeCreated) or "nothing was created", whatever came before: each kind
// of fault is tested on each create, and the faults that can go either way
// (a connection error before or after sending; a 429 alone or followed by a
// failure after sending) are tested both ways.
func TestCreateFailuresSortedIntoMaybeCreated(t *testing.T) {
	status := func(code int) httpmock.Responder {
		return httpmock.NewStringResponder(code, `{"code":"X","message":"status `+http.StatusText(code)+`"}`)
	}
	fail := httpmock.NewErrorResponder
	dnsErr := &net.OpError{Op: "dial", Err: &net.DNSError{Err: "no such host", Name: "api.test"}}
	certErr := &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}
	// hang holds the request until the caller's deadline: a timeout after
	// the request was sent.
	hang := func(req *http.Request) (*http.Response, error) {
		<-req.Context().Done()
		return nil, req.Context().Err()
	}
	tests := []struct {
		name      string
		responder func(op createOp) httpmock.Responder
		ctx       func(t *testing.T) context.Context
		maybe     bool
		also      error // another sentinel the error must match
		not       error // a sentinel the error must not match
		attempts  int
	}{
		{name: "500", responder: func(createOp) httpmock.Responder { return status(500) }, maybe: true, also: dbcloud.ErrServer, attempts: 1},
		{name: "501", responder: func(createOp) httpmock.Responder { return status(501) }, maybe: true, also: dbcloud.ErrServer, attempts: 1},
		{name: "502", responder: func(createOp) httpmock.Responder { return status(502) }, maybe: true, also: dbcloud.ErrServer, attempts: 1},
		{name: "503", responder: func(createOp) httpmock.Responder { return status(503) }, maybe: true, also: dbcloud.ErrServer, attempts: 1},
		{name: "504", responder: func(createOp) httpmock.Responder { return status(504) }, maybe: true, also: dbcloud.ErrServer, attempts: 1},
		{name: "reset after sending", responder: func(createOp) httpmock.Responder { return fail(errReset) }, maybe: true, also: syscall.ECONNRESET, attempts: 1},
		{name: "timeout after sending", responder: func(createOp) httpmock.Responder { return hang }, ctx: deadline(50 * time.Millisecond), maybe: true, also: context.DeadlineExceeded, attempts: 1},
		{name: "2xx body cut off", responder: func(op createOp) httpmock.Responder { return cutOff(202, op.ok) }, maybe: true, also: dbcloud.ErrInvalidResponse, attempts: 1},
		{name: "2xx malformed", responder: func(createOp) httpmock.Responder { return httpmock.NewStringResponder(202, `{"id":`) }, maybe: true, also: dbcloud.ErrInvalidResponse, attempts: 1},
		{name: "2xx empty", responder: func(createOp) httpmock.Responder { return httpmock.NewStringResponder(202, "") }, maybe: true, also: dbcloud.ErrInvalidResponse, attempts: 1},
		{name: "2xx without its id", responder: func(createOp) httpmock.Responder { return httpmock.NewStringResponder(202, `{"name":"x"}`) }, maybe: true, also: dbcloud.ErrInvalidResponse, attempts: 1},
		{name: "429 then reset after sending", responder: func(createOp) httpmock.Responder { return status(429).Then(fail(errReset)) }, maybe: true, not: dbcloud.ErrRateLimited, attempts: 2},
		{name: "429 then 503", responder: func(createOp) httpmock.Responder { return status(429).Then(status(503)) }, maybe: true, also: dbcloud.ErrServer, not: dbcloud.ErrRateLimited, attempts: 2},
		{name: "refused then reset after sending", responder: func(createOp) httpmock.Responder { return fail(errRefused).Then(fail(errReset)) }, maybe: true, also: syscall.ECONNRESET, attempts: 2},
		{name: "429 then timeout after sending", responder: func(createOp) httpmock.Responder { return status(429).Then(hang) }, ctx: deadline(200 * time.Millisecond), maybe: true, also: context.DeadlineExceeded, not: dbcloud.ErrRateLimited, attempts: 2},

		{name: "400", responder: func(createOp) httpmock.Responder { return status(400) }, also: dbcloud.ErrBadRequest, attempts: 1},
		{name: "404", responder: func(createOp) httpmock.Responder { return status(404) }, also: dbcloud.ErrNotFound, attempts: 1},
		{name: "409", responder: func(createOp) httpmock.Responder { return status(409) }, also: dbcloud.ErrConflict, attempts: 1},
		{name: "429 every time", responder: func(createOp) httpmock.Responder { return status(429) }, also: dbcloud.ErrRateLimited, attempts: 5},
		{name: "429 Retry-After over the max", responder: func(createOp) httpmock.Responder {
			return status(429).HeaderSet(http.Header{"Retry-After": {"3600"}})
		}, also: dbcloud.ErrRateLimited, attempts: 1},
		{name: "refused every time", responder: func(createOp) httpmock.Responder { return fail(errRefused) }, also: syscall.ECONNREFUSED, attempts: 5},
		{name: "DNS failure every time", responder: func(createOp) httpmock.Responder { return fail(dnsErr) }, attempts: 5},
		{name: "untrusted certificate", responder: func(createOp) httpmock.Responder { return fail(certErr) }, attempts: 1},
		{name: "429 then refused every time", responder: func(createOp) httpmock.Responder { return status(429).Then(fail(errRefused)) }, also: syscall.ECONNREFUSED, attempts: 5},
		{name: "cancelled before sending", responder: func(op createOp) httpmock.Responder { return httpmock.NewStringResponder(202, op.ok) }, ctx: cancelled, also: context.Canceled, attempts: 0},
	}
	for _, op := range createOps {
		for _, tt := range tests {
			t.Run(op.name+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				c, mt := mockClient(t)
				mt.RegisterResponder("POST", op.url, tt.responder(op))
				ctx := t.Context()
				if tt.ctx != nil {
					ctx = tt.ctx(t)
				}
				err := op.call(ctx, c)
				if err == nil {
					t.Fatal("err = nil, want a failure")
				}
				if got := errors.Is(err, dbcloud.ErrMaybeCreated); got != tt.maybe {
					t.Errorf("errors.Is(err, ErrMaybeCreated) = %v, want %v (err: %v)", got, tt.maybe, err)
				}
				var maybe *dbcloud.MaybeCreatedError
				if errors.As(err, &maybe) != tt.maybe || (tt.maybe && maybe.Resource != op.resource) {
					t.Errorf("err = %#v, want a *MaybeCreatedError for a %s: %v", err, op.resource, tt.maybe)
				}
				if tt.also != nil && !errors.Is(err, tt.also) {
					t.Errorf("err = %v, want it to match %v too", err, tt.also)
				}
				if tt.not != nil && errors.Is(err, tt.not) {
					t.Errorf("err = %v matches %v: that sentinel says nothing was created", err, tt.not)
				}
				if got := mt.GetTotalCallCount(); got != tt.attempts {
					t.Errorf("attempts = %d, want %d", got, tt.attempts)
				}
			})
		}
	}
	// Input refused before sending is never ambiguous.
	c, _ := mockClient(t)
	if _, err := c.Services.Create(t.Context(), "p1", &dbcloud.CreateServiceRequest{}); errors.Is(err, dbcloud.ErrMaybeCreated) {
		t.Errorf("a *ValidationError matches ErrMaybeCreated: %v", err)
	}
}

// A 429 whose backoff the caller cancels created nothing.
func TestCreateCancelledDuringBackoffIsNotMaybeCreated(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	c, mt := mockClient(t, dbcloud.WithRetryWait(time.Hour, time.Hour), dbcloud.WithLogger(slog.New(cancelOnRetry{slog.DiscardHandler, cancel})))
	mt.RegisterResponder("POST", servicesURL, httpmock.NewStringResponder(429, `{"code":"RATE_LIMITED"}`))
	_, err := c.Services.Create(ctx, "p1", &dbcloud.CreateServiceRequest{Name: "db"})
	if !errors.Is(err, context.Canceled) || !errors.Is(err, dbcloud.ErrRateLimited) || errors.Is(err, dbcloud.ErrMaybeCreated) {
		t.Errorf("err = %v, want the cancellation and the 429, not ErrMaybeCreated", err)
	}
}

func deadline(d time.Duration) func(t *testing.T) context.Context {
	return func(t *testing.T) context.Context {
		ctx, cancel := context.WithTimeout(t.Context(), d)
		t.Cleanup(cancel)
		return ctx
	}
}

func cancelled(t *testing.T) context.Context {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	return ctx
}
