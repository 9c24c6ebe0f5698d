// Command deploy makes sure a database service exists and its database
// answers, for use in deploy pipelines: it creates the service named by
// -name, or reuses it if the project has one by that name (starting it if it
// is paused), waits until the database answers connections and prints
// host:port on stdout. Progress goes to stderr.
//
//	DBCLOUD_API_KEY=... DBCLOUD_BASE_URL=https://.../v1 DBCLOUD_PROJECT_ID=... \
//	    go run ./examples/deploy -name orders -timeout 15m
//	go run ./examples/deploy -fake -name orders   # against an in-process fake API
//
// It reads the variables with dbcloud.NewClientFromEnv; -fake serves
// dbcloudtest.NewServer in-process instead, with a real clock.
//
// Exit codes: 0 ready, 2 timed out, 1 any other error (bad flags included).
//
// The client uses create recovery (dbcloud.WithCreateRecovery): a create
// whose answer is lost to a network fault is resolved by listing the project
// instead of failing, so a flaky network does not fail the deploy, and never
// makes a second service.
//
// It waits past READY, which means only that the control plane is done: the
// database can refuse connections for a moment after it, and migrations run
// next must not fail at random.
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

// Exit codes.
const (
	exitReady   = 0
	exitFailed  = 1
	exitTimeout = 2
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("deploy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	name := fs.String("name", "", "name of the service to create or reuse (required)")
	timeout := fs.Duration("timeout", 15*time.Minute, "how long to wait until the database answers")
	cpu := fs.Int("cpu", 0, "millicores for a new service (0 = the API's default)")
	memory := fs.Int("memory", 0, "gigabytes for a new service (0 = the API's default)")
	useFake := fs.Bool("fake", false, "run against an in-process fake API instead of DBCLOUD_*")
	step := fs.Duration("step", 500*time.Millisecond, "with -fake: how long each status lasts, and a database's warm-up after READY")
	poll := fs.Duration("poll", 2*time.Second, "first delay between status polls (it grows to 10x)")
	settle := fs.Duration("create-settle", dbcloud.DefaultCreateSettle, "how long a create whose answer was lost may take to land before it is sent again")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitReady
		}
		return exitFailed
	}
	if *name == "" || *poll <= 0 || *settle < 0 {
		fmt.Fprintln(stderr, "deploy: -name is required, -poll must be positive and -create-settle not negative")
		return exitFailed
	}

	var client *dbcloud.Client
	var err error
	opts := []dbcloud.Option{dbcloud.WithUserAgent("dbcloud-deploy"), dbcloud.WithCreateRecovery(), dbcloud.WithCreateSettle(*settle)}
	if *useFake {
		srv := dbcloudtest.NewServer(dbcloudtest.WithRealTime(), dbcloudtest.WithStep(*step), dbcloudtest.WithConnectDelay(*step))
		defer srv.Close() // also closes the client's connections
		client = srv.Client(opts...)
	} else if client, err = dbcloud.NewClientFromEnv(opts...); err == nil {
		defer client.CloseIdleConnections()
		if client.ProjectID() == "" {
			err = fmt.Errorf("set %s", dbcloud.EnvProjectID)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "deploy:", err)
		return exitFailed
	}
	projectID := client.ProjectID()

	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "deploy: "+format+"\n", args...) }
	svc, err := ensure(ctx, client, projectID, *name, &dbcloud.CreateServiceRequest{Name: *name, CPUMillis: *cpu, MemoryGBs: *memory}, logf)
	var readyAt time.Time
	if err == nil {
		last := ""
		svc, err = client.Services.WaitForConnectable(ctx, projectID, svc.ServiceID,
			dbcloud.WithWaitTimeout(*timeout),
			dbcloud.WithPollInterval(*poll, 10**poll),
			dbcloud.WithProgress(func(status string) {
				if status != last {
					logf("%s is %s", *name, status)
					last = status
				}
				if status == string(dbcloud.StatusReady) && readyAt.IsZero() {
					readyAt = time.Now()
				}
			}))
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		logf("timed out after %v: %v", *timeout, err)
		return exitTimeout
	case errors.Is(err, dbcloud.ErrMaybeCreated):
		// Deploying again is safe: it reuses a service by its name.
		logf("%v\n%s may have been created: run deploy again to reuse it", err, *name)
		return exitFailed
	case err != nil:
		logf("%v", err)
		return exitFailed
	}
	logf("%s answers at %s:%d, %v after READY", *name, svc.Endpoint.Host, svc.Endpoint.Port, time.Since(readyAt).Round(time.Millisecond))
	fmt.Fprintf(stdout, "%s:%d\n", svc.Endpoint.Host, svc.Endpoint.Port)
	return exitReady
}

// ensure returns the project's service called name, started if it was
// paused, or creates it. Two services with that name are an error: picking
// one would be a guess.
func ensure(ctx context.Context, client *dbcloud.Client, projectID, name string, create *dbcloud.CreateServiceRequest, logf func(string, ...any)) (*dbcloud.Service, error) {
	services := client.Services
	all, err := services.List(ctx, projectID)
	if err != nil {
		return nil, err
	}
	var found []dbcloud.Service
	for _, s := range all {
		if s.Name == name {
			found = append(found, s)
		}
	}
	switch {
	case len(found) > 1:
		return nil, fmt.Errorf("%d services are named %q; rename or delete the extra ones", len(found), name)
	case len(found) == 0:
		logf("creating %s", name)
		return services.Create(ctx, projectID, create)
	}
	svc := &found[0]
	logf("reusing %s (%s, %s)", name, svc.ServiceID, svc.Status)
	switch svc.Status {
	case dbcloud.StatusPaused:
		logf("starting %s", name)
		return services.Start(ctx, projectID, svc.ServiceID)
	case dbcloud.StatusDeleting, dbcloud.StatusDeleted:
		return nil, fmt.Errorf("%s (%s) is being deleted; wait for it to go, then deploy again", name, svc.ServiceID)
	}
	return svc, nil
}
