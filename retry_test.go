package dbcloud_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"testing/iotest"
	"testing/synctest"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

var (
	// errRefused happens while dialling: the request was never sent.
	errRefused = &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}
	// errReset happens after the request was written: the server may have acted.
	errReset = &net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}
)

const (
	servicesURL = mockBase + "/projects/p1/services"
	serviceURL  = servicesURL + "/s1"
	startURL    = serviceURL + "/start"
	forkURL     = serviceURL + "/forkService"
	replicasURL = serviceURL + "/replicaSets"
)

// The retry rule is TestDecide's (internal/pipeline), and the fault
// matrix sends Get, Start, Create (with and without recovery) and Delete
// into every fault end to end. This checks the rest of the wiring, end to
// end: the answers the rule leaves to the caller reach it with their
// sentinel, a resolver's failure counts as not sent, and Fork and
// ReplicaSets.Create are sent as creates.
func TestRetryWiring(t *testing.T) {
	t.Parallel()
	okService := httpmock.NewStringResponder(http.StatusAccepted, serviceJSON)
	okReplicaSet := httpmock.NewStringResponder(http.StatusAccepted, `{"id":"rs-1","name":"r","status":"creating","nodes":1,"cpu_millis":1,"memory_gbs":1}`)
	create := func(ctx context.Context, c *dbcloud.Client) error {
		_, err := c.Services.Create(ctx, "p1", &dbcloud.CreateServiceRequest{Name: "db"})
		return err
	}
	fork := func(ctx context.Context, c *dbcloud.Client) error {
		_, err := c.Services.Fork(ctx, "p1", "s1", &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow})
		return err
	}
	createReplicaSet := func(ctx context.Context, c *dbcloud.Client) error {
		_, err := c.ReplicaSets.Create(ctx, "p1", "s1", &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 1, MemoryGBs: 1})
		return err
	}
	start := func(ctx context.Context, c *dbcloud.Client) error {
		_, err := c.Services.Start(ctx, "p1", "s1")
		return err
	}
	get := func(ctx context.Context, c *dbcloud.Client) error {
		_, err := c.Services.Get(ctx, "p1", "s1")
		return err
	}

	tests := []struct {
		name     string
		method   string
		url      string
		call     func(context.Context, *dbcloud.Client) error
		first    httpmock.Responder // then the success responder
		success  httpmock.Responder
		attempts int
		wantErr  error // nil: the retry succeeded
	}{
		{"get 501 is not retried", "GET", serviceURL, get, statusResponder(501), okService, 1, dbcloud.ErrServer},
		{"get 404 is not retried", "GET", serviceURL, get, statusResponder(404), okService, 1, dbcloud.ErrNotFound},
		{"start 409 is not retried", "POST", startURL, start, statusResponder(409), okService, 1, dbcloud.ErrConflict},
		{"create dns failure then 202", "POST", servicesURL, create, httpmock.NewErrorResponder(&net.OpError{Op: "dial", Err: &net.DNSError{Err: "no such host", Name: "api.test"}}), okService, 2, nil},
		{"fork 500 is not retried", "POST", forkURL, fork, statusResponder(500), okService, 1, dbcloud.ErrServer},
		{"fork reset is not retried", "POST", forkURL, fork, httpmock.NewErrorResponder(errReset), okService, 1, syscall.ECONNRESET},
		{"fork 429 then 202", "POST", forkURL, fork, statusResponder(429), okService, 2, nil},
		{"replica set create 503 is not retried", "POST", replicasURL, createReplicaSet, statusResponder(503), okReplicaSet, 1, dbcloud.ErrServer},
		{"replica set create refused then 202", "POST", replicasURL, createReplicaSet, httpmock.NewErrorResponder(errRefused), okReplicaSet, 2, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, mt := mockClient(t)
			mt.RegisterResponder(tt.method, tt.url, tt.first.Then(tt.success))
			err := tt.call(t.Context(), c)
			if got := mt.GetTotalCallCount(); got != tt.attempts {
				t.Errorf("attempts = %d, want %d", got, tt.attempts)
			}
			if tt.wantErr == nil && err != nil {
				t.Fatalf("err = %v, want success after a retry", err)
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want errors.Is %v", err, tt.wantErr)
			}
		})
	}
}

func TestRetryExhaustedReturnsLastAPIError(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t, dbcloud.WithRetryMax(2))
	n := 0
	mt.RegisterResponder("GET", serviceURL, func(*http.Request) (*http.Response, error) {
		n++
		r := httpmock.NewStringResponse(503, `{"code":"UNAVAILABLE","message":"try `+string(rune('0'+n))+`"}`)
		r.Header.Set("X-Request-Id", "req-"+string(rune('0'+n)))
		return r, nil
	})
	_, err := c.Services.Get(t.Context(), "p1", "s1")
	var apiErr *dbcloud.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v, want *APIError", err)
	}
	want := &dbcloud.APIError{StatusCode: 503, Code: "UNAVAILABLE", Message: "try 3", RequestID: "req-3", Method: "GET", Path: "/projects/p1/services/s1"}
	if diff := cmp.Diff(want, apiErr); diff != "" {
		t.Errorf("APIError (-want +got):\n%s", diff)
	}
	if n != 3 {
		t.Errorf("attempts = %d, want 3 (1 + WithRetryMax(2))", n)
	}
}

func TestRetryExhaustedNetworkError(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t, dbcloud.WithRetryMax(3))
	mt.RegisterResponder("GET", serviceURL, httpmock.NewErrorResponder(errReset))
	_, err := c.Services.Get(t.Context(), "p1", "s1")
	if !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("err = %v, want it to wrap ECONNRESET", err)
	}
	if !strings.Contains(err.Error(), "after 4 attempts") || !strings.Contains(err.Error(), "GET /projects/p1/services/s1") {
		t.Errorf("err = %q, want the method, path and attempt count", err)
	}
	if got := mt.GetTotalCallCount(); got != 4 {
		t.Errorf("attempts = %d, want 4", got)
	}
}

func TestWithRetryMaxZero(t *testing.T) {
	t.Parallel()
	for _, r := range []httpmock.Responder{
		httpmock.NewStringResponder(503, ""),
		httpmock.NewStringResponder(429, ""),
		httpmock.NewErrorResponder(errReset),
	} {
		c, mt := mockClient(t, dbcloud.WithRetryMax(0))
		mt.RegisterResponder("GET", serviceURL, r)
		if _, err := c.Services.Get(t.Context(), "p1", "s1"); err == nil {
			t.Fatal("want an error")
		}
		if got := mt.GetTotalCallCount(); got != 1 {
			t.Errorf("attempts = %d, want 1", got)
		}
	}
}

// Retry-After is honoured: with a minimum wait of 10 s, "Retry-After: 0"
// retries at once, and "Retry-After: 1" waits a second although the maximum
// allows more jitter. In a synctest bubble, whose clock moves only while
// every goroutine waits: the second passes at once, and what the call took
// is its waits alone.
func TestRetryAfterSecondsHonoured(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		header       string
		waitMin      time.Duration
		least, most  time.Duration
		retryStatus  int
		successCount int
	}{
		{"0", 10 * time.Second, 0, 0, 429, 1},
		{"0", 10 * time.Second, 0, 0, 503, 1},
		{"1", time.Millisecond, time.Second, time.Second, 429, 1},
	} {
		t.Run(tt.header+"/"+http.StatusText(tt.retryStatus), func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				c, mt := mockClient(t, dbcloud.WithRetryWait(tt.waitMin, 20*time.Second))
				limited := httpmock.NewStringResponder(tt.retryStatus, "").HeaderSet(http.Header{"Retry-After": {tt.header}})
				mt.RegisterResponder("GET", serviceURL, limited.Then(httpmock.NewStringResponder(200, serviceJSON)))
				start := time.Now()
				if _, err := c.Services.Get(t.Context(), "p1", "s1"); err != nil {
					t.Fatal(err)
				}
				if d := time.Since(start); d < tt.least || d > tt.most {
					t.Errorf("took %v, want between %v and %v", d, tt.least, tt.most)
				}
				if got := mt.GetTotalCallCount(); got != 2 {
					t.Errorf("attempts = %d, want 2", got)
				}
			})
		})
	}
}

// A Retry-After beyond the maximum wait is not slept: the caller gets the
// error at once, with RetryAfter set, for a GET and for a create alike.
func TestRetryAfterOverMaxReturnsAtOnce(t *testing.T) {
	t.Parallel()
	for _, h := range []string{"3600", time.Now().Add(2 * time.Hour).UTC().Format(http.TimeFormat)} {
		c, mt := mockClient(t, dbcloud.WithRetryWait(time.Millisecond, time.Second))
		mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(429, `{"code":"RATE_LIMITED"}`).HeaderSet(http.Header{"Retry-After": {h}}))
		mt.RegisterResponder("POST", servicesURL, httpmock.NewStringResponder(503, "").HeaderSet(http.Header{"Retry-After": {h}}))
		start := time.Now()
		_, err := c.Services.Get(t.Context(), "p1", "s1")
		var apiErr *dbcloud.APIError
		if !errors.As(err, &apiErr) || !errors.Is(err, dbcloud.ErrRateLimited) {
			t.Fatalf("err = %v, want a 429 *APIError", err)
		}
		if apiErr.RetryAfter < time.Hour-time.Minute {
			t.Errorf("RetryAfter = %v, want about an hour or more", apiErr.RetryAfter)
		}
		if _, err := c.Services.Create(t.Context(), "p1", &dbcloud.CreateServiceRequest{Name: "x"}); !errors.Is(err, dbcloud.ErrServer) {
			t.Errorf("create err = %v, want the 503", err)
		}
		// Sleeping the Retry-After would take an hour: 10 s tells the two
		// apart on the busiest machine.
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("took %v, want an immediate return", d)
		}
		if got := mt.GetTotalCallCount(); got != 2 {
			t.Errorf("attempts = %d, want 1 per call", got)
		}
	}
}

// cancelOnRetry is a slog handler that cancels a context as soon as the SDK
// logs that it will retry: the cancellation then lands in the backoff.
type cancelOnRetry struct {
	slog.Handler
	cancel context.CancelFunc
}

func (h cancelOnRetry) Enabled(context.Context, slog.Level) bool { return true }

func (h cancelOnRetry) Handle(ctx context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "retry" && a.Value.Bool() {
			h.cancel()
		}
		return true
	})
	return nil
}

func TestContextCancelledDuringBackoff(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	logger := slog.New(cancelOnRetry{slog.DiscardHandler, cancel})
	c, mt := mockClient(t, dbcloud.WithRetryWait(time.Hour, time.Hour), dbcloud.WithLogger(logger))
	mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(503, `{"code":"UNAVAILABLE","message":"busy"}`))

	start := time.Now()
	_, err := c.Services.Get(ctx, "p1", "s1")
	if d := time.Since(start); d > 10*time.Second { // the backoff is an hour
		t.Fatalf("took %v: the backoff was slept", d)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	var apiErr *dbcloud.APIError
	if !errors.As(err, &apiErr) || apiErr.Message != "busy" {
		t.Errorf("err = %v, want the 503 that caused the retry kept", err)
	}
	if got := mt.GetTotalCallCount(); got != 1 {
		t.Errorf("attempts = %d, want 1", got)
	}
}

func TestCancelledContextSendsNothing(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := c.Services.Get(ctx, "p1", "s1"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if got := mt.GetTotalCallCount(); got != 0 {
		t.Errorf("attempts = %d, want 0", got)
	}
}

// Every attempt carries the whole body, not what a previous attempt left.
func TestRetriedRequestResendsWholeBody(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t)
	var bodies []string
	mt.RegisterResponder("POST", serviceURL+"/resize", func(req *http.Request) (*http.Response, error) {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return nil, err
		}
		bodies = append(bodies, string(b))
		if len(bodies) < 3 {
			return httpmock.NewStringResponse(503, ""), nil
		}
		return httpmock.NewStringResponse(202, serviceJSON), nil
	})
	if _, err := c.Services.Resize(t.Context(), "p1", "s1", &dbcloud.ResizeRequest{CPUMillis: 2000, MemoryGBs: 8}); err != nil {
		t.Fatal(err)
	}
	want := `{"cpu_millis":"2000","memory_gbs":"8"}`
	if diff := cmp.Diff([]string{want, want, want}, bodies); diff != "" {
		t.Errorf("bodies (-want +got):\n%s", diff)
	}
}

// cutOff answers a 2xx whose body breaks off half way, as a dropped
// connection does.
func cutOff(status int, body string) httpmock.Responder {
	return func(*http.Request) (*http.Response, error) {
		half := io.MultiReader(strings.NewReader(body[:len(body)/2]), iotest.ErrReader(io.ErrUnexpectedEOF))
		return &http.Response{StatusCode: status, ContentLength: int64(len(body)), Header: http.Header{}, Body: io.NopCloser(half)}, nil
	}
}

// A GET whose body is cut off is read again. A POST's 2xx proves it took
// effect, so it is never repeated: a start whose answer was lost reads the
// service instead and succeeds; a create says it may have happened.
func TestBodyCutOffIsRetriedOnlyForReads(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t)
	mt.RegisterResponder("GET", serviceURL, cutOff(200, serviceJSON).Then(httpmock.NewStringResponder(200, serviceJSON)))
	mt.RegisterResponder("POST", servicesURL, cutOff(202, serviceJSON).Then(httpmock.NewStringResponder(202, serviceJSON)))
	mt.RegisterResponder("POST", startURL, cutOff(202, serviceJSON).Then(httpmock.NewStringResponder(202, serviceJSON)))

	if _, err := c.Services.Get(t.Context(), "p1", "s1"); err != nil {
		t.Errorf("get: %v, want the cut-off body retried", err)
	}
	_, err := c.Services.Create(t.Context(), "p1", &dbcloud.CreateServiceRequest{Name: "db"})
	var respErr *dbcloud.ResponseError
	if !errors.As(err, &respErr) || !errors.Is(err, io.ErrUnexpectedEOF) || !errors.Is(err, dbcloud.ErrMaybeCreated) ||
		!strings.Contains(err.Error(), "took effect") {
		t.Errorf("create: err = %v, want a *ResponseError that says it took effect, matching ErrMaybeCreated", err)
	}
	svc, err := c.Services.Start(t.Context(), "p1", "s1")
	if err != nil || svc.ServiceID != "s1" {
		t.Errorf("start: %+v, %v; want the service read after the lost answer", svc, err)
	}
	info := mt.GetCallCountInfo()
	if info["GET "+serviceURL] != 3 || info["POST "+servicesURL] != 1 || info["POST "+startURL] != 1 {
		t.Errorf("attempts = %v, want 2 GETs for Get and 1 after the start, 1 create and 1 start", info)
	}
}

// failingServer answers its first failures requests 503, the rest with a
// service, and counts them.
func failingServer(t *testing.T, failures int64) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) <= failures {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(serviceJSON))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// Without WithRetryMax, a deadline bounds retries by time, not by count: a
// 3 s deadline rides out five failing attempts although DefaultRetryMax
// allows four retries; without a deadline the default count holds.
func TestDeadlineRidesOutFiveFailingAttempts(t *testing.T) {
	t.Parallel()
	srv, n := failingServer(t, 5)
	c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(srv.URL+"/v1"),
		dbcloud.WithRetryWait(10*time.Millisecond, 200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	if _, err := c.Services.Get(ctx, "p1", "s1"); err != nil {
		t.Fatalf("Get with a 3 s deadline: %v", err)
	}
	if got := n.Load(); got != 6 {
		t.Errorf("attempts = %d, want 6", got)
	}

	n.Store(0)
	_, err = c.Services.Get(t.Context(), "p1", "s1")
	if !errors.Is(err, dbcloud.ErrServer) || n.Load() != 1+dbcloud.DefaultRetryMax {
		t.Errorf("without a deadline: %v after %d attempts, want a 503 after %d (DefaultRetryMax)", err, n.Load(), 1+dbcloud.DefaultRetryMax)
	}
}

// An explicit WithRetryMax is a cap with a deadline too: against a server
// that fails ten times and then answers, a Get under a 15 s deadline sends
// 3 requests and returns the 503; a create refused with 429 is sent 3
// times, not a 4th.
func TestExplicitRetryMaxCapsUnderADeadline(t *testing.T) {
	t.Parallel()
	srv, n := failingServer(t, 10)
	c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(srv.URL+"/v1"),
		dbcloud.WithRetryMax(2), dbcloud.WithRetryWait(time.Millisecond, 10*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(t.Context(), 15*time.Second)
	defer cancel()
	if _, err := c.Services.Get(ctx, "p1", "s1"); !errors.Is(err, dbcloud.ErrServer) || n.Load() != 3 {
		t.Errorf("Get: %v after %d requests, want the 503 after 3", err, n.Load())
	}

	mc, mt := mockClient(t, dbcloud.WithRetryMax(2))
	mt.RegisterResponder("POST", servicesURL, httpmock.NewStringResponder(429, `{"code":"RATE_LIMITED"}`).HeaderSet(http.Header{"Retry-After": {"0"}}))
	_, err = mc.Services.Create(ctx, "p1", &dbcloud.CreateServiceRequest{Name: "db"})
	if sent := mt.GetCallCountInfo()["POST "+servicesURL]; !errors.Is(err, dbcloud.ErrRateLimited) || sent != 3 {
		t.Errorf("Create: %v after %d sends, want the 429 after 3", err, sent)
	}
}

// A client-wide retry budget keeps an outage from becoming a retry storm:
// 64 goroutines against a server that answers every request 503 send at
// most the budget's retries, however many calls they make. The calls have
// no deadline, so each sends its first attempt and, without a budget, its
// DefaultRetryMax retries whatever the machine's load: the counts are
// exact, not a rate over a second of wall-clock time (under load, calls
// with a short deadline ended before sending anything, and the retries
// counted as requests minus calls came out negative).
func TestRetryBudgetCapsRetriesInAnOutage(t *testing.T) {
	t.Parallel()
	// 128 calls: without a budget, 512 retries, five times the budget's
	// 100.
	const goroutines, callsEach = 64, 2
	const calls = goroutines * callsEach
	run := func(budget int) (retries int64) {
		srv, n := failingServer(t, 1<<62)
		c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(srv.URL+"/v1"),
			dbcloud.WithRetryBudget(budget), dbcloud.WithRetryWait(time.Millisecond, 2*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseIdleConnections()
		var wg sync.WaitGroup
		for range goroutines {
			wg.Go(func() {
				for range callsEach {
					if _, err := c.Services.Get(t.Context(), "p1", "s1"); !errors.Is(err, dbcloud.ErrServer) {
						t.Errorf("err = %v, want the outage's 503", err)
					}
				}
			})
		}
		wg.Wait()
		return n.Load() - calls
	}
	retries := run(dbcloud.DefaultRetryBudget)
	t.Logf("budget %d: %d calls, %d retries", dbcloud.DefaultRetryBudget, calls, retries)
	if retries < 0 || retries > dbcloud.DefaultRetryBudget {
		t.Errorf("retries = %d, want at most the budget, %d", retries, dbcloud.DefaultRetryBudget)
	}
	retries = run(0)
	t.Logf("no budget: %d calls, %d retries", calls, retries)
	if want := int64(calls * dbcloud.DefaultRetryMax); retries != want {
		t.Errorf("without a budget %d retries, want %d: every call's DefaultRetryMax", retries, want)
	}
}

// Successes earn the budget back: after an outage has spent it, calls that
// succeed at once let retries happen again.
func TestRetryBudgetRefilledBySuccesses(t *testing.T) {
	t.Parallel()
	var fail atomic.Bool
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if fail.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte(serviceJSON))
	}))
	defer srv.Close()
	c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(srv.URL+"/v1"),
		dbcloud.WithRetryBudget(2), dbcloud.WithRetryMax(4), dbcloud.WithRetryWait(time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	fail.Store(true)
	_, _ = c.Services.Get(t.Context(), "p1", "s1")
	if got := n.Load(); got != 3 {
		t.Fatalf("attempts = %d, want 3: the budget of 2 retries", got)
	}
	_, _ = c.Services.Get(t.Context(), "p1", "s1")
	if got := n.Load(); got != 4 {
		t.Fatalf("attempts = %d, want 4: the budget is spent", got)
	}
	fail.Store(false)
	for range 5 { // 5 first-attempt successes earn one retry
		if _, err := c.Services.Get(t.Context(), "p1", "s1"); err != nil {
			t.Fatal(err)
		}
	}
	fail.Store(true)
	n.Store(0)
	_, _ = c.Services.Get(t.Context(), "p1", "s1")
	if got := n.Load(); got != 2 {
		t.Errorf("attempts = %d, want 2: successes earned one retry back", got)
	}
}

// With a deadline, a Retry-After is slept when the attempt after it still
// has time (250 ms), even if the wait is more than half of what is left;
// when it would leave less, the 429 is returned at once instead of at the
// deadline.
func TestDeadlineHonoursRetryAfterWithRoom(t *testing.T) {
	t.Parallel()
	synctest.Test(t, deadlineHonoursRetryAfterWithRoom)
}

// deadlineHonoursRetryAfterWithRoom runs in a synctest bubble: its clock
// moves only when every goroutine of the bubble waits, so the Retry-After
// slept costs no time and the one not slept is seen to take none.
func deadlineHonoursRetryAfterWithRoom(t *testing.T) {
	var n atomic.Int64
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(serviceJSON))
	})
	c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(mockBase), dbcloud.WithRetryWait(10*time.Millisecond, 2*time.Second),
		dbcloud.WithHTTPClient(&http.Client{Transport: handlerTransport{h}}))
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(t.Context(), 1600*time.Millisecond)
	defer cancel()
	if _, err := c.Services.Get(ctx, "p1", "s1"); err != nil || n.Load() != 2 {
		t.Fatalf("1.6 s deadline, Retry-After 1 s: %v after %d attempts, want success after 2", err, n.Load())
	}

	n.Store(0)
	ctx, cancel = context.WithTimeout(t.Context(), 1100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = c.Services.Get(ctx, "p1", "s1")
	if !errors.Is(err, dbcloud.ErrRateLimited) || n.Load() != 1 || time.Since(start) >= time.Second {
		t.Errorf("1.1 s deadline, Retry-After 1 s: %v after %d attempts and %v, want the 429 at once", err, n.Load(), time.Since(start))
	}
}
