package dbcloud_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
	"github.com/jarcoal/httpmock"
)

// Every operation, with successes, failures and retries, logged at debug
// level: the API key, the initial passwords and the password given to
// UpdatePassword appear in no log record, no error text, and no fmt output
// of anything the SDK returned.
func TestNoSecretAnywhere(t *testing.T) {
	t.Parallel()
	const newPassword = "Upd4ted-Pa55word-quux"
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, srv := fixture.NewFake(t, nil, dbcloud.WithLogger(logger))
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
	keep(c.Services.WaitForReady(ctx, p, id, fixture.FastPolls))
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
	keep(c.Services.WaitForReady(ctx, p, id, fixture.FastPolls))
	keep(c.Services.SetHA(ctx, p, id, &dbcloud.SetHARequest{ReplicaCount: new(1)}))
	keep(c.Services.WaitForReady(ctx, p, id, fixture.FastPolls))
	keep(c.Services.ListLogs(ctx, p, id, nil))
	for e, err := range c.Services.AllLogs(ctx, p, id, nil) {
		keep(e, err)
	}
	set, err := c.ReplicaSets.Create(ctx, p, id, &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 500, MemoryGBs: 2})
	keep(set, err)
	keep(c.ReplicaSets.WaitForActive(ctx, p, id, set.ID, fixture.FastPolls))
	keep(c.ReplicaSets.List(ctx, p, id))
	keep(nil, c.ReplicaSets.Resize(ctx, p, id, set.ID, &dbcloud.ResizeRequest{CPUMillis: 1000, MemoryGBs: 4}))
	keep(nil, c.ReplicaSets.EnablePooler(ctx, p, id, set.ID))
	keep(nil, c.ReplicaSets.DisablePooler(ctx, p, id, set.ID))
	keep(nil, c.ReplicaSets.SetEnvironment(ctx, p, id, set.ID, dbcloud.EnvironmentDev))
	keep(nil, c.ReplicaSets.Delete(ctx, p, id, set.ID))
	keep(nil, c.ReplicaSets.WaitForDeleted(ctx, p, id, set.ID, fixture.FastPolls))
	keep(c.Services.Stop(ctx, p, id)) // reset, then retried
	keep(c.Services.WaitForStatus(ctx, p, id, dbcloud.StatusPaused, fixture.FastPolls))
	keep(c.Services.Start(ctx, p, id))
	keep(c.Services.Get(ctx, p, "no-such-service"))
	keep(nil, c.Services.Delete(ctx, p, id))
	keep(nil, c.Services.WaitForDeleted(ctx, p, id, fixture.FastPolls))
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
	assertNoSecret(t, "the debug logs", logs.String(), secrets...)
	for _, v := range returned {
		for _, verb := range verbs {
			assertNoSecret(t, fmt.Sprintf("%s of a %T", verb, v), fmt.Sprintf(verb, v), secrets...)
		}
	}
}

// Ids holding "/", "..", "?", "#", "%" or spaces stay one path segment: the
// server sees them escaped and answers 404, never another route.
func TestIDsCannotChangeTheRoute(t *testing.T) {
	t.Parallel()
	c, srv, svc, set := fixture.NewFakeWithSet(t)
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

const initialPassword = "init-Pa55w0rd-xyzzy"

// every verb a user might print a value with.
var verbs = []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X"}

func assertNoSecret(t *testing.T, where, text string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Errorf("%s leaks %q:\n%s", where, s, text)
		}
	}
}

func TestSecretRedactsEverywhere(t *testing.T) {
	t.Parallel()
	s := dbcloud.Secret(initialPassword)
	for _, verb := range verbs {
		assertNoSecret(t, verb, fmt.Sprintf(verb, s), initialPassword)
	}
	for name, text := range map[string]string{
		"String":   s.String(),
		"GoString": s.GoString(),
		"slog":     s.LogValue().String(),
	} {
		assertNoSecret(t, name, text, initialPassword)
	}
	b, err := json.Marshal(s)
	if err != nil || string(b) != `"[redacted]"` {
		t.Errorf("MarshalJSON = %s, %v", b, err)
	}
	var back dbcloud.Secret
	if err := json.Unmarshal([]byte(`"`+initialPassword+`"`), &back); err != nil || string(back) != initialPassword {
		t.Errorf("UnmarshalJSON kept %q, %v; want the real value", string(back), err)
	}
}

// A service holding its initial password, printed, logged or encoded in
// every usual way, shows no password.
func TestServiceWithPasswordPrintsNoSecret(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t)
	body := strings.Replace(serviceJSON, `"resources":[]`, `"resources":[],"initial_password":"`+initialPassword+`"`, 1)
	mt.RegisterResponder("POST", servicesURL, httpmock.NewStringResponder(202, body))
	svc, err := c.Services.Create(t.Context(), "p1", &dbcloud.CreateServiceRequest{Name: "db"})
	if err != nil {
		t.Fatal(err)
	}
	if string(svc.InitialPassword) != initialPassword {
		t.Fatalf("InitialPassword = %q, want the real value through string()", string(svc.InitialPassword))
	}
	for _, verb := range verbs {
		assertNoSecret(t, verb+" of *Service", fmt.Sprintf(verb, svc), initialPassword)
		assertNoSecret(t, verb+" of Service", fmt.Sprintf(verb, *svc), initialPassword)
	}
	b, err := json.Marshal(svc)
	if err != nil {
		t.Fatal(err)
	}
	assertNoSecret(t, "json.Marshal", string(b), initialPassword)
	var logs bytes.Buffer
	slog.New(slog.NewTextHandler(&logs, nil)).Info("created", "service", svc)
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("created", "service", svc)
	assertNoSecret(t, "slog", logs.String(), initialPassword)
}

// The API key and a password given to UpdatePassword reach neither the logs
// (at debug level, through retries and failures), nor error texts, nor the
// fmt output of the client, even when a server echoes them back.
func TestKeyAndPasswordNeverPrinted(t *testing.T) {
	t.Parallel()
	const newPassword = "n3w-Secret-Pa55-plugh"
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, mt := mockClient(t, dbcloud.WithLogger(logger), dbcloud.WithRetryMax(1))

	echo := `{"code":"INVALID_REQUEST","message":"key ` + mockKey + ` cannot set ` + newPassword + `","details":"` + newPassword + `"}`
	mt.RegisterResponder("POST", serviceURL+"/updatePassword", httpmock.NewStringResponder(400, echo))
	mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(503, `{"message":"no key `+mockKey+`"}`).Then(httpmock.NewErrorResponder(errReset)))
	mt.RegisterResponder("POST", startURL, httpmock.NewStringResponder(401, `{"message":"bad key `+mockKey+`"}`))
	mt.RegisterResponder("GET", servicesURL, httpmock.NewStringResponder(200, "["+serviceJSON+"]"))

	var errs []error
	errs = append(errs, c.Services.UpdatePassword(t.Context(), "p1", "s1", newPassword))
	_, err := c.Services.Get(t.Context(), "p1", "s1")
	errs = append(errs, err)
	_, err = c.Services.Start(t.Context(), "p1", "s1")
	errs = append(errs, err)
	if _, err := c.Services.List(t.Context(), "p1"); err != nil {
		t.Fatal(err)
	}
	for i, err := range errs {
		if err == nil {
			t.Fatalf("call %d: want an error", i)
		}
		for _, verb := range verbs {
			assertNoSecret(t, fmt.Sprintf("error %d with %s", i, verb), fmt.Sprintf(verb, err), mockKey, newPassword)
		}
	}
	if !strings.Contains(logs.String(), "attempt=") || !strings.Contains(logs.String(), "status=503") {
		t.Fatalf("debug logs recorded no attempts:\n%s", logs.String())
	}
	assertNoSecret(t, "debug logs", logs.String(), mockKey, newPassword, "Authorization", "Bearer")
	for _, v := range []any{c, *c, c.Services, c.ReplicaSets} {
		for _, verb := range verbs {
			assertNoSecret(t, fmt.Sprintf("%s of %T", verb, v), fmt.Sprintf(verb, v), mockKey)
		}
	}
}

func TestNewClientErrorsDoNotLeakKey(t *testing.T) {
	t.Parallel()
	for _, base := range []string{"", "http://example.com/v1", "https://example.com/v2", "https://u:" + mockKey + "@example.com/v1"} {
		_, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(base))
		if err == nil {
			t.Fatalf("base %q: want an error", base)
		}
		assertNoSecret(t, "NewClient error", fmt.Sprintf("%+v", err), mockKey)
	}
}
