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
	"github.com/dbcloud/dbcloud-go/internal/fakeapi"
	"github.com/dbcloud/dbcloud-go/internal/leakcheck"
)

// matrixKind is one kind of request of the retry rule.
type matrixKind struct {
	name, method, pattern string
	call                  func(ctx context.Context, c *dbcloud.Client, project, id string) error
}

var matrixKinds = []matrixKind{
	{"GET", "GET", "/projects/*/services/*", func(ctx context.Context, c *dbcloud.Client, p, id string) error {
		_, err := c.Services.Get(ctx, p, id)
		return err
	}},
	{"start", "POST", "/projects/*/services/*/start", func(ctx context.Context, c *dbcloud.Client, p, id string) error {
		_, err := c.Services.Start(ctx, p, id)
		return err
	}},
	{"create", "POST", "/projects/*/services", func(ctx context.Context, c *dbcloud.Client, p, _ string) error {
		_, err := c.Services.Create(ctx, p, &dbcloud.CreateServiceRequest{Name: "matrix"})
		return err
	}},
	{"DELETE", "DELETE", "/projects/*/services/*", func(ctx context.Context, c *dbcloud.Client, p, id string) error {
		return c.Services.Delete(ctx, p, id)
	}},
}

// matrixRow is one fault and what each kind of request must make of it.
type matrixRow struct {
	name     string
	fault    fakeapi.Fault // injected for every matching request
	refused  bool          // no server at all: the port is closed
	deadline time.Duration // the caller's context deadline; 0 = 10 s
	attempts [4]int        // per kind, in the order of matrixKinds
	outcome  [4]string     // ok, APIError, ResponseError, network or deadline
	sentinel error         // what the errors must match, if any
	least    time.Duration // the shortest a retried call may take (Retry-After honoured)
	most     time.Duration // the longest any call may take
}

// matrixRetryMax keeps the matrix short: 3 attempts for what is retried.
const matrixRetryMax = 2

var serviceBody = `{"service_id":"s1","project_id":"p","name":"n","region_code":"r","service_type":"POSTGRES",` +
	`"status":"READY","created":"2026-01-01T00:00:00Z","resources":[]}`

func matrixRows() []matrixRow {
	header := func(k, v string) http.Header { return http.Header{k: {v}} }
	status := func(code int, body string, h http.Header) fakeapi.Fault {
		return fakeapi.Fault{Status: code, Body: body, Header: h}
	}
	const html = "<html><body><h1>502 Bad Gateway</h1></body></html>"
	retried := [4]int{3, 3, 1, 3}
	all := [4]int{3, 3, 3, 3}
	once := [4]int{1, 1, 1, 1}
	api := [4]string{"APIError", "APIError", "APIError", "APIError"}
	return []matrixRow{
		{name: "500", fault: status(500, `{"code":"INTERNAL"}`, nil), attempts: retried, outcome: api, sentinel: dbcloud.ErrServer},
		{name: "502 with an HTML body", fault: status(502, html, header("Content-Type", "text/html")), attempts: retried, outcome: api, sentinel: dbcloud.ErrServer},
		{name: "503", fault: status(503, "", nil), attempts: retried, outcome: api, sentinel: dbcloud.ErrServer},
		{name: "503 Retry-After: 1", fault: status(503, "", header("Retry-After", "1")), attempts: retried, outcome: api, sentinel: dbcloud.ErrServer, least: 2 * time.Second},
		{name: "504", fault: status(504, "", nil), attempts: retried, outcome: api, sentinel: dbcloud.ErrServer},
		{name: "429 Retry-After: 1", fault: status(429, "", header("Retry-After", "1")), attempts: all, outcome: api, sentinel: dbcloud.ErrRateLimited, least: 2 * time.Second},
		{name: "429 Retry-After: HTTP date", fault: status(429, "", header("Retry-After", time.Now().Add(time.Second).UTC().Format(http.TimeFormat))), attempts: all, outcome: api, sentinel: dbcloud.ErrRateLimited},
		{name: "429 Retry-After over the max", fault: status(429, "", header("Retry-After", "3600")), attempts: once, outcome: api, sentinel: dbcloud.ErrRateLimited},
		{name: "connection refused", refused: true, attempts: all, outcome: [4]string{"network", "network", "network", "network"}, sentinel: syscall.ECONNREFUSED},
		{name: "reset after the request was read", fault: fakeapi.Fault{Drop: true}, attempts: retried, outcome: [4]string{"network", "network", "network", "network"}},
		{name: "reset after the server acted", fault: fakeapi.Fault{Drop: true, AfterHandling: true}, attempts: retried, outcome: [4]string{"network", "network", "network", "network"}},
		{name: "2xx body cut off mid-way", fault: fakeapi.Fault{Status: 200, Body: serviceBody, Truncate: true}, attempts: [4]int{3, 1, 1, 1}, outcome: [4]string{"ResponseError", "ResponseError", "ResponseError", "ok"}},
		{name: "malformed JSON in a 200", fault: status(200, `{"service_id": "s1", `, nil), attempts: once, outcome: [4]string{"ResponseError", "ResponseError", "ResponseError", "ok"}, sentinel: dbcloud.ErrInvalidResponse},
		{name: "empty 200 where a Service is expected", fault: status(200, "", nil), attempts: once, outcome: [4]string{"ResponseError", "ResponseError", "ResponseError", "ok"}, sentinel: dbcloud.ErrInvalidResponse},
		{name: "server slower than the deadline", fault: fakeapi.Fault{Delay: time.Minute}, deadline: 200 * time.Millisecond, attempts: once, outcome: [4]string{"deadline", "deadline", "deadline", "deadline"}, sentinel: context.DeadlineExceeded, most: 2 * time.Second},
	}
}

// TestFaultMatrix sends each kind of request into each fault and checks the
// attempts the server saw, what the caller got, how long it took, and that
// nothing is left running. go test -v -run Matrix prints the matrix.
func TestFaultMatrix(t *testing.T) {
	leakcheck.Check(t)
	rows := matrixRows()
	var mu sync.Mutex
	table := map[[2]int]string{}
	// Every cell at once, from its own goroutine: t.Parallel would run only
	// GOMAXPROCS of them at a time, and most cells spend their time waiting.
	var wg sync.WaitGroup
	for r, row := range rows {
		for k, kind := range matrixKinds {
			wg.Go(func() {
				t.Run(row.name+"/"+kind.name, func(t *testing.T) {
					cell := runCell(t, row, k, kind)
					mu.Lock()
					table[[2]int{r, k}] = cell
					mu.Unlock()
				})
			})
		}
	}
	wg.Wait()
	var b strings.Builder
	b.WriteString("\n| fault | GET | start (safe POST) | create | DELETE |\n|---|---|---|---|---|\n")
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
// as "3× APIError".
func runCell(t *testing.T, row matrixRow, k int, kind matrixKind) string {
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
	srv, err := fakeapi.Start("", fakeapi.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	base := srv.URL
	if row.refused {
		base = closedPortURL(t)
	}
	c, err := dbcloud.NewClient(srv.APIKey, dbcloud.WithBaseURL(base),
		dbcloud.WithHTTPClient(&http.Client{Transport: transport}),
		dbcloud.WithRetryMax(matrixRetryMax), dbcloud.WithRetryWait(time.Millisecond, 3*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer transport.CloseIdleConnections()

	setup, err := dbcloud.NewClient(srv.APIKey, dbcloud.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	svc := createReady(t, setup, srv.ProjectID, "existing")
	setup.CloseIdleConnections()
	_ = srv.API.SetStatus(srv.ProjectID, svc.ServiceID, "PAUSED") // so that start succeeds when handled
	srv.API.ResetCounts()
	fault := row.fault
	fault.Method, fault.Path, fault.Times = kind.method, kind.pattern, 100
	srv.API.InjectFault(fault)

	deadline := row.deadline
	if deadline == 0 {
		deadline = 10 * time.Second
	}
	ctx, cancel := context.WithTimeout(t.Context(), deadline)
	defer cancel()
	start := time.Now()
	err = kind.call(ctx, c, srv.ProjectID, svc.ServiceID)
	took := time.Since(start)

	attempts := srv.API.Count(kind.method, kind.pattern)
	if row.refused {
		attempts = int(dials.Load())
	}
	if attempts != row.attempts[k] {
		t.Errorf("attempts = %d, want %d (err: %v)", attempts, row.attempts[k], err)
	}
	got := outcome(err)
	if got != row.outcome[k] {
		t.Errorf("outcome = %s (%v), want %s", got, err, row.outcome[k])
	}
	if row.sentinel != nil && err != nil && !errors.Is(err, row.sentinel) {
		t.Errorf("err = %v, want errors.Is %v", err, row.sentinel)
	}
	most := row.most
	if most == 0 {
		most = 8 * time.Second
	}
	if took > most || (row.attempts[k] > 1 && took < row.least) {
		t.Errorf("took %v, want between %v and %v", took, row.least, most)
	}
	if kind.name == "create" && row.fault.AfterHandling {
		// The motivating case of the rule: the server created the service
		// and the answer was lost. One attempt, so one service, not two.
		list, err := setup.Services.List(context.Background(), srv.ProjectID)
		setup.CloseIdleConnections()
		if err != nil || len(list) != 2 {
			t.Errorf("the project holds %d services (%v), want the existing one and one created", len(list), err)
		}
	}
	cell := fmt.Sprintf("%d× %s", attempts, got)
	if got == "ok" {
		cell = fmt.Sprintf("%d× ok", attempts)
	}
	return cell
}

// outcome classifies what a call returned.
func outcome(err error) string {
	var apiErr *dbcloud.APIError
	var respErr *dbcloud.ResponseError
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &apiErr):
		return "APIError"
	case errors.As(err, &respErr):
		return "ResponseError"
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline"
	}
	return "network"
}

// closedPortURL returns a base URL on a loopback port nobody listens on.
func closedPortURL(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return "http://" + addr + "/v1"
}
