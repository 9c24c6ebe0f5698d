package dbcloudtest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/leakcheck"
)

// A follower started before the lines are written gets every line AppendLogs
// adds, in order and once: a burst of 1,234 (three pages), then 50 sharing one
// instant, some identical.
func TestFollowLogsSeesAppendedLines(t *testing.T) {
	leakcheck.Check(t)
	srv := dbcloudtest.NewServer()
	defer srv.Close()
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
			got <- e
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
		e, ok := <-got
		if !ok {
			t.Fatalf("the follow ended after %d lines: %v", i, <-done)
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
