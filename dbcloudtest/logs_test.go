package dbcloudtest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/google/go-cmp/cmp"
)

// A follower started before the lines are written gets every line AppendLogs
// adds, in order and once: a burst of 1,234 (three pages), then 50 sharing one
// instant, some identical.
func TestFollowLogsSeesAppendedLines(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	srv := newServer(t)
	c := srv.Client()
	svc := createReady(t, c, srv.ProjectID)
	srv.Advance(time.Second)
	since := srv.Now() // after the startup lines: only what is appended now

	var want []dbcloud.LogEntry
	for i := range 1234 {
		want = append(want, dbcloud.LogEntry{Timestamp: since.Add(time.Duration(i) * time.Microsecond), Severity: "LOG", Message: fmt.Sprintf("burst %d", i)})
	}
	at := since.Add(time.Second)
	for i := range 50 {
		want = append(want, dbcloud.LogEntry{Timestamp: at, Severity: "WARNING", Message: fmt.Sprintf("same instant %d", i%7)})
	}

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	got := make(chan dbcloud.LogEntry)
	done := make(chan error, 1)
	go func() {
		defer close(got)
		for e, err := range c.Services.FollowLogs(ctx, srv.ProjectID, svc.ServiceID, &dbcloud.LogOptions{Since: since, PollInterval: time.Millisecond}) {
			if err != nil {
				done <- err
				return
			}
			select {
			case got <- e:
			case <-ctx.Done(): // the test has stopped reading
				done <- nil
				return
			}
		}
		done <- nil
	}()
	if err := srv.AppendLogs(svc.ServiceID, want[:1234]...); err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if i == 1234 {
			if err := srv.AppendLogs(svc.ServiceID, want[1234:]...); err != nil {
				t.Fatal(err)
			}
		}
		var e dbcloud.LogEntry
		select {
		case line, ok := <-got:
			if !ok {
				t.Fatalf("the follow ended after %d lines: %v", i, <-done)
			}
			e = line
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of %d lines", i, len(want))
		}
		if !e.Timestamp.Equal(want[i].Timestamp) || e.Severity != want[i].Severity || e.Message != want[i].Message {
			t.Fatalf("line %d = %+v, want %+v", i, e, want[i])
		}
	}
	cancel()
	for range got { // lines past the ones wanted would be duplicates
		t.Error("a line after the last one appended")
	}
	if err := <-done; err != nil {
		t.Errorf("the follow ended with %v, want a quiet end on cancel", err)
	}
}

// Logs is what a client reads: AllLogs gives the same entries.
func TestLogs(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithSeed(3))
	c := srv.Client()
	svc, held := createSeeded(t, srv, c, 1200)
	read := allLogs(t, c, srv.ProjectID, svc.ServiceID)
	if len(read) != len(held) || len(read) < 1200 {
		t.Fatalf("read %d entries, Logs returned %d", len(read), len(held))
	}
	for i, e := range read {
		if !e.Timestamp.Equal(held[i].Timestamp) || e.Severity != held[i].Severity || e.Message != held[i].Message {
			t.Fatalf("entry %d: read %+v, Logs has %+v", i, e, held[i])
		}
	}
	if _, err := srv.Logs("no-such-service"); err == nil || !strings.HasPrefix(err.Error(), "dbcloudtest: ") {
		t.Errorf("Logs of an unknown service: %v", err)
	}
}

func TestSeedLogs(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	svc := createReady(t, c, srv.ProjectID)
	before := allLogs(t, c, srv.ProjectID, svc.ServiceID)
	if err := srv.SeedLogs(svc.ServiceID, 1234); err != nil {
		t.Fatal(err)
	}
	after := allLogs(t, c, srv.ProjectID, svc.ServiceID)
	if len(after) != len(before)+1234 {
		t.Fatalf("%d entries after seeding 1234 to %d", len(after), len(before))
	}
	if diff := cmp.Diff(before, after[:len(before)]); diff != "" {
		t.Errorf("seeding changed the newest entries (-before +after):\n%s", diff)
	}
	if last := before[len(before)-1].Timestamp; !after[len(before)].Timestamp.Before(last) {
		t.Errorf("seeded entry at %v is not older than %v", after[len(before)].Timestamp, last)
	}
	checkUserError(t, "negative", srv.SeedLogs(svc.ServiceID, -1))
	checkUserError(t, "unknown service", srv.SeedLogs("nope", 1))
}

func TestAppendLogs(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	svc := createReady(t, c, srv.ProjectID)
	srv.Advance(time.Second)
	at := srv.Now().Add(time.Minute)
	err := srv.AppendLogs(svc.ServiceID,
		dbcloud.LogEntry{Message: "stamped now"},
		dbcloud.LogEntry{Timestamp: at, Severity: "error", Message: "stamped later"},
	)
	if err != nil {
		t.Fatal(err)
	}
	got := allLogs(t, c, srv.ProjectID, svc.ServiceID)[:2]
	want := []dbcloud.LogEntry{
		{Timestamp: at, Severity: "ERROR", Message: "stamped later"},
		{Timestamp: srv.Now(), Severity: "LOG", Message: "stamped now"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("newest entries (-want +got):\n%s", diff)
	}

	n := len(allLogs(t, c, srv.ProjectID, svc.ServiceID))
	checkUserError(t, "unknown severity", srv.AppendLogs(svc.ServiceID, dbcloud.LogEntry{Message: "fine"}, dbcloud.LogEntry{Severity: "LOUD", Message: "x"}))
	checkUserError(t, "unknown service", srv.AppendLogs("nope", dbcloud.LogEntry{Message: "x"}))
	if after := len(allLogs(t, c, srv.ProjectID, svc.ServiceID)); after != n {
		t.Errorf("failed appends changed the history from %d to %d entries", n, after)
	}
}

// AppendLogs takes every severity dbcloud.Severity names, and the logs
// endpoint filters on each, so that "ERROR or worse" is testable at its
// worst.
func TestAppendLogsEverySeverity(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	svc := createReady(t, c, srv.ProjectID)
	all := []dbcloud.Severity{
		dbcloud.SeverityDebug, dbcloud.SeverityLog, dbcloud.SeverityInfo, dbcloud.SeverityNotice,
		dbcloud.SeverityWarning, dbcloud.SeverityError, dbcloud.SeverityFatal, dbcloud.SeverityPanic,
	}
	for _, sev := range all {
		if err := srv.AppendLogs(svc.ServiceID, dbcloud.LogEntry{Severity: sev, Message: "only " + string(sev)}); err != nil {
			t.Fatalf("%s: %v", sev, err)
		}
	}
	for _, sev := range all {
		page, err := c.Services.ListLogs(t.Context(), srv.ProjectID, svc.ServiceID,
			&dbcloud.LogOptions{Severities: []string{string(sev)}, Search: []string{"only"}})
		if err != nil {
			t.Fatal(err)
		}
		want := []dbcloud.LogEntry{{Timestamp: srv.Now(), Severity: sev, Message: "only " + string(sev)}}
		if diff := cmp.Diff(want, page.Entries); diff != "" {
			t.Errorf("severity %s (-want +got):\n%s", sev, diff)
		}
	}
}

// AppendNodeLogs gives entries a node that the logs endpoint filters on, and
// adds none of them when one is invalid.
func TestAppendNodeLogs(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	svc := createReady(t, c, srv.ProjectID)
	srv.Advance(time.Hour)
	at := srv.Now()
	entry := func(msg string, node int) dbcloudtest.NodeLogEntry {
		return dbcloudtest.NodeLogEntry{LogEntry: dbcloud.LogEntry{Timestamp: at, Severity: "ERROR", Message: msg}, Node: node}
	}
	if err := srv.AppendNodeLogs(svc.ServiceID, entry("primary", 0), entry("replica 1", 1), entry("replica 2", 2)); err != nil {
		t.Fatal(err)
	}
	if err := srv.AppendNodeLogs(svc.ServiceID, entry("valid", 1), entry("negative", -1)); err == nil {
		t.Error("a negative node was accepted")
	}
	for node, want := range []string{"primary", "replica 1", "replica 2"} {
		page, err := c.Services.ListLogs(t.Context(), srv.ProjectID, svc.ServiceID, &dbcloud.LogOptions{Since: at, Node: &node})
		if err != nil {
			t.Fatal(err)
		}
		wantPage := []dbcloud.LogEntry{{Timestamp: at, Severity: "ERROR", Message: want}}
		if diff := cmp.Diff(wantPage, page.Entries); diff != "" {
			t.Errorf("node %d (-want +got):\n%s", node, diff)
		}
	}
	all, err := srv.NodeLogs(svc.ServiceID)
	if err != nil {
		t.Fatal(err)
	}
	want := []dbcloudtest.NodeLogEntry{entry("replica 2", 2), entry("replica 1", 1), entry("primary", 0)}
	if diff := cmp.Diff(want, all[:3]); diff != "" {
		t.Errorf("NodeLogs, newest first (-want +got); the failed append added entries if it shows them:\n%s", diff)
	}
	logs, err := srv.Logs(svc.ServiceID)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range all {
		if e.LogEntry != logs[i] {
			t.Fatalf("entry %d: NodeLogs %+v, Logs %+v", i, e.LogEntry, logs[i])
		}
	}
	if _, err := srv.NodeLogs("no-such-service"); err == nil {
		t.Error("NodeLogs of an unknown service: no error")
	}
}

// The since bound includes an entry at its own instant by default and
// excludes it with WithExclusiveSince; later entries are read either way.
func TestWithExclusiveSince(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts []dbcloudtest.Option
		want []string
	}{
		{"default", nil, []string{"after", "on the bound"}},
		{"exclusive", []dbcloudtest.Option{dbcloudtest.WithExclusiveSince()}, []string{"after"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, tt.opts...)
			c := srv.Client()
			svc := createReady(t, c, srv.ProjectID)
			srv.Advance(time.Hour)
			bound := srv.Now()
			if err := srv.AppendLogs(svc.ServiceID,
				dbcloud.LogEntry{Timestamp: bound, Message: "on the bound"},
				dbcloud.LogEntry{Timestamp: bound.Add(time.Microsecond), Message: "after"}); err != nil {
				t.Fatal(err)
			}
			page, err := c.Services.ListLogs(t.Context(), srv.ProjectID, svc.ServiceID, &dbcloud.LogOptions{Since: bound})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range page.Entries {
				got = append(got, e.Message)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("entries from since (-want +got):\n%s", diff)
			}
		})
	}
}

func allLogs(t *testing.T, c *dbcloud.Client, project, id string) []dbcloud.LogEntry {
	t.Helper()
	var out []dbcloud.LogEntry
	for e, err := range c.Services.AllLogs(t.Context(), project, id, nil) {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}
