package httpapi

import (
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/logstore"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

type page struct {
	entries []logstore.Entry
	cursor  string
}

// logsPage reads one page and checks its shape: logs and entries agree,
// last_cursor and lastCursor agree, timestamps are RFC 3339.
func (f *fake) logsPage(svc string, q url.Values) page {
	f.T.Helper()
	m := f.Send("GET", f.SvcPath(svc)+"/logs?"+q.Encode(), nil).Must(f.T, 200).Obj(f.T)
	logs, ok1 := m["logs"].([]any)
	entries, ok2 := m["entries"].([]any)
	if !ok1 || !ok2 || len(logs) != len(entries) {
		f.T.Fatalf("logs/entries missing or of different lengths: %v", m)
	}
	var p page
	for i, e := range entries {
		e := e.(map[string]any)
		ts, err := time.Parse(time.RFC3339, e["timestamp"].(string))
		if err != nil {
			f.T.Fatal(err)
		}
		msg, _ := e["message"].(string)
		sev, _ := e["severity"].(string)
		if msg == "" || sev == "" || logs[i] != msg {
			f.T.Fatalf("entry %d: %v, logs[%d] = %v", i, e, i, logs[i])
		}
		p.entries = append(p.entries, logstore.Entry{LogEntry: dbcloud.LogEntry{Timestamp: ts, Severity: dbcloud.Severity(sev), Message: msg}})
	}
	c1, has1 := m["last_cursor"].(string)
	c2, has2 := m["lastCursor"].(string)
	if has1 != has2 || c1 != c2 || (has1 && c1 == "") {
		f.T.Fatalf("last_cursor %v, lastCursor %v", m["last_cursor"], m["lastCursor"])
	}
	p.cursor = c1
	return p
}

// walk follows the cursors with the same filters and returns every page.
func (f *fake) walk(svc string, q url.Values) []page {
	f.T.Helper()
	var pages []page
	q = maps(q)
	for {
		p := f.logsPage(svc, q)
		pages = append(pages, p)
		if p.cursor == "" {
			return pages
		}
		q.Set("cursor", p.cursor)
		if len(pages) > 1000 {
			f.T.Fatal("cursor loop")
		}
	}
}

func maps(q url.Values) url.Values {
	out := url.Values{}
	for k, v := range q {
		out[k] = slices.Clone(v)
	}
	return out
}

func flatten(pages []page) []logstore.Entry {
	var out []logstore.Entry
	for _, p := range pages {
		out = append(out, p.entries...)
	}
	return out
}

// sameEntries compares what the wire showed with the fake's own history
// (which also knows the node, not sent on the wire).
func sameEntries(t *testing.T, got, want []logstore.Entry) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
	for i := range got {
		w := want[i]
		if !got[i].Timestamp.Equal(w.Timestamp) || got[i].Severity != w.Severity || got[i].Message != w.Message {
			t.Fatalf("entry %d: %+v, want %+v", i, got[i], w)
		}
	}
}

func TestLogsPagination(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(nil)
	startup, _ := f.model.Logs(svc)
	if err := f.model.SeedLogs(svc, 1234); err != nil {
		t.Fatal(err)
	}
	all, _ := f.model.Logs(svc)
	if len(all) != 1234+len(startup) {
		t.Fatalf("history has %d entries", len(all))
	}
	for i := 1; i < len(all); i++ {
		if all[i].Timestamp.After(all[i-1].Timestamp) {
			t.Fatalf("history not newest first at %d", i)
		}
	}
	pages := f.walk(svc, nil)
	sizes := []int{}
	for _, p := range pages {
		sizes = append(sizes, len(p.entries))
	}
	if !slices.Equal(sizes, []int{500, 500, 234 + len(startup)}) {
		t.Fatalf("page sizes %v", sizes)
	}
	if pages[0].cursor == "" || pages[1].cursor == "" || pages[2].cursor != "" {
		t.Errorf("cursors %q %q %q", pages[0].cursor, pages[1].cursor, pages[2].cursor)
	}
	sameEntries(t, flatten(pages), all)

	// A cursor of a read with until keeps its place while newer entries
	// arrive and older ones are seeded; one of a read without until is
	// positioned from the newest entry, so the new entry pushes its window
	// back by one and the next page repeats the previous page's oldest entry.
	until := url.Values{"until": {all[0].Timestamp.Add(time.Nanosecond).Format(time.RFC3339Nano)}}
	fixed := f.walk(svc, until)
	f.Send("POST", f.SvcPath(svc)+"/enablePooler", nil).Must(t, 200)
	if err := f.model.SeedLogs(svc, 10); err != nil {
		t.Fatal(err)
	}
	all2, _ := f.model.Logs(svc)
	rest := f.walk(svc, url.Values{"cursor": {fixed[0].cursor}, "until": until["until"]})
	sameEntries(t, flatten(rest), all2[1+500:])
	rest = f.walk(svc, url.Values{"cursor": {pages[0].cursor}})
	sameEntries(t, flatten(rest), all2[500:])
	if rest[0].entries[0] != pages[0].entries[499] {
		t.Errorf("a cursor without until after a new entry: first entry %+v, want the previous page's last %+v", rest[0].entries[0], pages[0].entries[499])
	}
	if all2[0].Message != "connection pooler enabled" {
		t.Errorf("newest entry %q", all2[0].Message)
	}
}

func TestLogsExactPage(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(nil)
	startup, _ := f.model.Logs(svc)
	f.model.SeedLogs(svc, 500-len(startup))
	if p := f.logsPage(svc, nil); len(p.entries) != 500 || p.cursor != "" {
		t.Errorf("exactly 500 entries: got %d, cursor %q", len(p.entries), p.cursor)
	}
	f.model.SeedLogs(svc, 1)
	pages := f.walk(svc, nil)
	if len(pages) != 2 || len(pages[1].entries) != 1 {
		t.Errorf("501 entries gave %d pages", len(pages))
	}
}

func TestLogFilters(t *testing.T) {
	f := newFake(t, Config{Model: model.Config{Seed: 3}})
	svc := f.Ready(map[string]any{"name": "ha", "replica_count": 2})
	if err := f.model.SeedLogs(svc, 2500); err != nil {
		t.Fatal(err)
	}
	all, _ := f.model.Logs(svc)
	since, until := all[2000].Timestamp, all[150].Timestamp
	keep := func(fn func(e logstore.Entry) bool) []logstore.Entry {
		var out []logstore.Entry
		for _, e := range all {
			if fn(e) {
				out = append(out, e)
			}
		}
		return out
	}
	has := func(e logstore.Entry, terms ...string) bool {
		for _, term := range terms {
			if !strings.Contains(strings.ToLower(e.Message), strings.ToLower(term)) {
				return false
			}
		}
		return true
	}
	for _, tc := range []struct {
		name string
		q    url.Values
		want func(logstore.Entry) bool
	}{
		{"severity", url.Values{"severities": {"ERROR"}}, func(e logstore.Entry) bool { return e.Severity == "ERROR" }},
		{"severities any of, any case", url.Values{"severities": {"error", "Fatal"}}, func(e logstore.Entry) bool { return e.Severity == "ERROR" || e.Severity == "FATAL" }},
		{"unknown severity", url.Values{"severities": {"DEBUG"}}, func(logstore.Entry) bool { return false }},
		{"LOG", url.Values{"severities": {"LOG"}}, func(e logstore.Entry) bool { return e.Severity == "LOG" }},
		{"search", url.Values{"search": {"checkpoint"}}, func(e logstore.Entry) bool { return has(e, "checkpoint") }},
		{"search all terms any case", url.Values{"search": {"CHECKPOINT", "Complete"}}, func(e logstore.Entry) bool { return has(e, "checkpoint", "complete") }},
		{"search nothing", url.Values{"search": {"no such text"}}, func(logstore.Entry) bool { return false }},
		{"node 0", url.Values{"node": {"0"}}, func(e logstore.Entry) bool { return e.Node == 0 }},
		{"node 2", url.Values{"node": {"2"}}, func(e logstore.Entry) bool { return e.Node == 2 }},
		{"node 9", url.Values{"node": {"9"}}, func(logstore.Entry) bool { return false }},
		{"since", url.Values{"since": {since.Format(time.RFC3339Nano)}}, func(e logstore.Entry) bool { return !e.Timestamp.Before(since) }},
		{"until", url.Values{"until": {until.Format(time.RFC3339Nano)}}, func(e logstore.Entry) bool { return e.Timestamp.Before(until) }},
		{"since and until", url.Values{"since": {since.Format(time.RFC3339Nano)}, "until": {until.Format(time.RFC3339Nano)}},
			func(e logstore.Entry) bool { return !e.Timestamp.Before(since) && e.Timestamp.Before(until) }},
		{"combined", url.Values{"severities": {"LOG"}, "search": {"connection"}, "node": {"1"}, "since": {since.Format(time.RFC3339Nano)}},
			func(e logstore.Entry) bool {
				return e.Severity == "LOG" && has(e, "connection") && e.Node == 1 && !e.Timestamp.Before(since)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := keep(tc.want)
			pages := f.walk(svc, tc.q)
			for i, p := range pages {
				if len(p.entries) > 500 || (i < len(pages)-1 && len(p.entries) != 500) {
					t.Errorf("page %d has %d entries", i, len(p.entries))
				}
			}
			if wantPages := max(1, (len(want)+499)/500); len(pages) != wantPages {
				t.Errorf("%d pages for %d entries, want %d", len(pages), len(want), wantPages)
			}
			sameEntries(t, flatten(pages), want)
		})
	}
	// The filters above must have had something to find across pages.
	if n := len(keep(func(e logstore.Entry) bool { return e.Severity == "LOG" })); n <= 1000 {
		t.Errorf("only %d LOG entries: the filter test does not cross pages", n)
	}
	for _, sev := range []string{"LOG", "INFO", "WARNING", "ERROR", "FATAL"} {
		if len(keep(func(e logstore.Entry) bool { return string(e.Severity) == sev })) == 0 {
			t.Errorf("no %s entry seeded", sev)
		}
	}
}

func TestLogQueryValidation(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(nil)
	other := f.Ready(nil)
	f.model.SeedLogs(svc, 1000)
	f.model.SeedLogs(other, 1000)
	good := f.logsPage(svc, nil).cursor
	foreign := f.logsPage(other, nil).cursor
	tampered := []byte(good)
	tampered[3] ^= 1
	for _, tc := range []struct {
		query, field string
	}{
		{"node=-1", "node"},
		{"node=x", "node"},
		{"node=1.5", "node"},
		{"node=", "node"},
		{"search=", "search"},
		{"search=%20%20", "search"},
		{"search=ok&search=", "search"},
		{"severities=", "severities"},
		{"severities=%09", "severities"},
		{"since=yesterday", "since"},
		{"since=2026-03-01", "since"},
		{"until=2026-03-01T00:00:00", "until"},
		{"since=2026-03-01T00:00:00Z&until=2026-03-01T00:00:00Z", "until"},
		{"since=2026-03-02T00:00:00Z&until=2026-03-01T00:00:00Z", "until"},
		{"cursor=garbage", "cursor"},
		{"cursor=", "cursor"},
		{"cursor=" + url.QueryEscape(string(tampered)), "cursor"},
		{"cursor=" + url.QueryEscape(foreign), "cursor"},
	} {
		t.Run(tc.query, func(t *testing.T) {
			f.Send("GET", f.SvcPath(svc)+"/logs?"+tc.query, nil).MustError(t, 400, "INVALID_REQUEST", tc.field+": ")
		})
	}
	// A cursor from another fake with another seed is foreign too.
	g := newFake(t, Config{Model: model.Config{Seed: 99}})
	gs := g.Ready(nil)
	g.model.SeedLogs(gs, 1000)
	c := g.logsPage(gs, nil).cursor
	f.Send("GET", f.SvcPath(svc)+"/logs?cursor="+url.QueryEscape(c), nil).MustError(t, 400, "INVALID_REQUEST", "cursor: ")
	f.Send("GET", f.SvcPath("nosuchsvc")+"/logs", nil).MustError(t, 404, "NOT_FOUND", "service")
}

func TestStartupLogs(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(map[string]any{"name": "ts", "addons": []string{"time-series"}, "replica_count": 2})
	all, err := f.model.Logs(svc)
	if err != nil {
		t.Fatal(err)
	}
	sevs := map[string]bool{}
	nodes := map[int]bool{}
	text := ""
	for _, e := range all {
		sevs[string(e.Severity)] = true
		nodes[e.Node] = true
		text += e.Message + "\n"
		if e.Timestamp.After(f.Clock.Now()) {
			t.Errorf("entry from the future: %+v", e)
		}
	}
	for _, s := range []string{"LOG", "INFO", "WARNING", "ERROR", "FATAL"} {
		if !sevs[s] {
			t.Errorf("no %s entry at creation", s)
		}
	}
	if !nodes[0] || !nodes[1] || !nodes[2] || nodes[3] {
		t.Errorf("nodes %v, want 0..2", nodes)
	}
	for _, want := range []string{"database system is ready to accept connections", "checkpoint complete", "connection authorized",
		"duration: ", " ms statement: ", "TimescaleDB", "started streaming WAL"} {
		if !strings.Contains(text, want) {
			t.Errorf("startup logs lack %q:\n%s", want, text)
		}
	}
}

// Each lifecycle event leaves a line.
func TestLifecycleLogs(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(nil)
	vpc := f.VPC()
	newest := func() string {
		t.Helper()
		all, _ := f.model.Logs(svc)
		return all[0].Message
	}
	for _, tc := range []struct {
		op   string
		body any
		want string
	}{
		{"resize", map[string]any{"cpu_millis": "1000", "memory_gbs": "4"}, "reloading configuration"},
		{"setHA", map[string]any{"replica_count": 1}, "high availability changed: 1 replica(s)"},
		{"stop", nil, "database system is shut down"},
		{"start", nil, "ready to accept connections"},
		{"enablePooler", nil, "connection pooler enabled"},
		{"disablePooler", nil, "connection pooler disabled"},
		{"attachToVPC", map[string]any{"vpc_id": vpc}, "attached to VPC " + vpc},
		{"detachFromVPC", map[string]any{"vpc_id": vpc}, "detached from VPC " + vpc},
		{"rename", map[string]any{"name": "renamed"}, "service renamed to renamed"},
		{"updatePassword", map[string]any{"password": "hunter2-hunter2"}, "password of role"},
		{"setEnvironment", map[string]any{"environment": "PROD"}, "environment set to PROD"},
		{"forkService", map[string]any{"fork_strategy": "NOW"}, "service forked into"},
		{"replicaSets", map[string]any{"name": "r", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}, "read replica set rs-"},
	} {
		r := f.Send("POST", f.SvcPath(svc)+"/"+tc.op, tc.body)
		if r.Status >= 300 {
			t.Fatalf("%s: %d %s", tc.op, r.Status, r.Raw)
		}
		if got := newest(); !strings.Contains(got, tc.want) {
			t.Errorf("after %s the newest line is %q, want %q", tc.op, got, tc.want)
		}
		f.Clock.Advance(time.Hour)
	}
	all, _ := f.model.Logs(svc)
	for _, e := range all {
		if strings.Contains(e.Message, "hunter2") {
			t.Errorf("password in the logs: %q", e.Message)
		}
	}
}

func TestSeedLogsLarge(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(nil)
	start := time.Now()
	if err := f.model.SeedLogs(svc, 100_000); err != nil {
		t.Fatal(err)
	}
	p := f.logsPage(svc, url.Values{"search": {"deadlock"}})
	if len(p.entries) == 0 {
		t.Error("no deadlock among 100,000 entries")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("seeding and one filtered page took %v", d)
	}
	if err := f.model.SeedLogs(svc, -1); err == nil {
		t.Error("negative count accepted")
	}
	if err := f.model.SeedLogs("nope", 1); err == nil {
		t.Error("unknown service accepted")
	}
}
