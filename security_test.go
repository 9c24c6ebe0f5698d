package dbcloud_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/jarcoal/httpmock"
)

// Every operation, with successes, failures and retries, logged at debug
// level: the API key, the initial passwords and the password given to
// UpdatePassword appear in no log record, no error text, and no fmt output
// of anything the SDK returned.
func TestNoSecretAnywhere(t *testing.T) {
	const newPassword = "Upd4ted-Pa55word-quux"
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, srv := newFake(t, nil, dbcloud.WithLogger(logger))
	ctx, p := t.Context(), srv.ProjectID
	var returned []any
	keep := func(v any, err error) {
		if err != nil {
			returned = append(returned, err)
		}
		if v != nil {
			returned = append(returned, v)
		}
	}

	svc, err := c.Services.Create(ctx, p, &dbcloud.CreateServiceRequest{Name: "db"})
	if err != nil || svc.InitialPassword == "" {
		t.Fatalf("create: %v, password %t", err, svc != nil && svc.InitialPassword != "")
	}
	keep(svc, nil)
	id := svc.ServiceID
	keep(c.Services.WaitForReady(ctx, p, id, fastPolls))
	fork, err := c.Services.Fork(ctx, p, id, &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow})
	if err != nil {
		t.Fatal(err)
	}
	keep(fork, nil)
	secrets := []string{srv.APIKey, string(svc.InitialPassword), string(fork.InitialPassword), newPassword}

	// Failures and retries along the way: a 503 retried, a reset retried, a
	// 400 that echoes the password, a 401 that echoes the key.
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services", Status: 503})
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: "/projects/*/services/*/stop", Drop: true})
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: "/projects/*/services/*/updatePassword", Status: 400,
		Body: `{"code":"INVALID_REQUEST","message":"password ` + newPassword + ` is weak"}`})
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: "/projects/*/services/*/enablePooler", Status: 401,
		Body: `{"code":"UNAUTHORIZED","message":"key ` + srv.APIKey + ` revoked"}`})

	keep(c.Services.List(ctx, p))
	keep(c.Services.Get(ctx, p, id))
	keep(nil, c.Services.UpdatePassword(ctx, p, id, newPassword)) // the 400
	keep(nil, c.Services.UpdatePassword(ctx, p, id, newPassword))
	keep(nil, c.Services.EnablePooler(ctx, p, id)) // the 401
	keep(nil, c.Services.EnablePooler(ctx, p, id))
	keep(nil, c.Services.DisablePooler(ctx, p, id))
	keep(nil, c.Services.AttachToVPC(ctx, p, id, "42"))
	keep(nil, c.Services.DetachFromVPC(ctx, p, id, "42"))
	keep(nil, c.Services.SetEnvironment(ctx, p, id, dbcloud.EnvironmentProd))
	keep(c.Services.Resize(ctx, p, id, &dbcloud.ResizeRequest{CPUMillis: 1000, MemoryGBs: 4}))
	keep(c.Services.WaitForReady(ctx, p, id, fastPolls))
	keep(c.Services.SetHA(ctx, p, id, &dbcloud.SetHARequest{ReplicaCount: new(1)}))
	keep(c.Services.WaitForReady(ctx, p, id, fastPolls))
	keep(c.Services.ListLogs(ctx, p, id, nil))
	for e, err := range c.Services.AllLogs(ctx, p, id, nil) {
		keep(e, err)
	}
	set, err := c.ReplicaSets.Create(ctx, p, id, &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 500, MemoryGBs: 2})
	keep(set, err)
	keep(c.ReplicaSets.WaitForActive(ctx, p, id, set.ID, fastPolls))
	keep(c.ReplicaSets.List(ctx, p, id))
	keep(nil, c.ReplicaSets.Resize(ctx, p, id, set.ID, &dbcloud.ResizeRequest{CPUMillis: 1000, MemoryGBs: 4}))
	keep(nil, c.ReplicaSets.EnablePooler(ctx, p, id, set.ID))
	keep(nil, c.ReplicaSets.DisablePooler(ctx, p, id, set.ID))
	keep(nil, c.ReplicaSets.SetEnvironment(ctx, p, id, set.ID, dbcloud.EnvironmentDev))
	keep(nil, c.ReplicaSets.Delete(ctx, p, id, set.ID))
	keep(nil, c.ReplicaSets.WaitForDeleted(ctx, p, id, set.ID, fastPolls))
	keep(c.Services.Stop(ctx, p, id)) // reset, then retried
	keep(c.Services.WaitForStatus(ctx, p, id, dbcloud.StatusPaused, fastPolls))
	keep(c.Services.Start(ctx, p, id))
	keep(c.Services.Get(ctx, p, "no-such-service"))
	keep(nil, c.Services.Delete(ctx, p, id))
	keep(nil, c.Services.WaitForDeleted(ctx, p, id, fastPolls))
	keep(c, nil)

	errCount := 0
	for _, v := range returned {
		if _, ok := v.(error); ok {
			errCount++
		}
	}
	if errCount < 3 || !bytes.Contains(logs.Bytes(), []byte("retry=true")) {
		t.Fatalf("%d errors and retries logged: %t; the test must see failures and retries", errCount, bytes.Contains(logs.Bytes(), []byte("retry=true")))
	}
	for _, s := range secrets {
		if bytes.Contains(logs.Bytes(), []byte(s)) {
			t.Errorf("debug logs contain the secret %q", s)
		}
	}
	for _, v := range returned {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
			out := fmt.Sprintf(verb, v)
			for _, s := range secrets {
				if bytes.Contains([]byte(out), []byte(s)) {
					t.Errorf("%s of a %T shows the secret %q", verb, v, s)
				}
			}
		}
	}
}

// Ids holding "/", "..", "?", "#", "%" or spaces stay one path segment: the
// server sees them escaped and answers 404, never another route.
func TestIDsCannotChangeTheRoute(t *testing.T) {
	c, srv, svc, set := newFakeWithSet(t)
	ctx, p := t.Context(), srv.ProjectID
	id := svc.ServiceID
	srv.ResetRequests()
	weird := []string{
		id + "/replicaSets/" + set.ID, // unescaped, a DELETE would delete the replica set
		id + "?x=1", id + "#frag", id + "%2Fstop", id + " ", "..", ".", "../" + id, "a b/../" + id,
	}
	for _, w := range weird {
		if err := c.Services.Delete(ctx, p, w); !errors.Is(err, dbcloud.ErrNotFound) {
			t.Errorf("Delete(%q) = %v, want 404", w, err)
		}
		if _, err := c.Services.Stop(ctx, p, w); !errors.Is(err, dbcloud.ErrNotFound) {
			t.Errorf("Stop(%q) = %v, want 404", w, err)
		}
	}
	if n := srv.Count("", ""); n != 2*len(weird) {
		t.Errorf("%d requests, want %d", n, 2*len(weird))
	}
	if n := srv.Count("DELETE", "/projects/*/services/*") + srv.Count("POST", "/projects/*/services/*/stop"); n != 2*len(weird) {
		t.Errorf("only %d of %d requests kept the id as one segment", n, 2*len(weird))
	}
	after, err := c.Services.Get(ctx, p, id)
	if err != nil || after.Status != dbcloud.StatusReady {
		t.Errorf("the real service is %v, %v; want it untouched and READY", after, err)
	}
	if sets, err := c.ReplicaSets.List(ctx, p, id); err != nil || len(sets) != 1 {
		t.Errorf("replica sets: %v, %v; want the set untouched", sets, err)
	}
}

// A runaway body ends in an error after reading at most the bound, never in
// memory that grows with the body.
func TestRunawayBodiesDoNotGrowMemory(t *testing.T) {
	endlessBody := func(status int) httpmock.Responder {
		return func(*http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: status, ContentLength: -1, Header: http.Header{}, Body: io.NopCloser(endless{})}, nil
		}
	}
	for _, tt := range []struct {
		status  int
		want    error
		maxRead uint64
	}{
		{200, dbcloud.ErrResponseTooLarge, 72 << 20}, // the 32 MiB bound, read with doubling buffers
		{500, dbcloud.ErrServer, 3 << 20},            // the 1 MiB bound
	} {
		c, mt := mockClient(t, dbcloud.WithRetryMax(0))
		mt.RegisterResponder("GET", serviceURL, endlessBody(tt.status))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := c.Services.Get(context.Background(), "p1", "s1")
		runtime.ReadMemStats(&after)
		if !errors.Is(err, tt.want) {
			t.Errorf("status %d: err = %v, want %v", tt.status, err, tt.want)
		}
		if allocated := after.TotalAlloc - before.TotalAlloc; allocated > tt.maxRead {
			t.Errorf("status %d: allocated %d MiB, want under %d MiB", tt.status, allocated>>20, tt.maxRead>>20)
		}
	}
}
