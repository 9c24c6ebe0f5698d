// Command quickstart walks a database service through its whole lifecycle
// with the dbcloud SDK: create, wait until the database answers, resize,
// high availability, connection pooler, a read replica set, a fork, logs,
// stop and start, and finally deletes everything it created.
//
//	go run ./examples/quickstart
//
// With no credentials in the environment it starts a fake of the API
// in-process (dbcloudtest.NewServer, here with dbcloudtest.WithRealTime so
// that statuses move as you watch), so it needs no account and no network.
// With credentials (DBCLOUD_API_KEY or DBCLOUD_API_KEY_FILE, or a personal
// access token in DBCLOUD_PUBLIC_KEY and DBCLOUD_SECRET_KEY), DBCLOUD_BASE_URL
// and DBCLOUD_PROJECT_ID set it runs against that API
// (dbcloud.NewClientFromEnv), and creates billed resources there, which it
// deletes at the end.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run returns the exit code: 0 when every step worked, 1 on any failure,
// 2 for bad flags.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("quickstart", flag.ContinueOnError)
	fs.SetOutput(stderr)
	step := fs.Duration("step", 300*time.Millisecond, "with the fake API: how long each status lasts (a database warms up for 3 steps after READY)")
	poll := fs.Duration("poll", 200*time.Millisecond, "first delay between status polls (it grows to 5x)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if *step < 0 || *poll <= 0 {
		fmt.Fprintln(stderr, "quickstart: -step must be >= 0 and -poll > 0")
		return 2
	}

	ua := dbcloud.WithUserAgent("dbcloud-quickstart")
	polls := dbcloud.WithDefaultPollInterval(*poll, 5**poll)
	var client *dbcloud.Client
	var err error
	if !credentialsSet() {
		srv := dbcloudtest.NewServer(dbcloudtest.WithRealTime(), dbcloudtest.WithStep(*step), dbcloudtest.WithConnectDelay(3**step))
		defer srv.Close() // also closes the client's connections
		fmt.Fprintf(stdout, "No credentials set: using an in-process fake API at %s\n", srv.URL)
		client = srv.Client(ua, polls)
	} else if client, err = dbcloud.NewClientFromEnv(ua, polls); err == nil {
		defer client.CloseIdleConnections()
		if client.ProjectID() == "" {
			err = fmt.Errorf("set %s", "DBCLOUD_PROJECT_ID")
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "quickstart:", err)
		return 1
	}

	q := &quickstart{c: client, project: client.ProjectID(), out: stdout, timeout: dbcloud.WithWaitTimeout(15 * time.Minute)}
	err = q.lifecycle(ctx)
	if cleanupErr := q.cleanup(); err == nil {
		err = cleanupErr
	}
	if err != nil {
		fmt.Fprintln(stderr, "quickstart: FAILED:", err)
		return 1
	}
	fmt.Fprintln(stdout, "Done: every step worked and everything created was deleted.")
	return 0
}

// credentialsSet reports whether the environment holds credentials of any
// kind NewClientFromEnv reads: with a personal access token alone the user
// means their API, not the fake.
func credentialsSet() bool {
	for _, name := range []string{"DBCLOUD_API_KEY", "DBCLOUD_API_KEY_FILE",
		"DBCLOUD_PUBLIC_KEY", "DBCLOUD_SECRET_KEY", "DBCLOUD_SECRET_KEY_FILE"} {
		if os.Getenv(name) != "" {
			return true
		}
	}
	return false
}
