package httpapi

import (
	"net/url"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/logstore"
)

func TestAppendLogs(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(nil)
	before, _ := f.model.Logs(svc)
	first := f.logsPage(svc, nil)
	start := f.Clock.Now()
	at := start.Add(time.Minute)
	f.Clock.Advance(2 * time.Minute)
	if err := f.model.AppendLogs(svc,
		logstore.Entry{LogEntry: dbcloud.LogEntry{Timestamp: at, Severity: "error", Message: "boom"}},
		logstore.Entry{LogEntry: dbcloud.LogEntry{Timestamp: at, Message: "same instant"}},
		logstore.Entry{LogEntry: dbcloud.LogEntry{Timestamp: at, Message: "same instant"}, Node: 1},
		logstore.Entry{LogEntry: dbcloud.LogEntry{Message: "now"}}); err != nil {
		t.Fatal(err)
	}
	all, _ := f.model.Logs(svc)
	if len(all) != len(before)+4 {
		t.Fatalf("%d entries after the append, want %d", len(all), len(before)+4)
	}
	want := []logstore.Entry{
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
	for _, bad := range []logstore.Entry{{LogEntry: dbcloud.LogEntry{Severity: "DEBUG3", Message: "x"}}, {LogEntry: dbcloud.LogEntry{Message: "x"}, Node: -1}} {
		if err := f.model.AppendLogs(svc, bad); err == nil {
			t.Errorf("AppendLogs(%+v) accepted", bad)
		}
	}
	if err := f.model.AppendLogs("nope", logstore.Entry{LogEntry: dbcloud.LogEntry{Message: "x"}}); err == nil {
		t.Error("AppendLogs on an unknown service accepted")
	}
}

// Entries go where their timestamps put them: before the service's first
// lines (a cursor handed out before stays valid and reaches them), between
// two lines, and out of order within one call.
func TestAppendLogsAnyTime(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(nil)
	if err := f.model.SeedLogs(svc, 700); err != nil {
		t.Fatal(err)
	}
	before, _ := f.model.Logs(svc)
	oldest := before[len(before)-1].Timestamp
	first := f.logsPage(svc, nil)
	if first.cursor == "" {
		t.Fatal("setup: one page holds the whole history")
	}
	window := url.Values{"until": {before[0].Timestamp.Add(time.Hour).Format(time.RFC3339Nano)}}
	firstInWindow := f.logsPage(svc, window)
	early := oldest.Add(-time.Hour)
	between := before[10].Timestamp.Add(-time.Nanosecond) // older than the 11th newest, newer than the 12th
	if err := f.model.AppendLogs(svc,
		logstore.Entry{LogEntry: dbcloud.LogEntry{Timestamp: between, Message: "between"}},
		logstore.Entry{LogEntry: dbcloud.LogEntry{Timestamp: early.Add(time.Second), Message: "early 2"}},
		logstore.Entry{LogEntry: dbcloud.LogEntry{Timestamp: early, Message: "early 1"}}); err != nil {
		t.Fatal(err)
	}
	all, _ := f.model.Logs(svc)
	if len(all) != len(before)+3 {
		t.Fatalf("%d entries, want %d", len(all), len(before)+3)
	}
	for i := 1; i < len(all); i++ {
		if all[i].Timestamp.After(all[i-1].Timestamp) {
			t.Fatalf("entry %d (%s) is newer than entry %d (%s)", i, all[i].Timestamp, i-1, all[i-1].Timestamp)
		}
	}
	if all[11].Message != "between" || all[len(all)-2].Message != "early 2" || all[len(all)-1].Message != "early 1" {
		t.Errorf("entries 11, -2, -1 = %q, %q, %q; want between, early 2, early 1", all[11].Message, all[len(all)-2].Message, all[len(all)-1].Message)
	}
	// The cursor of the first page, issued before, walks on to the end, which
	// now holds the early lines.
	var rest []logstore.Entry
	for c := first.cursor; c != ""; {
		p := f.logsPage(svc, url.Values{"cursor": {c}})
		rest, c = append(rest, p.entries...), p.cursor
	}
	// It reads every entry but "between", placed among those the walk had
	// read, and at most one entry twice: "between", newer than the page
	// boundary, moved the boundary by one place.
	count := map[logstore.Entry]int{}
	for _, e := range append(first.entries, rest...) {
		count[e]++
	}
	for _, e := range all {
		if e.Message != "between" {
			count[e]--
		}
	}
	extra := 0
	for e, n := range count {
		if n < 0 {
			t.Errorf("the walk begun before the append missed %+v", e)
		}
		extra += n
	}
	if extra > 1 {
		t.Errorf("the walk read %d entries more than once, want at most 1", extra)
	}
	// A walk with until has cursors that name entries: it reads every entry
	// but "between" exactly once, the early lines included.
	inWindow := firstInWindow.entries
	for c := firstInWindow.cursor; c != ""; {
		q := url.Values{"until": window["until"], "cursor": {c}}
		p := f.logsPage(svc, q)
		inWindow, c = append(inWindow, p.entries...), p.cursor
	}
	if want := len(all) - 1; len(inWindow) != want || inWindow[len(inWindow)-1].Message != "early 1" {
		t.Errorf("the walk with until read %d entries ending with %q, want %d ending with early 1", len(inWindow), inWindow[len(inWindow)-1].Message, want)
	}
	if got := rest[len(rest)-1].Message; got != "early 1" {
		t.Errorf("the walk ends with %q, want early 1", got)
	}
}
