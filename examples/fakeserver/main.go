// Command fakeserver runs the fake database service API on a local port, so
// that the SDK, its examples and curl can be tried with no account and no
// network.
//
// Usage:
//
//	go run ./examples/fakeserver [-addr 127.0.0.1:8080] [-step 1s] [-seed N] [-log-every 1s]
//
// It prints the base URL, API key and project id, a line to paste into a
// shell to point the SDK at it:
//
//	export DBCLOUD_BASE_URL=http://127.0.0.1:8080/v1 DBCLOUD_API_KEY=fake-key-0123456789 DBCLOUD_PROJECT_ID=proj-fake
//
// and a curl command to try. It serves until interrupted (Ctrl-C, SIGTERM).
//
// -step is how long each status of an asynchronous operation lasts (a new
// service is QUEUED for one step, CONFIGURING for the next, then READY); 0
// completes operations at once. -seed makes ids, passwords and logs
// repeatable. -log-every makes every service write a generated log line at
// that interval, something to follow with go run ./examples/logs -follow.
// Each service keeps its newest 100,000 log lines (up to 200,000 between
// trims). State lives in memory and is lost when the server stops.
//
// The endpoints it hands out are loopback ports that answer like PostgreSQL
// once their service is READY, so WaitForConnectable works against it.
//
// It is a dbcloudtest server (dbcloudtest.NewServerAt) with a real clock
// (dbcloudtest.WithRealTime) that keeps no log of requests. Go tests use
// dbcloudtest.NewServer instead: a server per test, a clock the test moves,
// faults, and the state to inspect.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// logRetention bounds each service's history, so that a server left running
// with -log-every stays small.
const logRetention = 100_000

// run serves until ctx ends and returns the exit code: 0 after shutting
// down, 2 for bad flags, 1 when the server cannot start.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fakeserver", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on (port 0 picks a free one)")
	step := fs.Duration("step", time.Second, "duration of each status of an asynchronous operation (0 = at once)")
	seed := fs.Uint64("seed", 0, "seed for ids, passwords and generated logs")
	logEvery := fs.Duration("log-every", 0, "every service writes a generated log line this often (0 = only lifecycle lines)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "fakeserver: unexpected arguments %q\n", fs.Args())
		return 2
	}
	if *step < 0 || *logEvery < 0 {
		fmt.Fprintln(stderr, "fakeserver: -step and -log-every must not be negative")
		return 2
	}
	srv, err := dbcloudtest.NewServerAt(*addr,
		dbcloudtest.WithRealTime(),
		dbcloudtest.WithStep(*step),
		dbcloudtest.WithSeed(*seed),
		dbcloudtest.WithLogInterval(*logEvery),
		dbcloudtest.WithLogRetention(logRetention),
		dbcloudtest.WithRequestLog(false), // serving for long, it must not grow with its traffic
	)
	if err != nil {
		fmt.Fprintf(stderr, "fakeserver: %v\n", strings.TrimPrefix(err.Error(), "dbcloudtest: "))
		return 1
	}
	logs := "lifecycle log lines only"
	if *logEvery > 0 {
		logs = fmt.Sprintf("a log line per service every %v", *logEvery)
	}
	fmt.Fprintf(stdout, `Fake dbcloud API (step %v, seed %d, %s)
  base URL:   %s
  API key:    %s
  project id: %s

Point the SDK at it:
  export DBCLOUD_BASE_URL=%[4]s DBCLOUD_API_KEY=%[5]s DBCLOUD_PROJECT_ID=%[6]s

Try it:
  curl -H 'Authorization: Bearer %[5]s' %[4]s/projects/%[6]s/services

Press Ctrl-C to stop.
`, *step, *seed, logs, srv.URL, srv.APIKey, srv.ProjectID)
	<-ctx.Done()
	srv.Close()
	fmt.Fprintln(stderr, "fakeserver: stopped")
	return 0
}
