package dbcloudtest

import (
	"net/url"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

func TestAppendLogs(t *testing.T) {
	f := newFake(t, config{})
	svc := f.ready(nil)
	before, _ := f.api.logs(svc)
	first := f.logsPage(svc, nil)
	start := f.clock.Now()
	at := start.Add(time.Minute)
	err := f.api.appendLogs(svc,
		NodeLogEntry{LogEntry: dbcloud.LogEntry{Timestamp: at, Severity: "error", Message: "boom"}},
		NodeLogEntry{LogEntry: dbcloud.LogEntry{Timestamp: at, Message: "same instant"}},
		NodeLogEntry{LogEntry: dbcloud.LogEntry{Timestamp: at, Message: "same instant"}},
		NodeLogEntry{LogEntry: dbcloud.LogEntry{Message: "no time: the clock's now, which is older"}})
	if err == nil {
		t.Fatal("an entry older than the newest was accepted")
	}
	if all, _ := f.api.logs(svc); len(all) != len(before) {
		t.Fatalf("a refused batch changed the history: %d entries, want %d", len(all), len(before))
	}
	f.clock.advance(2 * time.Minute)
	if err := f.api.appendLogs(svc,
		NodeLogEntry{LogEntry: dbcloud.LogEntry{Timestamp: at, Severity: "error", Message: "boom"}},
		NodeLogEntry{LogEntry: dbcloud.LogEntry{Timestamp: at, Message: "same instant"}},
		NodeLogEntry{LogEntry: dbcloud.LogEntry{Timestamp: at, Message: "same instant"}, Node: 1},
		NodeLogEntry{LogEntry: dbcloud.LogEntry{Message: "now"}}); err != nil {
		t.Fatal(err)
	}
	all, _ := f.api.logs(svc)
	want := []NodeLogEntry{
		{LogEntry: dbcloud.LogEntry{Timestamp: start.Add(2 * time.Minute), Severity: "LOG", Message: "now"}},
		{LogEntry: dbcloud.LogEntry{Timestamp: at, Severity: "LOG", Message: "same instant"}, Node: 1},
		{LogEntry: dbcloud.LogEntry{Timestamp: at, Severity: "LOG", Message: "same instant"}},
		{LogEntry: dbcloud.LogEntry{Timestamp: at, Severity: "ERROR", Message: "boom"}},
	}
	for i, w := range want {
		if g := all[i]; !g.Timestamp.Equal(w.Timestamp) || g.Severity != w.Severity || g.Message != w.Message || g.Node != w.Node {
			t.Errorf("entry %d = %+v, want %+v", i, g, w)
		}
	}
	// since, filters and a cursor issued before the append all see the new
	// lines consistently.
	got := f.logsPage(svc, url.Values{"since": {at.Format(time.RFC3339Nano)}}).entries
	if len(got) != 4 {
		t.Errorf("since the append's instant: %d entries, want 4", len(got))
	}
	if got := f.logsPage(svc, url.Values{"severities": {"ERROR"}, "since": {at.Format(time.RFC3339Nano)}}).entries; len(got) != 1 || got[0].Message != "boom" {
		t.Errorf("ERROR since the append: %+v", got)
	}
	if first.cursor != "" {
		t.Fatal("setup: the startup lines fill more than a page")
	}
	if p := f.logsPage(svc, nil); len(p.entries) != len(first.entries)+4 {
		t.Errorf("newest page holds %d entries, want %d", len(p.entries), len(first.entries)+4)
	}
	for _, bad := range []NodeLogEntry{{LogEntry: dbcloud.LogEntry{Severity: "DEBUG", Message: "x"}}, {LogEntry: dbcloud.LogEntry{Message: "x"}, Node: -1}} {
		if err := f.api.appendLogs(svc, bad); err == nil {
			t.Errorf("AppendLogs(%+v) accepted", bad)
		}
	}
	if err := f.api.appendLogs("nope", NodeLogEntry{LogEntry: dbcloud.LogEntry{Message: "x"}}); err == nil {
		t.Error("AppendLogs on an unknown service accepted")
	}
}
