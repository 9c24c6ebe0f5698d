package dbcloud_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
)

// matrixKind is one kind of request of the retry rule.
type matrixKind struct {
	name, method, pattern string
	recovery              bool // the client has WithCreateRecovery
	call                  func(ctx context.Context, c *dbcloud.Client, project, id string) error
	// state reads what the server ended up with, for the cell: the
	// service's status, or how many services the create made.
	state func(c *dbcloud.Client, project, id string) string
}

func createMatrix(ctx context.Context, c *dbcloud.Client, p, _ string) error {
	_, err := c.Services.Create(ctx, p, &dbcloud.CreateServiceRequest{Name: "matrix"})
	return err
}

var matrixKinds = []matrixKind{
	{"GET", "GET", "/projects/*/services/*", false, func(ctx context.Context, c *dbcloud.Client, p, id string) error {
		_, err := c.Services.Get(ctx, p, id)
		return err
	}, nil},
	{"start (safe POST)", "POST", "/projects/*/services/*/start", false, func(ctx context.Context, c *dbcloud.Client, p, id string) error {
		_, err := c.Services.Start(ctx, p, id)
		return err
	}, statusOf},
	{"create", "POST", "/projects/*/services", false, createMatrix, made},
	{"create, recovery", "POST", "/projects/*/services", true, createMatrix, made},
	{"DELETE", "DELETE", "/projects/*/services/*", false, func(ctx context.Context, c *dbcloud.Client, p, id string) error {
		return c.Services.Delete(ctx, p, id)
	}, statusOf},
}

// statusOf is the service's status, or "gone".
func statusOf(c *dbcloud.Client, project, id string) string {
	svc, err := c.Services.Get(context.Background(), project, id)
	switch {
	case errors.Is(err, dbcloud.ErrNotFound):
		return "gone"
	case err != nil:
		return err.Error()
	}
	return string(svc.Status)
}

// made counts the services the create made.
func made(c *dbcloud.Client, project, _ string) string {
	list, err := c.Services.List(context.Background(), project)
	if err != nil {
		return err.Error()
	}
	n := 0
	for _, s := range list {
		if s.Name == "matrix" {
			n++
		}
	}
	return fmt.Sprintf("made %d", n)
}

// matrixRow is one fault and the cell each kind of request must give:
// attempts the server saw, what the caller got (ok, APIError, ResponseError,
// network or deadline, and "(may exist)" when it matches ErrMaybeCreated),
// and what the server ended up with.
type matrixRow struct {
	name     string
	fault    dbcloudtest.Fault
	refused  bool          // no server at all: the port is closed
	deadline time.Duration // the caller's context deadline; 0 = none, so WithRetryMax counts
	want     [5]string     // per kind, in the order of matrixKinds
	sentinel error         // what the errors must match, if any
	least    time.Duration // the shortest a call the transport retried may take (Retry-After honoured)
	most     time.Duration // the longest any call may take
}

// matrixRetryMax keeps the matrix short: 3 attempts for what is retried.
const matrixRetryMax = 2

// The faults of both matrices.
func header(k, v string) http.Header { return http.Header{k: {v}} }

func status(code int, body string, h http.Header) dbcloudtest.Fault {
	return dbcloudtest.Fault{Status: code, Body: body, Header: h}
}

const htmlBody = "<html><body><h1>502 Bad Gateway</h1></body></html>"

var (
	cutOffBody    = dbcloudtest.Fault{Truncate: true}
	malformedBody = dbcloudtest.Fault{Status: 200, Body: `{"service_id": "s1", `, AfterHandling: true}
	emptyBody     = dbcloudtest.Fault{Status: 200, AfterHandling: true}
)

// everyAttemptRows are faults that hit every attempt: what a request does
// when the fault will not go away.
//
// Create recovery sends a create found not created CreateRecoverySends
// times in all, and tries a failing list CreateRecoveryListRounds times:
// its own bounds, apart from WithRetryMax (matrixRetryMax), which bounds
// each request's retries.
func everyAttemptRows() []matrixRow {
	resent := fmt.Sprintf("%d×", dbcloud.CreateRecoverySends)
	listed := fmt.Sprintf("%d×", dbcloud.CreateRecoveryListRounds*(1+matrixRetryMax))
	fiveXX := [5]string{"3× APIError", "3× APIError · PAUSED", "1× APIError (may exist) · made 0", resent + " APIError · made 0", "3× APIError · PAUSED"}
	limited := [5]string{"3× APIError", "3× APIError · PAUSED", "3× APIError · made 0", "3× APIError · made 0", "3× APIError · PAUSED"}
	once := [5]string{"1× APIError", "1× APIError · PAUSED", "1× APIError · made 0", "1× APIError · made 0", "1× APIError · PAUSED"}
	lostBody := func(outcome string) [5]string {
		return [5]string{"3× " + outcome, "1× ok · READY", "1× " + outcome + " (may exist) · made 1", "1× ok · made 1", "1× ok · gone"}
	}
	return []matrixRow{
		{name: "500", fault: status(500, `{"code":"INTERNAL"}`, nil), want: fiveXX, sentinel: dbcloud.ErrServer},
		{name: "502 with an HTML body", fault: status(502, htmlBody, header("Content-Type", "text/html")), want: fiveXX, sentinel: dbcloud.ErrServer},
		{name: "503", fault: status(503, "", nil), want: fiveXX, sentinel: dbcloud.ErrServer},
		{name: "503 Retry-After: 1", fault: status(503, "", header("Retry-After", "1")), want: fiveXX, sentinel: dbcloud.ErrServer, least: 2 * time.Second},
		{name: "504", fault: status(504, "", nil), want: fiveXX, sentinel: dbcloud.ErrServer},
		{name: "429 Retry-After: 1", fault: status(429, "", header("Retry-After", "1")), want: limited, sentinel: dbcloud.ErrRateLimited, least: 2 * time.Second},
		{name: "429 Retry-After: HTTP date", fault: status(429, "", header("Retry-After", time.Now().Add(time.Second).UTC().Format(http.TimeFormat))), want: limited, sentinel: dbcloud.ErrRateLimited},
		{name: "429 Retry-After over the max", fault: status(429, "", header("Retry-After", "3600")), want: once, sentinel: dbcloud.ErrRateLimited},
		{name: "connection refused", refused: true, sentinel: syscall.ECONNREFUSED,
			want: [5]string{"3× network", "3× network · PAUSED", "3× network · made 0", listed + " network · made 0", "3× network · PAUSED"}},
		{name: "reset after the request was read", fault: dbcloudtest.Fault{Drop: true},
			want: [5]string{"3× network", "3× network · PAUSED", "1× network (may exist) · made 0", resent + " network · made 0", "3× network · PAUSED"}},
		{name: "reset after the server acted", fault: dbcloudtest.Fault{Drop: true, AfterHandling: true},
			want: [5]string{"3× network", "3× network · READY", "1× network (may exist) · made 1", "1× ok · made 1", "3× network · gone"}},
		{name: "2xx body cut off mid-way", fault: cutOffBody, want: lostBody("ResponseError")},
		{name: "malformed JSON in a 200", fault: malformedBody, want: lostBody("ResponseError"), sentinel: dbcloud.ErrInvalidResponse},
		{name: "empty 200 where a Service is expected", fault: emptyBody, want: lostBody("ResponseError"), sentinel: dbcloud.ErrInvalidResponse},
		// A safe request's attempt may use half of the time left: the
		// second has the rest. A create's one attempt has the whole deadline
		// unless recovery needs time after it.
		{name: "server slower than the deadline", fault: dbcloudtest.Fault{Delay: time.Minute}, deadline: time.Second, most: 3 * time.Second, sentinel: context.DeadlineExceeded,
			want: [5]string{"2× deadline", "2× deadline · PAUSED", "1× deadline (may exist) · made 0", "2× deadline (may exist) · made 0", "2× deadline · PAUSED"}},
	}
}

// onceRows are faults that hit the first attempt only and let the retry
// through, as a flaky network or API does: what the caller gets and what
// the server ends up with.
func onceRows() []matrixRow {
	retried := [5]string{"2× ok", "2× ok · READY", "1× APIError (may exist) · made 0", "2× ok · made 1", "2× ok · gone"}
	actedThenLost := func(outcome string) [5]string {
		return [5]string{"2× ok", "2× ok · READY", "1× " + outcome + " (may exist) · made 1", "1× ok · made 1", "2× ok · gone"}
	}
	lostBody := [5]string{"2× ok", "1× ok · READY", "1× ResponseError (may exist) · made 1", "1× ok · made 1", "1× ok · gone"}
	return []matrixRow{
		{name: "500", fault: status(500, `{"code":"INTERNAL"}`, nil), want: retried},
		{name: "503 Retry-After: 1", fault: status(503, "", header("Retry-After", "1")), want: retried, least: time.Second},
		{name: "504 after the server acted", fault: dbcloudtest.Fault{Status: 504, AfterHandling: true}, want: actedThenLost("APIError")},
		{name: "429 Retry-After: 1", fault: status(429, "", header("Retry-After", "1")), least: time.Second,
			want: [5]string{"2× ok", "2× ok · READY", "2× ok · made 1", "2× ok · made 1", "2× ok · gone"}},
		{name: "reset after the request was read", fault: dbcloudtest.Fault{Drop: true},
			want: [5]string{"2× ok", "2× ok · READY", "1× network (may exist) · made 0", "2× ok · made 1", "2× ok · gone"}},
		{name: "reset after the server acted", fault: dbcloudtest.Fault{Drop: true, AfterHandling: true}, want: actedThenLost("network")},
		{name: "2xx body cut off mid-way", fault: cutOffBody, want: lostBody},
		{name: "malformed JSON in a 200", fault: malformedBody, want: lostBody},
		{name: "latency spike of 300 ms", fault: dbcloudtest.Fault{Delay: 300 * time.Millisecond},
			want: [5]string{"1× ok", "1× ok · READY", "1× ok · made 1", "1× ok · made 1", "1× ok · gone"}},
		// A held connection costs one attempt, not the call: the attempt
		// timeout (half of the 3 s left) ends it and the retry is answered
		// at once. A create without recovery is never cut short (its answer
		// may still come); with recovery, the cut create is found missing
		// after the settle period and sent again.
		{name: "first attempt held, then a quick answer", fault: dbcloudtest.Fault{Delay: time.Minute}, deadline: 3 * time.Second, most: 5 * time.Second, sentinel: context.DeadlineExceeded,
			want: [5]string{"2× ok", "2× ok · READY", "1× deadline (may exist) · made 0", "2× ok · made 1", "2× ok · gone"}},
	}
}

// TestFaultMatrix sends each kind of request into each fault, and checks
// the attempts the server saw, what the caller got, what the server ended
// up with, how long it took, and that nothing is left running: the faults
// of everyAttemptRows hitting every attempt ("every attempt"), those of
// onceRows the first attempt only ("once"). go test -v -run Matrix prints
// the two matrices. Every cell of both runs at once (see runMatrices): the
// cells spend their time waiting (Retry-After, deadlines, recovery's
// pauses), about 4 s for the longest.
func TestFaultMatrix(t *testing.T) {
	t.Parallel()
	runMatrices(t, []matrix{{"every attempt", everyAttemptRows(), 100}, {"once", onceRows(), 1}})
}

// matrix is a set of rows, each fault hitting the first times attempts.
type matrix struct {
	name  string
	rows  []matrixRow
	times int
}

func runMatrices(t *testing.T, ms []matrix) {
	dbcloudtest.CheckGoroutines(t)
	var mu sync.Mutex
	tables := make([]map[[2]int]string, len(ms))
	for i := range tables {
		tables[i] = map[[2]int]string{}
	}
	// Every cell at once, from its own goroutine: t.Parallel would run only
	// GOMAXPROCS of them at a time, and most cells spend their time waiting.
	// Each cell sets up (a fake, a client, a created service) and then waits
	// for every other cell's setup before its timed call: the rows with a
	// deadline count attempts that the attempt timeout cuts, which depend on
	// how much of the deadline is left when each attempt starts, and with
	// the setups of a hundred cells under -race beside it, the list a
	// recovering create sends first took half of its 1 s deadline on a
	// loaded machine, and the cell saw one attempt instead of two.
	cells := 0
	for _, mx := range ms {
		cells += len(mx.rows) * len(matrixKinds)
	}
	var setups, wg sync.WaitGroup
	setups.Add(cells)
	for m, mx := range ms {
		for r, row := range mx.rows {
			for k, kind := range matrixKinds {
				wg.Go(func() {
					ready := sync.OnceFunc(func() { setups.Done(); setups.Wait() })
					defer ready() // a cell that fails in its setup must not hold the others
					t.Run(mx.name+"/"+row.name+"/"+kind.name, func(t *testing.T) {
						cell := runCell(t, row, mx.times, k, kind, ready)
						mu.Lock()
						tables[m][[2]int{r, k}] = cell
						mu.Unlock()
					})
				})
			}
		}
	}
	wg.Wait()
	for m, mx := range ms {
		logMatrix(t, mx, tables[m])
	}
}

// logMatrix logs m's table of cells.
func logMatrix(t *testing.T, m matrix, table map[[2]int]string) {
	rows := m.rows
	var b strings.Builder
	b.WriteString("\n" + m.name + ":\n\n| fault |")
	for _, kind := range matrixKinds {
		b.WriteString(" " + kind.name + " |")
	}
	b.WriteString("\n|---" + strings.Repeat("|---", len(matrixKinds)) + "|\n")
	for r, row := range rows {
		fmt.Fprintf(&b, "| %s |", row.name)
		for k := range matrixKinds {
			fmt.Fprintf(&b, " %s |", table[[2]int{r, k}])
		}
		b.WriteString("\n")
	}
	t.Log(b.String())
}

// runCell runs one request into one fault and returns the table cell, such
// as "2× ok · READY". It calls ready between its setup and its timed call.
func runCell(t *testing.T, row matrixRow, times, k int, kind matrixKind, ready func()) string {
	var dials atomic.Int32
	dialer := &net.Dialer{}
	transport := &http.Transport{
		// Without keep-alive net/http never replays a GET on its own after a
		// reset, so the server's count is the SDK's attempts exactly.
		DisableKeepAlives: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dials.Add(1)
			return dialer.DialContext(ctx, network, addr)
		},
	}
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	base := srv.URL
	if row.refused {
		base = closedPortURL(t)
	}
	opts := []dbcloud.Option{dbcloud.WithBaseURL(base),
		dbcloud.WithHTTPClient(&http.Client{Transport: transport}),
		dbcloud.WithRetryMax(matrixRetryMax), dbcloud.WithRetryWait(time.Millisecond, 3*time.Second)}
	if kind.recovery {
		opts = append(opts, dbcloud.WithCreateRecovery(), dbcloud.WithCreateSettle(30*time.Millisecond))
	}
	c, err := dbcloud.NewClient(srv.APIKey, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer transport.CloseIdleConnections()

	setup, err := dbcloud.NewClient(srv.APIKey, dbcloud.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	defer setup.CloseIdleConnections()
	svc := fixture.CreateReady(t, setup, srv.ProjectID, "existing")
	setStatus(t, srv, svc.ServiceID, dbcloud.StatusPaused) // so that start succeeds when handled
	srv.ResetRequests()
	fault := row.fault
	fault.Method, fault.Path, fault.Times = kind.method, kind.pattern, times
	srv.InjectFault(fault)
	ready()

	ctx, cancel := context.WithCancel(t.Context())
	if row.deadline > 0 {
		ctx, cancel = context.WithTimeout(t.Context(), row.deadline)
	}
	defer cancel()
	start := time.Now()
	err = kind.call(ctx, c, srv.ProjectID, svc.ServiceID)
	took := time.Since(start)

	attempts := srv.Count(kind.method, kind.pattern)
	if row.refused {
		attempts = int(dials.Load())
	}
	cell := fmt.Sprintf("%d× %s", attempts, outcome(err))
	if kind.state != nil {
		cell += " · " + kind.state(setup, srv.ProjectID, svc.ServiceID)
	}
	if cell != row.want[k] {
		t.Errorf("cell = %q, want %q (err: %v)", cell, row.want[k], err)
	}
	if row.sentinel != nil && err != nil && !errors.Is(err, row.sentinel) {
		t.Errorf("err = %v, want errors.Is %v", err, row.sentinel)
	}
	most := row.most
	if most == 0 {
		most = 8 * time.Second
	}
	// The least bound is for the transport's retries, which honour
	// Retry-After; recovery sends again after its own settle period.
	if took > most || (attempts > 1 && !kind.recovery && took < row.least) {
		t.Errorf("took %v, want between %v and %v", took, row.least, most)
	}
	return cell
}

// outcome classifies what a call returned.
func outcome(err error) string {
	var apiErr *dbcloud.APIError
	var respErr *dbcloud.ResponseError
	var got string
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &apiErr):
		got = "APIError"
	case errors.As(err, &respErr):
		got = "ResponseError"
	case errors.Is(err, context.DeadlineExceeded):
		got = "deadline"
	default:
		got = "network"
	}
	if errors.Is(err, dbcloud.ErrMaybeCreated) {
		got += " (may exist)"
	}
	return got
}

// closedPortURL returns a base URL on a loopback port nobody listens on:
// port 1 (tcpmux), which no test binds and an unprivileged process cannot.
// A port freed by closing a listener is no good: another listener of the
// run (a fake, a database endpoint) could take it before the dial, and did,
// in 2 runs of 10.
func closedPortURL(t *testing.T) string {
	const addr = "127.0.0.1:1"
	if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		_ = c.Close()
		t.Fatalf("something listens on %s: the connection-refused cells need a port where nothing does", addr)
	}
	return "http://" + addr + "/v1"
}
