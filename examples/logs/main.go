// Command logs prints a service's whole log history, newest first, reading
// it page by page with AllLogs in constant memory; with -tail n, only the
// newest n entries, oldest first (TailLogs); with -follow, streams its new
// lines oldest first as they are written, like tail -f, until Ctrl-C
// (FollowLogs), after the -tail lines when both are given.
//
//	go run ./examples/logs -service <id> [-since 2026-11-01T00:00:00Z | -since 24h]
//	    [-until ...] [-severity ERROR,FATAL | -min-severity WARNING] [-search text]... [-node N] [-json]
//	go run ./examples/logs -service <id> -tail 50 [filters]
//	go run ./examples/logs -service <id> -follow [-tail 20] [-interval 2s] [-since 10m] [filters]
//	go run ./examples/logs -fake [-follow]    # a demo service on an in-process fake API
//
// It reads DBCLOUD_API_KEY, DBCLOUD_BASE_URL and DBCLOUD_PROJECT_ID
// (dbcloud.NewClientFromEnv); -fake serves dbcloudtest.NewServer
// in-process instead, with a real clock. -since
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
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], time.Now, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// strings is a repeatable flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(v string) error { *l = append(*l, v); return nil }

func run(ctx context.Context, args []string, now func() time.Time, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("logs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	serviceID := fs.String("service", "", "id of the service (required unless -fake)")
	since := fs.String("since", "", "only entries after this RFC 3339 time, or this long ago (24h)")
	until := fs.String("until", "", "only entries before this RFC 3339 time, or this long ago")
	severity := fs.String("severity", "", "comma-separated severities to keep, e.g. WARNING,ERROR,FATAL")
	minSeverity := fs.String("min-severity", "", "keep this severity and worse: DEBUG, LOG, INFO, NOTICE, WARNING, ERROR, FATAL or PANIC")
	tail := fs.Int("tail", 0, "print only the newest n entries, oldest first; with -follow, follow on from them")
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
	switch {
	case err != nil:
	case *follow && !opts.Until.IsZero():
		err = errors.New("-until cannot be used with -follow: a follow ends with Ctrl-C")
	case *follow && *tail > 0 && !opts.Since.IsZero():
		err = errors.New("-since cannot be used with -follow and -tail: the follow starts after the tail")
	case *tail < 0:
		err = errors.New("-tail must be at least 1")
	}
	if err != nil {
		fmt.Fprintln(stderr, "logs:", err)
		return 2
	}
	if *severity != "" {
		opts.Severities = strings.Split(*severity, ",")
	}
	opts.MinSeverity = dbcloud.Severity(*minSeverity)
	if *node >= 0 {
		opts.Node = node
	}

	client, id, closeAll, err := connect(*useFake, *follow, *serviceID)
	if err != nil {
		fmt.Fprintln(stderr, "logs:", err)
		return 2
	}
	defer closeAll()

	out := bufio.NewWriter(stdout)
	defer out.Flush()
	p := printer{out: out, json: *asJSON, flush: *follow}
	fail := func(n int, err error) int {
		out.Flush()
		fmt.Fprintf(stderr, "logs: after %d entries: %v\n", n, err)
		return 1
	}
	if *tail > 0 {
		lines, pos, err := client.Services.TailLogs(ctx, client.ProjectID(), id, *tail, opts)
		if err != nil {
			return fail(0, err)
		}
		for i, entry := range lines {
			if err := p.print(entry); err != nil {
				return fail(i, err)
			}
		}
		if !*follow {
			return 0
		}
		opts.After = pos // the follow goes on just after the last line printed
	}
	read := client.Services.AllLogs
	if *follow {
		read = client.Services.FollowLogs
		opts.PollInterval = *interval
		fmt.Fprintf(stderr, "logs: following service %s; Ctrl-C to stop\n", id)
	}
	n := 0
	for entry, err := range read(ctx, client.ProjectID(), id, opts) {
		if err == nil {
			err = p.print(entry)
		}
		if err != nil {
			return fail(n, err)
		}
		n++
	}
	return 0
}

// printer writes entries as text or JSON lines.
type printer struct {
	out   *bufio.Writer
	json  bool
	flush bool // after each entry: a follower reads each line as it comes
}

func (p printer) print(entry dbcloud.LogEntry) error {
	var err error
	if p.json {
		err = json.NewEncoder(p.out).Encode(entry)
	} else {
		_, err = fmt.Fprintf(p.out, "%s %-7s %s\n", entry.Timestamp.Format(time.RFC3339Nano), entry.Severity, entry.Message)
	}
	if err == nil && p.flush {
		err = p.out.Flush()
	}
	return err
}

// connect returns the API to read, the service to read and what closes
// them. With -fake it creates a demo service with a few thousand entries of
// history, which writes a line every half second when followed.
func connect(fake, follow bool, serviceID string) (*dbcloud.Client, string, func(), error) {
	if !fake {
		if serviceID == "" {
			return nil, "", nil, errors.New("-service is required (or try -fake)")
		}
		client, err := dbcloud.NewClientFromEnv()
		if err == nil && client.ProjectID() == "" {
			err = fmt.Errorf("set %s", "DBCLOUD_PROJECT_ID")
		}
		if err != nil {
			return nil, "", nil, err
		}
		return client, serviceID, client.CloseIdleConnections, nil
	}
	opts := []dbcloudtest.Option{dbcloudtest.WithRealTime(), dbcloudtest.WithSeed(1)}
	if follow {
		opts = append(opts, dbcloudtest.WithLogInterval(500*time.Millisecond))
	}
	srv := dbcloudtest.NewServer(opts...)
	client := srv.Client() // srv.Close closes its connections
	svc, err := client.Services.Create(context.Background(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "demo"})
	if err == nil {
		err = srv.SeedLogs(svc.ServiceID, 3000)
	}
	if err != nil {
		srv.Close()
		return nil, "", nil, err
	}
	return client, svc.ServiceID, srv.Close, nil
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
