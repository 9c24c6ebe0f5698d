// Command deploy makes sure a database service exists as asked and its
// database answers, for use in deploy pipelines: it prints the plan (what
// it is about to change), applies it with the deploy package, waits until
// the database answers connections and prints host:port on stdout.
// Progress goes to stderr, one line per step and per status seen, each
// naming its resource.
//
//	DBCLOUD_API_KEY=... DBCLOUD_BASE_URL=https://.../v1 DBCLOUD_PROJECT_ID=... \
//	    go run ./examples/deploy -name orders -pooler -timeout 15m
//	go run ./examples/deploy -name orders -plan   # the plan alone: sends only GETs
//	go run ./examples/deploy -name orders -destroy # deletes the service, after its plan
//	go run ./examples/deploy -fake -name orders   # against an in-process fake API
//
// It reads the variables with dbcloud.NewClientFromEnv; -fake serves
// dbcloudtest.NewServer in-process instead, with a real clock.
//
// Exit codes: 0 ready (or, with -plan, planned), 2 timed out, 1 any other
// error (bad flags included).
//
// On any failure, run it again: every step checks what it finds before it
// changes anything, so the next run finishes what this one started and
// never makes a second service. A create whose answer is lost to a network
// fault is resolved within the run (the deploy package's creates use
// create recovery). The password of a service this run creates is written
// to -password-file (mode 0600) as soon as the service exists; without it,
// the password is not kept anywhere, and dbcloud's
// ServicesClient.UpdatePassword sets a new one.
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
	"github.com/dbcloud/dbcloud-go/deploy"
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
	cpu := fs.Int("cpu", 0, "millicores, with -memory (0 = the API's default, and left as it is)")
	memory := fs.Int("memory", 0, "gigabytes, with -cpu (0 = the API's default, and left as it is)")
	pooler := fs.Bool("pooler", false, "turn the connection pooler on (off when not given)")
	planOnly := fs.Bool("plan", false, "print the plan and stop: sends only GETs")
	destroy := fs.Bool("destroy", false, "delete the service (its replica sets first) and wait until it is gone")
	passwordFile := fs.String("password-file", "", "write a new service's password to this file (mode 0600)")
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
	if *name == "" || *poll <= 0 || *settle < 0 || (*cpu == 0) != (*memory == 0) {
		fmt.Fprintln(stderr, "deploy: -name is required, -cpu and -memory go together, -poll must be positive and -create-settle not negative")
		return exitFailed
	}

	var client *dbcloud.Client
	var err error
	opts := []dbcloud.Option{dbcloud.WithUserAgent("dbcloud-deploy"), dbcloud.WithCreateSettle(*settle)}
	if *planOnly {
		opts = append(opts, dbcloud.WithReadOnly()) // a plan never changes anything: the client makes sure
	}
	if *useFake {
		srv := dbcloudtest.NewServer(dbcloudtest.WithRealTime(), dbcloudtest.WithStep(*step), dbcloudtest.WithConnectDelay(*step))
		defer srv.Close() // also closes the client's connections
		client = srv.Client(opts...)
	} else if client, err = dbcloud.NewClientFromEnv(opts...); err == nil {
		defer client.CloseIdleConnections()
		if client.ProjectID() == "" {
			err = fmt.Errorf("set %s", "DBCLOUD_PROJECT_ID")
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "deploy:", err)
		return exitFailed
	}

	st := &deploy.State{Service: deploy.Service{Name: *name, CPUMillis: *cpu, MemoryGBs: *memory, Pooler: pooler}}
	logf := func(format string, args ...any) { fmt.Fprintf(stderr, "deploy: "+format+"\n", args...) }
	waits := []dbcloud.WaitOption{dbcloud.WithWaitTimeout(*timeout), dbcloud.WithPollInterval(*poll, 10**poll)}
	var readyAt time.Time
	var res *deploy.Result
	planOf := st.Plan
	if *destroy {
		planOf = st.PlanDestroy
	}
	plan, err := planOf(ctx, client)
	if plan != nil {
		fmt.Fprint(stderr, plan)
	}
	if err == nil && !*planOnly {
		last := ""
		res, err = plan.Apply(ctx, client, deploy.WithWaitOptions(waits...), deploy.WithProgress(func(p deploy.Progress) {
			if line := p.String(); p.Poll == nil || line != last {
				logf("%s", line) // a wait's line once per status
				last = line
			}
		}), deploy.WithPasswords(func(p deploy.Password) error {
			if *passwordFile == "" {
				logf("%s %q: its password is not kept (no -password-file): set one with UpdatePassword", p.Kind, p.Name)
				return nil
			}
			return os.WriteFile(*passwordFile, []byte(string(p.Password)+"\n"), 0o600)
		}))
	}
	if err == nil && (*planOnly || *destroy) {
		return exitReady
	}
	var svc *dbcloud.Service
	if err == nil {
		// The service is READY; now wait until its database answers.
		svc, err = client.Services.WaitForConnectable(ctx, client.ProjectID(), res.Service.ServiceID,
			append(waits, dbcloud.WithProgress(func(p dbcloud.WaitProgress) {
				if p.Status == dbcloud.StatusReady && readyAt.IsZero() {
					readyAt = time.Now()
				}
			}))...)
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		logf("timed out after %v: %v", *timeout, err)
		return exitTimeout
	case errors.Is(err, dbcloud.ErrMaybeCreated):
		logf("%v\n%s may have been created: run deploy again to finish", err, *name)
		return exitFailed
	case err != nil:
		logf("%v", err)
		return exitFailed
	}
	logf("%s answers at %s:%d, %v after READY", *name, svc.Endpoint.Host, svc.Endpoint.Port, time.Since(readyAt).Round(time.Millisecond))
	fmt.Fprintf(stdout, "%s:%d\n", svc.Endpoint.Host, svc.Endpoint.Port)
	return exitReady
}
