// Command logs prints a service's whole log history, newest first, reading
// it page by page with AllLogs in constant memory, or, with -follow, streams
// its new lines oldest first as they are written, like tail -f, until
// Ctrl-C.
//
//	go run ./examples/logs -service <id> [-since 2026-11-01T00:00:00Z | -since 24h]
//	    [-until ...] [-severity ERROR,FATAL] [-search text]... [-node N] [-json]
//	go run ./examples/logs -service <id> -follow [-interval 2s] [-since 10m] [filters]
//	go run ./examples/logs -fake [-follow]    # a demo service on an in-process fake API
//
// It reads DBCLOUD_API_KEY, DBCLOUD_BASE_URL and DBCLOUD_PROJECT_ID. -since
// and -until take an RFC 3339 time or a duration before now. -json prints
// one JSON object per entry, for jq and log pipelines. With -follow, -since
// prints the lines since then first; without it only new lines are printed.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/internal/exampleenv"
	"github.com/dbcloud/dbcloud-go/internal/fakeapi"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, time.Now, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// strings is a repeatable flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

func run(ctx context.Context, args []string, getenv func(string) string, now func() time.Time, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("logs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	serviceID := fs.String("service", "", "id of the service (required unless -fake)")
	since := fs.String("since", "", "only entries after this RFC 3339 time, or this long ago (24h)")
	until := fs.String("until", "", "only entries before this RFC 3339 time, or this long ago")
	severity := fs.String("severity", "", "comma-separated severities to keep, e.g. WARNING,ERROR,FATAL")
	node := fs.Int("node", -1, "only this node of a multi-node service (0 = primary)")
	asJSON := fs.Bool("json", false, "print one JSON object per entry")
	follow := fs.Bool("follow", false, "print new lines, oldest first, as they are written, until Ctrl-C")
	interval := fs.Duration("interval", dbcloud.DefaultFollowInterval, "with -follow: time between polls")
	useFake := fs.Bool("fake", false, "read a demo service on an in-process fake API")
	var search stringList
	fs.Var(&search, "search", "full-text term to match (repeatable: all must match)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	opts := &dbcloud.LogOptions{Search: search}
	var err error
	if opts.Since, err = parseTime(*since, now()); err == nil {
		opts.Until, err = parseTime(*until, now())
	}
	if err == nil && *follow && !opts.Until.IsZero() {
		err = errors.New("-until cannot be used with -follow: a follow ends with Ctrl-C")
	}
	if err != nil {
		fmt.Fprintln(stderr, "logs:", err)
		return 2
	}
	if *severity != "" {
		opts.Severities = strings.Split(*severity, ",")
	}
	if *node >= 0 {
		opts.Node = node
	}

	conn, id, err := connect(getenv, *useFake, *follow, *serviceID)
	if err != nil {
		fmt.Fprintln(stderr, "logs:", err)
		return 2
	}
	defer conn.Close()

	out := bufio.NewWriter(stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	read := conn.Client.Services.AllLogs
	if *follow {
		read = conn.Client.Services.FollowLogs
		opts.PollInterval = *interval
		fmt.Fprintf(stderr, "logs: following service %s; Ctrl-C to stop\n", id)
	}
	n := 0
	for entry, err := range read(ctx, conn.ProjectID, id, opts) {
		if err != nil {
			out.Flush()
			fmt.Fprintf(stderr, "logs: after %d entries: %v\n", n, err)
			return 1
		}
		n++
		if *asJSON {
			err = enc.Encode(entry)
		} else {
			_, err = fmt.Fprintf(out, "%s %-7s %s\n", entry.Timestamp.Format(time.RFC3339Nano), entry.Severity, entry.Message)
		}
		if err == nil && *follow {
			err = out.Flush() // a follower reads each line as it comes
		}
		if err != nil {
			fmt.Fprintln(stderr, "logs:", err)
			return 1
		}
	}
	return 0
}

// connect returns the API to read and the service to read. With -fake it
// creates a demo service with a few thousand entries of history, which
// writes a line every half second when followed.
func connect(getenv func(string) string, fake, follow bool, serviceID string) (*exampleenv.Conn, string, error) {
	if !fake {
		if serviceID == "" {
			return nil, "", errors.New("-service is required (or try -fake)")
		}
		conn, err := exampleenv.Real(getenv)
		return conn, serviceID, err
	}
	opts := fakeapi.Options{Seed: 1}
	if follow {
		opts.LogInterval = 500 * time.Millisecond
	}
	conn, err := exampleenv.Fake(opts)
	if err != nil {
		return nil, "", err
	}
	svc, err := conn.Client.Services.Create(context.Background(), conn.ProjectID, &dbcloud.CreateServiceRequest{Name: "demo"})
	if err == nil {
		err = conn.Fake.API.SeedLogs(conn.ProjectID, svc.ServiceID, 3000)
	}
	if err != nil {
		conn.Close()
		return nil, "", err
	}
	return conn, svc.ServiceID, nil
}

// parseTime reads an RFC 3339 time or a duration before now; "" is no bound.
func parseTime(v string, now time.Time) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	if d, err := time.ParseDuration(v); err == nil {
		return now.Add(-d), nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is neither an RFC 3339 time nor a duration", v)
	}
	return t, nil
}
