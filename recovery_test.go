package dbcloud_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
	"github.com/jarcoal/httpmock"
)

const servicesPattern = "/projects/*/services"

// recoveryClient starts a fake and returns a client with create recovery
// and a short settle, of the fake itself or, when wrap is not nil, of
// wrap(srv.Handler()) served on a loopback socket of its own.
func recoveryClient(t *testing.T, wrap func(http.Handler) http.Handler, opts ...dbcloud.Option) (*dbcloud.Client, *dbcloudtest.Server) {
	t.Helper()
	all := append([]dbcloud.Option{dbcloud.WithCreateRecovery(), dbcloud.WithCreateSettle(20 * time.Millisecond)}, opts...)
	c, srv := fixture.NewFake(t, nil, all...)
	if wrap != nil {
		c = clientBehind(t, srv, wrap(srv.Handler()), all...)
	}
	return c, srv
}

// names lists the names of a project's services, straight from the fake.
func names(t *testing.T, c *dbcloud.Client, project string) []string {
	t.Helper()
	list, err := c.Services.List(context.Background(), project)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range list {
		out = append(out, s.Name)
	}
	slices.Sort(out)
	return out
}

// Each kind of ambiguous failure of Services.Create ends, with recovery, in
// exactly one service and a usable result: found when the server had acted,
// sent again when it had not.
func TestCreateRecoveryResolvesEachFault(t *testing.T) {
	t.Parallel()
	dbcloudtest.CheckGoroutines(t)
	for _, tt := range []struct {
		name      string
		fault     dbcloudtest.Fault
		recovered bool // found by listing, with a new password; else sent again
	}{
		{"reset after the server acted", dbcloudtest.Fault{Drop: true, AfterHandling: true}, true},
		{"2xx body cut off", dbcloudtest.Fault{Truncate: true}, true},
		{"malformed 2xx from a proxy (the server did not act)", dbcloudtest.Fault{Status: 202, Body: `{"service_id":`}, false},
		{"reset before the server acted", dbcloudtest.Fault{Drop: true}, false},
		{"503 from a proxy", dbcloudtest.Fault{Status: 503}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := recoveryClient(t, nil)
			project := srv.ProjectID
			fixture.CreateReady(t, c, project, "other") // a service that is not this create's
			srv.ResetRequests()
			f := tt.fault
			f.Method, f.Path = "POST", servicesPattern
			srv.InjectFault(f)

			svc, err := c.Services.Create(t.Context(), project, &dbcloud.CreateServiceRequest{Name: "orders"})
			if err != nil {
				t.Fatalf("Create: %v", err)
			}
			if svc.Name != "orders" || svc.ServiceID == "" {
				t.Errorf("Create = %+v, want the service named orders", svc)
			}
			if got := len(string(svc.InitialPassword)); got == 0 {
				t.Error("InitialPassword is empty: a recovered service must get a new one")
			}
			if got := names(t, c, project); !slices.Equal(got, []string{"orders", "other"}) {
				t.Errorf("services = %v, want exactly one orders besides other", got)
			}
			sends, passwords := srv.Count("POST", servicesPattern), srv.Count("POST", servicesPattern+"/*/updatePassword")
			if tt.recovered && (sends != 1 || passwords != 1 || len(svc.InitialPassword) != 32) {
				t.Errorf("sends = %d, password updates = %d, password length %d; want 1, 1, 32", sends, passwords, len(svc.InitialPassword))
			}
			if !tt.recovered && (sends != 2 || passwords != 0) {
				t.Errorf("sends = %d, password updates = %d; want 2 and 0", sends, passwords)
			}
		})
	}
}

// Recovery finds a fork, named after its parent by default, among other
// services (another fork of another parent with the same name included).
func TestForkRecovery(t *testing.T) {
	t.Parallel()
	c, srv := recoveryClient(t, nil)
	project := srv.ProjectID
	parent := fixture.CreateReady(t, c, project, "db")
	twin := fixture.CreateReady(t, c, project, "twin")
	if _, err := c.Services.Fork(t.Context(), project, twin.ServiceID, &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow, Name: "db-fork"}); err != nil {
		t.Fatal(err)
	}
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: servicesPattern + "/*/forkService", Drop: true, AfterHandling: true})
	fork, err := c.Services.Fork(t.Context(), project, parent.ServiceID, &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkLastSnapshot})
	if err != nil {
		t.Fatalf("Fork: %v", err)
	}
	if fork.Name != "db-fork" || fork.ForkedFrom == nil || fork.ForkedFrom.ServiceID != parent.ServiceID || fork.InitialPassword == "" {
		t.Errorf("Fork = %+v, want db's fork, with a new password", fork)
	}
	if got := names(t, c, project); !slices.Equal(got, []string{"db", "db-fork", "db-fork", "twin"}) {
		t.Errorf("services = %v", got)
	}
}

func TestReplicaSetCreateRecovery(t *testing.T) {
	t.Parallel()
	c, srv := recoveryClient(t, nil)
	project := srv.ProjectID
	svc := fixture.CreateReady(t, c, project, "db")
	req := &dbcloud.CreateReplicaSetRequest{Name: "reads", Nodes: 2, CPUMillis: 500, MemoryGBs: 2}
	for _, f := range []dbcloudtest.Fault{{Drop: true, AfterHandling: true}, {Drop: true}} {
		f.Method, f.Path = "POST", servicesPattern+"/*/replicaSets"
		srv.InjectFault(f)
		set, err := c.ReplicaSets.Create(t.Context(), project, svc.ServiceID, req)
		if err != nil || set.Name != "reads" {
			t.Fatalf("Create = %+v, %v; want the set", set, err)
		}
		if err := c.ReplicaSets.Delete(t.Context(), project, svc.ServiceID, set.ID); err != nil {
			t.Fatal(err)
		}
		if err := c.ReplicaSets.WaitForDeleted(t.Context(), project, svc.ServiceID, set.ID, fixture.FastPolls); err != nil {
			t.Fatal(err)
		}
	}
	if got := srv.Count("POST", servicesPattern+"/*/replicaSets"); got != 3 {
		t.Errorf("creates sent = %d, want 3 (1, then 2 for the one that never arrived)", got)
	}
}

// holdFirstCreate delays the first create on its way, as a proxy or a queue
// can: it resets the client's connection at once and hands the request to the
// API only after the API has answered `lists` more lists of services. The
// order of events, not a timer, decides when it lands.
func holdFirstCreate(lists int) func(http.Handler) http.Handler {
	return func(api http.Handler) http.Handler {
		var mu sync.Mutex
		var held *http.Request
		listed := -1 // lists answered since the create was held; -1: none held yet
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			if held == nil && listed < 0 && r.Method == "POST" {
				body, _ := io.ReadAll(r.Body)
				held = r.Clone(context.Background())
				held.Body = io.NopCloser(bytes.NewReader(body))
				listed = 0
				mu.Unlock()
				reset(w)
				return
			}
			mu.Unlock()
			api.ServeHTTP(w, r)
			mu.Lock()
			defer mu.Unlock()
			if r.Method == "GET" && held != nil {
				if listed++; listed == lists {
					api.ServeHTTP(httptest.NewRecorder(), held)
					held = nil
				}
			}
		})
	}
}

// reset closes the client's connection with a TCP reset.
func reset(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// A create delayed on its way lands after recovery's first list. Within the
// settle period recovery keeps looking and finds it: one service. With no
// settle period it would conclude too early, send again and make two: the
// case the API leaves undecidable when a request lands later than the settle
// period.
func TestCreateRecoveryWaitsForADelayedRequest(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		settle time.Duration
		want   []string
	}{
		{400 * time.Millisecond, []string{"orders"}},
		{0, []string{"orders", "orders"}},
	} {
		c, srv := recoveryClient(t, holdFirstCreate(2), dbcloud.WithCreateSettle(tt.settle))
		svc, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
		if err != nil || svc.Name != "orders" {
			t.Fatalf("settle %v: Create = %+v, %v", tt.settle, svc, err)
		}
		names(t, c, srv.ProjectID) // a request still held lands after this list
		if got := names(t, c, srv.ProjectID); !slices.Equal(got, tt.want) {
			t.Errorf("settle %v: services = %v, want %v", tt.settle, got, tt.want)
		}
	}
}

// Two new services with the requested name: recovery cannot tell which is
// this create's, and says so with both ids.
func TestCreateRecoveryFindsSeveral(t *testing.T) {
	t.Parallel()
	twice := func(api http.Handler) http.Handler {
		var mu sync.Mutex
		done := false
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			first := r.Method == "POST" && !done
			done = done || first
			mu.Unlock()
			if !first {
				api.ServeHTTP(w, r)
				return
			}
			body, _ := io.ReadAll(r.Body)
			for range 2 {
				again := r.Clone(context.Background())
				again.Body = io.NopCloser(bytes.NewReader(body))
				api.ServeHTTP(httptest.NewRecorder(), again)
			}
			reset(w)
		})
	}
	c, srv := recoveryClient(t, twice)
	_, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	var maybe *dbcloud.MaybeCreatedError
	if !errors.As(err, &maybe) || !errors.Is(err, dbcloud.ErrMaybeCreated) || len(maybe.IDs) != 2 {
		t.Fatalf("err = %v, want a *MaybeCreatedError naming two services", err)
	}
	list, _ := c.Services.List(t.Context(), srv.ProjectID)
	for _, s := range list {
		if !slices.Contains(maybe.IDs, s.ServiceID) {
			t.Errorf("service %s is not named in %v", s.ServiceID, maybe.IDs)
		}
	}
}

// Recovery respects the deadline: when the settle period cannot end before
// it, recovery lists once and answers at once, instead of waiting until the
// deadline: with the service if it is listed, else with the ambiguous error.
func TestCreateRecoveryListsOnceWhenTheSettleEndsAfterTheDeadline(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		fault   dbcloudtest.Fault
		created bool
	}{
		{"the create never arrived", dbcloudtest.Fault{Method: "POST", Path: servicesPattern, Drop: true}, false},
		{"the create landed, its answer was lost", dbcloudtest.Fault{Method: "POST", Path: servicesPattern, Drop: true, AfterHandling: true}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := recoveryClient(t, nil, dbcloud.WithCreateSettle(time.Hour))
			srv.InjectFault(tt.fault)
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			start := time.Now()
			svc, err := c.Services.Create(ctx, srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v, want an answer at once, long before the 10 s deadline", d)
			}
			if got := srv.Count("GET", servicesPattern); got != 2 {
				t.Errorf("lists = %d, want 2 (before the create and once after)", got)
			}
			if tt.created {
				if err != nil || svc == nil || svc.Name != "orders" {
					t.Fatalf("Create = %v, %v; want the service found by the list", svc, err)
				}
				return
			}
			if !errors.Is(err, dbcloud.ErrMaybeCreated) || errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("err = %v, want ErrMaybeCreated, before the deadline", err)
			}
			if !strings.Contains(fmt.Sprint(err), "settle period ends after the deadline") {
				t.Errorf("err = %v, want it to say why recovery stopped", err)
			}
		})
	}
}

// Sending again is bounded by recovery's own CreateRecoverySends, not by
// WithRetryMax: a create that never arrives is sent that many times, and
// then reported as not created.
func TestCreateRecoveryResendsAreBounded(t *testing.T) {
	t.Parallel()
	c, srv := recoveryClient(t, nil, dbcloud.WithRetryMax(1))
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: servicesPattern, Drop: true, Times: 10})
	_, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err == nil || errors.Is(err, dbcloud.ErrMaybeCreated) {
		t.Errorf("err = %v, want a failure that is known not to have created anything", err)
	}
	if got := srv.Count("POST", servicesPattern); got != dbcloud.CreateRecoverySends {
		t.Errorf("sends = %d, want %d", got, dbcloud.CreateRecoverySends)
	}
	if got := names(t, c, srv.ProjectID); len(got) != 0 {
		t.Errorf("services = %v, want none", got)
	}
}

// The list before sending is tried again after transient failures, in up
// to CreateRecoveryListRounds rounds (each list with its WithRetryMax
// retries): nothing has been sent, so patience is safe. A list that still
// fails, or is refused, means nothing was sent. Without the option nothing
// is listed at all.
func TestCreateRecoveryListsOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	c, srv := recoveryClient(t, nil, dbcloud.WithRetryMax(1))
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: servicesPattern, Status: 500, Times: 3})
	if _, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"}); err != nil {
		t.Errorf("err = %v, want the list's third attempt, in its second round, to let the create through", err)
	}
	for _, f := range []dbcloudtest.Fault{{Status: 500, Times: 2 * dbcloud.CreateRecoveryListRounds}, {Status: 403, Times: 1}} {
		srv.ResetRequests()
		f.Method, f.Path = "GET", servicesPattern
		srv.InjectFault(f)
		_, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "again"})
		lists, sends := srv.Count("GET", servicesPattern), srv.Count("POST", servicesPattern)
		var apiErr *dbcloud.APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != f.Status || errors.Is(err, dbcloud.ErrMaybeCreated) || sends != 0 || lists != f.Times {
			t.Errorf("list answered %d: err = %v, %d lists, %d creates sent; want the %d, %d lists and nothing sent", f.Status, err, lists, sends, f.Status, f.Times)
		}
	}

	plain, srv := fixture.NewFake(t, nil)
	if _, err := plain.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"}); err != nil {
		t.Fatal(err)
	}
	if got := srv.Count("GET", ""); got != 0 {
		t.Errorf("a create without recovery made %d GETs, want none", got)
	}
}

// A recovered service whose new password cannot be set is returned with an
// error that says it exists (ErrMaybeCreated, naming it) and why, so a script
// that branches on the sentinel does not lose it. The 503 of the password
// is what recovery met: in Recovery and the message, not a cause of the
// create's error, whose cause is the create's own reset.
func TestCreateRecoveryPasswordFailureKeepsTheService(t *testing.T) {
	t.Parallel()
	c, srv := recoveryClient(t, nil)
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: servicesPattern, Drop: true, AfterHandling: true})
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: servicesPattern + "/*/updatePassword", Status: 503, Times: 10})
	svc, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	var maybe *dbcloud.MaybeCreatedError
	if svc == nil || svc.Name != "orders" || svc.InitialPassword != "" || !errors.As(err, &maybe) ||
		!slices.Equal(maybe.IDs, []string{svc.ServiceID}) || !errors.Is(maybe.Recovery, dbcloud.ErrServer) || errors.Is(err, dbcloud.ErrServer) {
		t.Fatalf("Create = %+v, %v; want the service, no password, and a *MaybeCreatedError naming it with the 503 in Recovery, not as a cause", svc, err)
	}
	if !strings.Contains(err.Error(), "503") {
		t.Errorf("err = %q, want the 503 in its text", err)
	}
	if !strings.Contains(err.Error(), svc.ServiceID+" was created") {
		t.Errorf("err = %q, want it to say the service was created", err)
	}
}

// The password recovery sets, and the key, appear in no log record (debug
// level, every step of recovery logged) and no error text, even when the
// server echoes the password back in an error.
func TestCreateRecoveryKeepsSecrets(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, srv := recoveryClient(t, nil, dbcloud.WithLogger(logger))
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: servicesPattern, Drop: true, AfterHandling: true})
	svc, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil || len(svc.InitialPassword) != 32 {
		t.Fatalf("Create = %+v, %v", svc, err)
	}
	secrets := []string{srv.APIKey, string(svc.InitialPassword)}

	// A second recovery whose password update is refused by an answer that
	// echoes the key. Its new password is known only to the SDK: the logs and
	// the error must hold no 32-character run of its alphabet.
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: servicesPattern, Drop: true, AfterHandling: true})
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: servicesPattern + "/*/updatePassword", Status: 400,
		Body: `{"code":"INVALID_REQUEST","message":"key ` + srv.APIKey + ` may not set passwords"}`})
	_, err2 := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "again"})
	if err2 == nil {
		t.Fatal("want the refused password update")
	}
	if !strings.Contains(logs.String(), "create recovered") {
		t.Fatalf("recovery was not logged:\n%s", logs.String())
	}
	for _, s := range secrets {
		for where, text := range map[string]string{"logs": logs.String(), "error": err2.Error(), "service": fmt.Sprintf("%+v %#v", svc, svc)} {
			if strings.Contains(text, s) {
				t.Errorf("%s contain the secret %q", where, s)
			}
		}
	}
	if run := regexp.MustCompile(`[A-Za-z0-9]{32}`); run.MatchString(logs.String()) || run.MatchString(err2.Error()) {
		t.Errorf("a 32-character run that may be a recovered password:\n%s\n%v", logs.String(), err2)
	}
}

// With a deadline, the list before a create is retried by the call pipeline
// for as long as the time allows, and no more: a 429 whose Retry-After does
// not fit is returned at once (nothing was sent), not slept into the
// deadline.
func TestCreateRecoveryListBeforeRespectsTheDeadline(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t, dbcloud.WithCreateRecovery(), dbcloud.WithRetryWait(time.Millisecond, 2*time.Second))
	mt.RegisterResponder("GET", servicesURL, httpmock.NewStringResponder(429, `{"code":"RATE_LIMITED","message":"slow down"}`).
		HeaderSet(http.Header{"Retry-After": {"1"}}))
	ctx, cancel := context.WithTimeout(t.Context(), 1100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.Services.Create(ctx, "p1", &dbcloud.CreateServiceRequest{Name: "db"})
	if !errors.Is(err, dbcloud.ErrRateLimited) || errors.Is(err, dbcloud.ErrMaybeCreated) {
		t.Errorf("err = %v, want the 429 of the list, nothing created", err)
	}
	// Sleeping the Retry-After would take at least its 1 s.
	if took := time.Since(start); took >= time.Second {
		t.Errorf("returned after %v, want at once", took)
	}
	if n := mt.GetCallCountInfo()["POST "+servicesURL]; n != 0 {
		t.Errorf("%d creates sent", n)
	}
}

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
	t.Parallel()
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
		{name: "500", responder: func(createOp) httpmock.Responder { return statusResponder(500) }, maybe: true, also: dbcloud.ErrServer, attempts: 1},
		{name: "501", responder: func(createOp) httpmock.Responder { return statusResponder(501) }, maybe: true, also: dbcloud.ErrServer, attempts: 1},
		{name: "502", responder: func(createOp) httpmock.Responder { return statusResponder(502) }, maybe: true, also: dbcloud.ErrServer, attempts: 1},
		{name: "503", responder: func(createOp) httpmock.Responder { return statusResponder(503) }, maybe: true, also: dbcloud.ErrServer, attempts: 1},
		{name: "504", responder: func(createOp) httpmock.Responder { return statusResponder(504) }, maybe: true, also: dbcloud.ErrServer, attempts: 1},
		{name: "reset after sending", responder: func(createOp) httpmock.Responder { return fail(errReset) }, maybe: true, also: syscall.ECONNRESET, attempts: 1},
		{name: "timeout after sending", responder: func(createOp) httpmock.Responder { return hang }, ctx: deadline(50 * time.Millisecond), maybe: true, also: context.DeadlineExceeded, attempts: 1},
		{name: "2xx body cut off", responder: func(op createOp) httpmock.Responder { return cutOff(202, op.ok) }, maybe: true, also: dbcloud.ErrInvalidResponse, attempts: 1},
		{name: "2xx malformed", responder: func(createOp) httpmock.Responder { return httpmock.NewStringResponder(202, `{"id":`) }, maybe: true, also: dbcloud.ErrInvalidResponse, attempts: 1},
		{name: "2xx empty", responder: func(createOp) httpmock.Responder { return httpmock.NewStringResponder(202, "") }, maybe: true, also: dbcloud.ErrInvalidResponse, attempts: 1},
		{name: "2xx without its id", responder: func(createOp) httpmock.Responder { return httpmock.NewStringResponder(202, `{"name":"x"}`) }, maybe: true, also: dbcloud.ErrInvalidResponse, attempts: 1},
		{name: "429 then reset after sending", responder: func(createOp) httpmock.Responder { return statusResponder(429).Then(fail(errReset)) }, maybe: true, not: dbcloud.ErrRateLimited, attempts: 2},
		{name: "429 then 503", responder: func(createOp) httpmock.Responder { return statusResponder(429).Then(statusResponder(503)) }, maybe: true, also: dbcloud.ErrServer, not: dbcloud.ErrRateLimited, attempts: 2},
		{name: "refused then reset after sending", responder: func(createOp) httpmock.Responder { return fail(errRefused).Then(fail(errReset)) }, maybe: true, also: syscall.ECONNRESET, attempts: 2},
		{name: "429 then timeout after sending", responder: func(createOp) httpmock.Responder { return statusResponder(429).Then(hang) }, ctx: deadline(200 * time.Millisecond), maybe: true, also: context.DeadlineExceeded, not: dbcloud.ErrRateLimited, attempts: 2},

		{name: "400", responder: func(createOp) httpmock.Responder { return statusResponder(400) }, also: dbcloud.ErrBadRequest, attempts: 1},
		{name: "404", responder: func(createOp) httpmock.Responder { return statusResponder(404) }, also: dbcloud.ErrNotFound, attempts: 1},
		{name: "409", responder: func(createOp) httpmock.Responder { return statusResponder(409) }, also: dbcloud.ErrConflict, attempts: 1},
		{name: "429 every time", responder: func(createOp) httpmock.Responder { return statusResponder(429) }, also: dbcloud.ErrRateLimited, attempts: 5},
		{name: "429 Retry-After over the max", responder: func(createOp) httpmock.Responder {
			return statusResponder(429).HeaderSet(http.Header{"Retry-After": {"3600"}})
		}, also: dbcloud.ErrRateLimited, attempts: 1},
		{name: "refused every time", responder: func(createOp) httpmock.Responder { return fail(errRefused) }, also: syscall.ECONNREFUSED, attempts: 5},
		{name: "DNS failure every time", responder: func(createOp) httpmock.Responder { return fail(dnsErr) }, attempts: 5},
		{name: "untrusted certificate", responder: func(createOp) httpmock.Responder { return fail(certErr) }, attempts: 1},
		{name: "429 then refused every time", responder: func(createOp) httpmock.Responder { return statusResponder(429).Then(fail(errRefused)) }, also: syscall.ECONNREFUSED, attempts: 5},
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
	t.Parallel()
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

// The chain of a *MaybeCreatedError holds the create's own cause only. A
// create whose attempt timed out after the server acted (the server made
// the service and then held the connection), and whose recovery lists then
// met connection refused (the listener closed): errors.As finds no dial
// error in the create's error, which would say it was never sent; the dial
// error is in Recovery and in the message; the server holds the service.
func TestMaybeCreatedChainHoldsTheCreatesCauseOnly(t *testing.T) {
	t.Parallel()
	srv := dbcloudtest.NewServer()
	t.Cleanup(srv.Close)
	var ts *httptest.Server
	ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			srv.Handler().ServeHTTP(w, r)
			return
		}
		srv.Handler().ServeHTTP(httptest.NewRecorder(), r) // the service is made...
		ts.Listener.Close()                                // ...no new connection is taken...
		<-r.Context().Done()                               // ...and this one is held
	}))
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	c := srv.Client(fixture.TinyRetries, dbcloud.WithBaseURL(ts.URL+"/v1"), dbcloud.WithCreateRecovery(),
		dbcloud.WithCreateSettle(10*time.Millisecond), dbcloud.WithAttemptTimeout(200*time.Millisecond), dbcloud.WithRetryMax(1))
	_, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	maybe, ok := errors.AsType[*dbcloud.MaybeCreatedError](err)
	if !ok || !errors.Is(err, dbcloud.ErrMaybeCreated) || !errors.Is(err, dbcloud.ErrAttemptTimeout) {
		t.Fatalf("err = %v, want a *MaybeCreatedError caused by the attempt timeout", err)
	}
	if opErr, ok := errors.AsType[*net.OpError](err); ok && opErr.Op == "dial" {
		t.Errorf("errors.As finds the dial error %v in a create that reached the server", opErr)
	}
	if opErr, ok := errors.AsType[*net.OpError](maybe.Recovery); !ok || opErr.Op != "dial" || !strings.Contains(err.Error(), "refused") {
		t.Errorf("Recovery = %v, message %q; want the list's dial error in both", maybe.Recovery, err)
	}
	if got := srv.Services(); len(got) != 1 || got[0].Name != "orders" {
		t.Errorf("the server holds %v, want the service the create made", got)
	}
}
