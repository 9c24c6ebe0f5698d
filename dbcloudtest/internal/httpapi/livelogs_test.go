package httpapi

import (
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/logstore"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

func TestSinceInclusiveOrExclusive(t *testing.T) {
	for _, exclusive := range []bool{false, true} {
		f := newFake(t, Config{SinceExclusive: exclusive})
		svc := f.Create(nil)
		at := f.Clock.Now().Add(time.Second)
		f.Clock.Advance(time.Minute)
		err := f.model.AppendLogs(svc,
			logstore.Entry{LogEntry: dbcloud.LogEntry{Timestamp: at, Message: "a"}}, logstore.Entry{LogEntry: dbcloud.LogEntry{Timestamp: at, Message: "b"}},
			logstore.Entry{LogEntry: dbcloud.LogEntry{Timestamp: at.Add(time.Nanosecond), Message: "c"}})
		if err != nil {
			t.Fatal(err)
		}
		since := func(t time.Time) int {
			return len(f.logsPage(svc, url.Values{"since": {t.Format(time.RFC3339Nano)}}).entries)
		}
		want := map[bool]int{false: 3, true: 1}[exclusive]
		if got := since(at); got != want {
			t.Errorf("exclusive=%v: since the lines' instant: %d entries, want %d", exclusive, got, want)
		}
		if got := since(at.Add(-time.Nanosecond)); got != 3 {
			t.Errorf("exclusive=%v: since 1 ns earlier: %d entries, want 3", exclusive, got)
		}
		// The walk stops at the bound on every page, not only the first.
		p := f.logsPage(svc, url.Values{"since": {at.Format(time.RFC3339Nano)}, "search": {"b"}})
		if got := len(p.entries); got != map[bool]int{false: 1, true: 0}[exclusive] || p.cursor != "" {
			t.Errorf("exclusive=%v: filtered since the instant: %d entries, cursor %q", exclusive, got, p.cursor)
		}
	}
}

func TestLogIntervalWritesDueLines(t *testing.T) {
	f := newFake(t, Config{Model: model.Config{LogEvery: time.Second, Seed: 4}})
	svc := f.Create(nil)
	created := f.Clock.Now()
	before, _ := f.model.Logs(svc)
	f.Clock.Advance(10*time.Second + 500*time.Millisecond)
	all, _ := f.model.Logs(svc)
	if len(all) != len(before)+10 {
		t.Fatalf("%d entries after 10.5 s, want %d + 10", len(all), len(before))
	}
	for i, e := range all[:10] {
		if want := created.Add(time.Duration(10-i) * time.Second); !e.Timestamp.Equal(want) || e.Message == "" {
			t.Errorf("line %d: %+v, want one at %v", i, e, want)
		}
	}
	// The same lines over the wire, and nothing more until the next is due.
	if p := f.logsPage(svc, url.Values{"since": {created.Add(time.Second).Format(time.RFC3339)}}); len(p.entries) != 10 {
		t.Errorf("since the first line: %d entries, want 10", len(p.entries))
	}
	f.Clock.Advance(400 * time.Millisecond)
	if again, _ := f.model.Logs(svc); len(again) != len(all) {
		t.Errorf("%d entries before the next line is due, want %d", len(again), len(all))
	}
}

func TestLogRetention(t *testing.T) {
	f := newFake(t, Config{Model: model.Config{LogKeep: 100}})
	svc := f.Create(nil)
	startup, _ := f.model.Logs(svc)
	f.Clock.Advance(time.Second)
	at := f.Clock.Now()
	appendN := func(prefix string, n int) {
		t.Helper()
		es := make([]logstore.Entry, n)
		for i := range es {
			es[i] = logstore.Entry{LogEntry: dbcloud.LogEntry{Timestamp: at, Message: prefix + strconv.Itoa(i)}}
		}
		if err := f.model.AppendLogs(svc, es...); err != nil {
			t.Fatal(err)
		}
	}
	appendN("old", 200-len(startup))
	if all, _ := f.model.Logs(svc); len(all) != 200 {
		t.Fatalf("%d entries at twice the retention, want all 200", len(all))
	}
	appendN("new", 1)
	all, _ := f.model.Logs(svc)
	if len(all) != 100 {
		t.Fatalf("%d entries once over twice the retention, want the newest 100", len(all))
	}
	// Free-text messages survive the compaction, newest first.
	want := []string{"new0"}
	for i := 200 - len(startup) - 1; len(want) < 100; i-- {
		want = append(want, "old"+strconv.Itoa(i))
	}
	for i, e := range all {
		if e.Message != want[i] {
			t.Fatalf("entry %d = %q, want %q", i, e.Message, want[i])
		}
	}

	// A cursor into kept entries still works; one into dropped entries
	// gives an empty page.
	f2 := newFake(t, Config{Model: model.Config{LogKeep: 600, Seed: 1}})
	s2 := f2.Create(nil)
	if err := f2.model.SeedLogs(s2, 1000); err != nil {
		t.Fatal(err)
	}
	c1 := f2.logsPage(s2, nil).cursor                        // at the 501st newest entry
	c2 := f2.logsPage(s2, url.Values{"cursor": {c1}}).cursor // at the 1001st
	if err := f2.model.SeedLogs(s2, 300); err != nil {       // 1,314 entries: over twice 600
		t.Fatal(err)
	}
	if all, _ := f2.model.Logs(s2); len(all) != 600 {
		t.Fatalf("%d entries kept, want 600", len(all))
	}
	if p := f2.logsPage(s2, url.Values{"cursor": {c1}}); len(p.entries) != 100 || p.cursor != "" {
		t.Errorf("cursor into kept entries: %d entries, cursor %q; want the 100 older kept ones", len(p.entries), p.cursor)
	}
	if p := f2.logsPage(s2, url.Values{"cursor": {c2}}); len(p.entries) != 0 || p.cursor != "" {
		t.Errorf("cursor into dropped entries: %d entries, cursor %q; want an empty page", len(p.entries), p.cursor)
	}
}

// A clock that jumps far ahead writes only the lines retention keeps.
func TestLogIntervalAfterAJump(t *testing.T) {
	f := newFake(t, Config{Model: model.Config{LogEvery: time.Millisecond, LogKeep: 50}})
	svc := f.Create(nil)
	f.Clock.Advance(24 * time.Hour)
	all, _ := f.model.Logs(svc)
	now := f.Clock.Now()
	if len(all) <= 50 || !all[0].Timestamp.Equal(now) || !all[49].Timestamp.Equal(now.Add(-49*time.Millisecond)) ||
		all[50].Timestamp.After(now.Add(-24*time.Hour)) {
		t.Fatalf("%d entries: want the 50 newest ending now (%v), then the startup lines", len(all), now)
	}
}
