package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// history starts a fake whose one service holds 1,200 entries, and points
// the environment at it.
func history(t *testing.T) (*dbcloudtest.Server, string, []dbcloud.LogEntry) {
	t.Helper()
	srv := dbcloudtest.NewServer(dbcloudtest.WithStartTime(now), dbcloudtest.WithSeed(9))
	t.Cleanup(srv.Close)
	srv.Setenv(t)
	svc, err := srv.Client().Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "db"})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.SeedLogs(svc.ServiceID, 1200); err != nil {
		t.Fatal(err)
	}
	held, err := srv.Logs(svc.ServiceID)
	if err != nil {
		t.Fatal(err)
	}
	return srv, svc.ServiceID, held
}

func logs(t *testing.T, args ...string) (int, []string, string) {
	t.Helper()
	var out, errOut strings.Builder
	code := run(t.Context(), args, func() time.Time { return now }, &out, &errOut)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if out.Len() == 0 {
		lines = nil
	}
	return code, lines, errOut.String()
}

func TestLogsPrintsWholeHistory(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	_, id, held := history(t)
	code, lines, errOut := logs(t, "-service", id)
	if code != 0 || len(lines) != len(held) {
		t.Fatalf("exit %d, %d lines, want %d: %s", code, len(lines), len(held), errOut)
	}
	for i, e := range held {
		want := e.Timestamp.Format(time.RFC3339Nano) + " " + string(e.Severity)
		if !strings.HasPrefix(lines[i], want) || !strings.HasSuffix(lines[i], " "+e.Message) {
			t.Fatalf("line %d = %q, want %q ... %q", i, lines[i], want, e.Message)
		}
	}
}

func TestLogsFiltersAndJSON(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	_, id, held := history(t)
	since := now.Add(-6 * time.Hour)
	want := 0
	for _, e := range held {
		if (e.Severity == "ERROR" || e.Severity == "FATAL") && !e.Timestamp.Before(since) {
			want++
		}
	}
	code, lines, errOut := logs(t, "-service", id, "-severity", "ERROR,FATAL", "-since", "6h", "-json")
	if code != 0 || len(lines) != want || want == 0 {
		t.Fatalf("exit %d, %d lines, want %d (> 0): %s", code, len(lines), want, errOut)
	}
	for _, l := range lines {
		var e dbcloud.LogEntry
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		if (e.Severity != "ERROR" && e.Severity != "FATAL") || e.Timestamp.Before(since) || e.Message == "" {
			t.Errorf("entry %+v does not match the filters", e)
		}
	}

	_, lines, _ = logs(t, "-service", id, "-search", "checkpoint", "-search", "complete", "-until", now.Add(-time.Hour).Format(time.RFC3339))
	if len(lines) == 0 {
		t.Fatal("no checkpoint lines")
	}
	for _, l := range lines {
		if !strings.Contains(l, "checkpoint") || !strings.Contains(l, "complete") {
			t.Errorf("%q does not match both terms", l)
		}
	}
}

func TestLogsErrors(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	_, id, _ := history(t)
	for _, tt := range []struct {
		args []string
		code int
		says string
	}{
		{nil, 2, "-service is required"},
		{[]string{"-service", id, "-since", "yesterday"}, 2, "neither an RFC 3339 time nor a duration"},
		{[]string{"-service", "no-such-service"}, 1, "404"},
		{[]string{"-service", id, "-node", "-1", "-search", " "}, 1, "Search"},
		{[]string{"-service", id, "-follow", "-until", "1h"}, 2, "-until cannot be used with -follow"},
		{[]string{"-service", id, "-follow", "-interval", "-1s"}, 1, "PollInterval"},
		{[]string{"-service", id, "-tail", "-1"}, 2, "-tail must be at least 1"},
		{[]string{"-service", id, "-follow", "-tail", "5", "-since", "1h"}, 2, "-since cannot be used with -follow and -tail"},
		{[]string{"-service", id, "-min-severity", "LOUD"}, 1, "MinSeverity"},
		{[]string{"-service", id, "-min-severity", "ERROR", "-severity", "LOG"}, 1, "MinSeverity"},
	} {
		code, _, errOut := logs(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.says) {
			t.Errorf("%q: exit %d, stderr %q; want %d saying %q", tt.args, code, errOut, tt.code, tt.says)
		}
	}
}

func TestLogsOnDemoFake(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	var out, errOut strings.Builder
	code := run(t.Context(), []string{"-fake", "-severity", "FATAL"}, time.Now, &out, &errOut)
	if code != 0 || out.Len() == 0 {
		t.Fatalf("exit %d, stdout %d bytes, stderr %q", code, out.Len(), errOut.String())
	}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if !strings.Contains(l, " FATAL ") {
			t.Errorf("%q is not FATAL", l)
		}
	}
}

// -follow prints the lines since -since oldest first, then each new line as
// it is written, and exits 0 on Ctrl-C (here: the context ending).
func TestLogsFollow(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	srv, id, held := history(t)
	var want []dbcloud.LogEntry
	for i := len(held) - 1; i >= 0; i-- {
		if !held[i].Timestamp.Before(now.Add(-time.Minute)) {
			want = append(want, held[i])
		}
	}
	followed(t, srv, id, []string{"-since", "1m"}, want, []dbcloud.LogEntry{
		{Timestamp: now.Add(time.Second), Severity: "LOG", Message: "migration started"},
		{Timestamp: now.Add(time.Second), Severity: "LOG", Message: "migration started"},
		{Timestamp: now.Add(2 * time.Second), Severity: "ERROR", Message: "migration failed"},
	})
}

// followed runs the command with -follow and args, checks that it prints
// the lines of want, then appends added and checks that it prints them,
// and nothing else, and exits 0 with the follow notice once the context
// ends.
func followed(t *testing.T, srv *dbcloudtest.Server, id string, args []string, want, added []dbcloud.LogEntry) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	outR, outW := io.Pipe()
	var errOut strings.Builder
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, append([]string{"-service", id, "-follow", "-interval", "1ms"}, args...),
			func() time.Time { return now }, outW, &errOut)
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	all := append(want, added...)
	for i, e := range all {
		if i == len(want) {
			if err := srv.AppendLogs(id, added...); err != nil {
				t.Fatal(err)
			}
		}
		if !lines.Scan() {
			t.Fatalf("output ended after %d of %d lines: %s", i, len(all), errOut.String())
		}
		if w := fmt.Sprintf("%s %-7s %s", e.Timestamp.Format(time.RFC3339Nano), e.Severity, e.Message); lines.Text() != w {
			t.Fatalf("line %d = %q, want %q", i, lines.Text(), w)
		}
	}
	cancel()
	if lines.Scan() {
		t.Errorf("unexpected line %q", lines.Text())
	}
	if c := <-code; c != 0 || !strings.Contains(errOut.String(), "following service "+id) {
		t.Errorf("exit %d, stderr %q; want 0 and the follow notice", c, errOut.String())
	}
}

// -tail prints the newest n entries oldest first; -min-severity keeps that
// level and worse.
func TestLogsTailAndMinSeverity(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	_, id, held := history(t)
	code, lines, errOut := logs(t, "-service", id, "-tail", "7")
	if code != 0 || len(lines) != 7 {
		t.Fatalf("exit %d, %d lines, want 7: %s", code, len(lines), errOut)
	}
	for i, l := range lines {
		e := held[6-i]
		if !strings.HasPrefix(l, e.Timestamp.Format(time.RFC3339Nano)) || !strings.HasSuffix(l, " "+e.Message) {
			t.Errorf("line %d = %q, want entry %+v", i, l, e)
		}
	}
	code, lines, errOut = logs(t, "-service", id, "-min-severity", "ERROR")
	want := 0
	for _, e := range held {
		if dbcloud.Severity(e.Severity).AtLeast(dbcloud.SeverityError) {
			want++
		}
	}
	if code != 0 || len(lines) != want || want == 0 {
		t.Fatalf("exit %d, %d lines, want %d: %s", code, len(lines), want, errOut)
	}
	for _, l := range lines {
		if !strings.Contains(l, " ERROR ") && !strings.Contains(l, " FATAL ") && !strings.Contains(l, " PANIC ") {
			t.Errorf("%q is below ERROR", l)
		}
	}
}

// -tail with -follow prints the tail, then follows on just after it: a
// line written at the tail's last instant comes, the tail's lines do not
// come again.
func TestLogsTailThenFollow(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	srv, id, held := history(t)
	followed(t, srv, id, []string{"-tail", "2"}, []dbcloud.LogEntry{held[1], held[0]},
		[]dbcloud.LogEntry{{Timestamp: held[0].Timestamp, Severity: "ERROR", Message: "at the tail's last instant"}})
}
