// Command onecall is the program that callpath measures: built with
// coverage of the module, it makes each call once to warm the client up,
// then, for each call named on its command line, clears the coverage
// counters, makes that one call and writes the counters to a directory of
// its own under -out. The server is in the process, on loopback: nothing
// but the SDK and the standard library runs for a call.
package main

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/coverage"

	"github.com/dbcloud/dbcloud-go"
)

// A service as the API sends it, with the fields a real answer has; the
// create's answer adds the initial password.
const (
	service  = `{"service_id":"s1","project_id":"p1","name":"db","region_code":"us-east-1","service_type":"TIMESERIESDB","status":"READY","created":"2026-01-02T03:04:05Z","resources":[{"id":"r1","spec":{"cpu_millis":1000,"memory_gbs":4}}],"endpoint":{"host":"db.example.com","port":5432},"metadata":{"environment":"DEV"}}`
	created  = `{"service_id":"s2","project_id":"p1","name":"new","status":"QUEUED","initial_password":"pw-123"}`
	services = `[` + service + `,` + service + `]`
)

// calls are the calls measured, by name.
var calls = map[string]func(context.Context, *dbcloud.Client) error{
	"Get": func(ctx context.Context, c *dbcloud.Client) error {
		_, err := c.Services.Get(ctx, "p1", "s1")
		return err
	},
	"List": func(ctx context.Context, c *dbcloud.Client) error {
		_, err := c.Services.List(ctx, "p1")
		return err
	},
	"Create": func(ctx context.Context, c *dbcloud.Client) error {
		_, err := c.Services.Create(ctx, "p1", &dbcloud.CreateServiceRequest{Name: "new"})
		return err
	},
}

func main() {
	out := flag.String("out", "", "directory to write each call's counters under")
	flag.Parse()
	if err := run(*out, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "onecall:", err)
		os.Exit(1)
	}
}

func run(out string, names []string) error {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Request-Id", "req-1")
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/v1/projects/p1/services/s1":
			_, _ = w.Write([]byte(service))
		case r.Method == http.MethodGet && r.URL.Path == "/v1/projects/p1/services":
			_, _ = w.Write([]byte(services))
		case r.Method == http.MethodPost && r.URL.Path == "/v1/projects/p1/services":
			w.WriteHeader(http.StatusAccepted)
			_, _ = w.Write([]byte(created))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c, err := dbcloud.NewClient("k3y", dbcloud.WithBaseURL(srv.URL+"/v1"))
	if err != nil {
		return err
	}
	ctx := context.Background()
	for _, name := range names {
		call, ok := calls[name]
		if !ok {
			return fmt.Errorf("no call %q", name)
		}
		// The warm-up: the client's first call makes what later calls reuse
		// (a pooled call value, a connection).
		if err := call(ctx, c); err != nil {
			return fmt.Errorf("%s, warming up: %w", name, err)
		}
	}
	for _, name := range names {
		if err := coverage.ClearCounters(); err != nil {
			return err
		}
		if err := calls[name](ctx, c); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		dir := filepath.Join(out, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := coverage.WriteCountersDir(dir); err != nil {
			return err
		}
		if err := coverage.WriteMetaDir(dir); err != nil {
			return err
		}
	}
	return nil
}
