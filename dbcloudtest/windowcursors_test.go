package dbcloudtest_test

import (
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/google/go-cmp/cmp"
)

// With WithWindowCursors a cursor is a depth within its window: two windows
// read to the same depth hand out the same text, each meaning its own
// place; following the cursors within one window reads it whole and once,
// and the SDK reads the whole history through such cursors.
func TestWindowCursors(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithWindowCursors())
	c := srv.Client()
	svc, held := createSeeded(t, srv, c, 1234)

	// Two windows: before the newest entry, and before the 100th newest.
	var cursors []string
	for _, edge := range []int{0, 99} {
		until := held[edge].Timestamp
		var got []dbcloud.LogEntry
		opts := &dbcloud.LogOptions{Until: until}
		for {
			page, err := c.Services.ListLogs(t.Context(), srv.ProjectID, svc.ServiceID, opts)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, page.Entries...)
			if opts.Cursor == "" {
				cursors = append(cursors, page.NextCursor)
			}
			if page.NextCursor == "" {
				break
			}
			opts.Cursor = page.NextCursor
		}
		want := entriesBefore(held, until)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("window before %v (-held +read):\n%s", until, diff)
		}
	}
	if cursors[0] != cursors[1] || cursors[0] == "" {
		t.Errorf("first cursors of two windows: %q and %q, want the same text", cursors[0], cursors[1])
	}

	read := allLogs(t, c, srv.ProjectID, svc.ServiceID)
	if diff := cmp.Diff(held, read); diff != "" {
		t.Errorf("AllLogs through window cursors (-held +read):\n%s", diff)
	}
}

// entriesBefore is what a read bounded by until returns, newest first.
func entriesBefore(held []dbcloud.LogEntry, until time.Time) []dbcloud.LogEntry {
	var out []dbcloud.LogEntry
	for _, e := range held {
		if e.Timestamp.Before(until) {
			out = append(out, e)
		}
	}
	return out
}
