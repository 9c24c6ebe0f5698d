package dbcloud_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

// followN follows from after until it has n entries or 10 s pass,
// advancing a copy of the position with each; it returns the entries and
// the position after the last.
func followN(t *testing.T, c *dbcloud.Client, projectID, id string, after *dbcloud.LogPosition, n int) ([]dbcloud.LogEntry, *dbcloud.LogPosition) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	pos := after.Clone()
	var got []dbcloud.LogEntry
	for e, err := range c.Services.FollowLogs(ctx, projectID, id, &dbcloud.LogOptions{After: after, PollInterval: time.Millisecond}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e)
		pos.Advance(e)
		if len(got) == n {
			break
		}
	}
	if len(got) != n {
		t.Fatalf("followed %d entries, want %d", len(got), n)
	}
	return got, pos
}

// A tail, then a follow resumed from the stored position by a new client
// (a restart), stopped midway and resumed again: every entry written after
// the tail comes exactly once, in order, including entries at the tail's
// own last instant, identical lines, and a burst of more than a page.
func TestTailThenFollowResumedAcrossRestartsSeesEveryEntryOnce(t *testing.T) {
	t.Parallel()
	srv, c, id := newLoggedService(t, 1200)
	tail, pos, err := c.Services.TailLogs(t.Context(), srv.ProjectID, id, 10, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tail) != 10 || !tail[9].Timestamp.Equal(pos.Time()) {
		t.Fatalf("tail of %d, position at %v", len(tail), pos.Time())
	}
	token := pos.String()

	last := pos.Time()
	var want []dbcloud.LogEntry
	add := func(es ...dbcloud.LogEntry) {
		if err := srv.AppendLogs(id, es...); err != nil {
			t.Fatal(err)
		}
		want = append(want, es...)
	}
	// At the tail's last instant: a copy of the tail's last line (a second,
	// identical line is a new line) and a new one.
	add(dbcloud.LogEntry{Timestamp: last, Severity: tail[9].Severity, Message: tail[9].Message},
		dbcloud.LogEntry{Timestamp: last, Severity: "ERROR", Message: "same instant as the tail's end"})
	// A burst of 1,234 (more than two pages), with runs of identical lines
	// sharing a timestamp.
	for i := range 1234 {
		at := last.Add(time.Duration(1+i/3) * time.Millisecond)
		add(dbcloud.LogEntry{Timestamp: at, Severity: "LOG", Message: fmt.Sprintf("burst %d", i/2)})
	}

	// Restart: a new client and the stored token.
	resumed, err := dbcloud.ParseLogPosition(token)
	if err != nil {
		t.Fatal(err)
	}
	first, pos2 := followN(t, srv.Client(), srv.ProjectID, id, resumed, 700)

	// Stop midway, in the middle of an instant, and restart once more.
	add(dbcloud.LogEntry{Timestamp: want[len(want)-1].Timestamp, Severity: "WARNING", Message: "after the first follow stopped"})
	again, err := dbcloud.ParseLogPosition(pos2.String())
	if err != nil {
		t.Fatal(err)
	}
	rest, _ := followN(t, srv.Client(), srv.ProjectID, id, again, len(want)-700)

	got := append(first, rest...)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("entries after the tail (-written +followed):\n%s", d)
	}
}

// The last n entries cost no more pages than n needs, and come oldest first.
func TestTailLogsReadsOnlyThePagesNeeded(t *testing.T) {
	t.Parallel()
	srv, c, id := newLoggedService(t, 1700)
	all := collect(t, c.Services.AllLogs(t.Context(), srv.ProjectID, id, nil), nil)
	for _, tc := range []struct{ n, pages int }{{1, 1}, {500, 1}, {501, 2}, {1200, 3}, {100_000, 4}} {
		before := srv.Count("GET", "/projects/*/services/*/logs")
		got, pos, err := c.Services.TailLogs(t.Context(), srv.ProjectID, id, tc.n, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(all[:min(tc.n, len(all))])
		slices.Reverse(want)
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("TailLogs(%d) (-want +got):\n%s", tc.n, d)
		}
		if !pos.Time().Equal(all[0].Timestamp) {
			t.Errorf("TailLogs(%d): position at %v, want the newest entry's %v", tc.n, pos.Time(), all[0].Timestamp)
		}
		if n := srv.Count("GET", "/projects/*/services/*/logs") - before; n != tc.pages {
			t.Errorf("TailLogs(%d): %d requests, want %d", tc.n, n, tc.pages)
		}
	}
	if _, _, err := c.Services.TailLogs(t.Context(), srv.ProjectID, id, 0, nil); !isValidation(err) {
		t.Errorf("TailLogs(0): %v, want a *ValidationError", err)
	}
}

func isValidation(err error) bool {
	_, ok := errors.AsType[*dbcloud.ValidationError](err)
	return ok
}

// MinSeverity keeps that severity and worse: on the wire, one severities
// parameter per level from it up; end to end, only those entries.
func TestMinSeverity(t *testing.T) {
	t.Parallel()
	order := []dbcloud.Severity{dbcloud.SeverityDebug, dbcloud.SeverityLog, dbcloud.SeverityInfo, dbcloud.SeverityNotice,
		dbcloud.SeverityWarning, dbcloud.SeverityError, dbcloud.SeverityFatal, dbcloud.SeverityPanic}
	for i, s := range order {
		for j, m := range order {
			if s.AtLeast(m) != (i >= j) {
				t.Errorf("%s.AtLeast(%s) = %v", s, m, s.AtLeast(m))
			}
		}
	}
	if !dbcloud.Severity("debug2").AtLeast(dbcloud.SeverityDebug) || dbcloud.Severity("CHATTY").AtLeast(dbcloud.SeverityDebug) {
		t.Error("DEBUG2 is a DEBUG; an unknown level is at least nothing")
	}
	if !dbcloud.Severity("error").AtLeast(dbcloud.SeverityWarning) || dbcloud.Severity("warning").AtLeast(dbcloud.SeverityError) {
		t.Error("a level in lower case compares as in upper case")
	}

	c, mt := mockClient(t)
	var got url.Values
	mt.RegisterResponder(http.MethodGet, mockBase+"/projects/p/services/s/logs", func(r *http.Request) (*http.Response, error) {
		got = r.URL.Query()
		return httpmock.NewStringResponse(200, `{"entries":[]}`), nil
	})
	for min, want := range map[dbcloud.Severity][]string{
		dbcloud.SeverityWarning: {"WARNING", "ERROR", "FATAL", "PANIC"},
		dbcloud.SeverityPanic:   {"PANIC"},
		dbcloud.SeverityDebug:   nil, // everything: no filter
		"":                      nil,
	} {
		got = nil
		for _, err := range c.Services.AllLogs(t.Context(), "p", "s", &dbcloud.LogOptions{MinSeverity: min}) {
			t.Fatal(err)
		}
		if d := cmp.Diff(want, got["severities"]); d != "" {
			t.Errorf("MinSeverity %q: severities (-want +got):\n%s", min, d)
		}
	}
	for _, err := range c.Services.AllLogs(t.Context(), "p", "s", &dbcloud.LogOptions{MinSeverity: "LOUD"}) {
		if !isValidation(err) {
			t.Errorf("unknown MinSeverity: %v, want a *ValidationError", err)
		}
	}

	srv, c2, id := newLoggedService(t, 2000)
	entries, _, err := c2.Services.TailLogs(t.Context(), srv.ProjectID, id, 100_000, &dbcloud.LogOptions{MinSeverity: dbcloud.SeverityError})
	if err != nil {
		t.Fatal(err)
	}
	all := collect(t, c2.Services.AllLogs(t.Context(), srv.ProjectID, id, nil), nil)
	var want int
	for _, e := range all {
		if e.Severity.AtLeast(dbcloud.SeverityError) { // LogEntry.Severity is a Severity
			want++
		}
	}
	if len(entries) != want || want == 0 {
		t.Errorf("%d entries ERROR or worse, want %d", len(entries), want)
	}
	for _, e := range entries {
		if !e.Severity.AtLeast(dbcloud.SeverityError) {
			t.Errorf("entry below ERROR: %+v", e)
		}
	}
}

func TestLogPositionText(t *testing.T) {
	t.Parallel()
	var p dbcloud.LogPosition
	if p.String() != "" || !p.IsZero() {
		t.Fatalf("zero position: %q", p.String())
	}
	at := time.Date(2026, 11, 22, 10, 0, 0, 123, time.UTC)
	for _, e := range []dbcloud.LogEntry{{Timestamp: at.Add(-time.Second), Message: "old"}, {Timestamp: at, Message: "a"}, {Timestamp: at, Message: "a"}, {Timestamp: at, Severity: "ERROR", Message: "b"}, {Timestamp: at.Add(-time.Hour), Message: "older: ignored"}} {
		p.Advance(e)
	}
	back, err := dbcloud.ParseLogPosition(p.String())
	if err != nil || back.String() != p.String() || !back.Time().Equal(at) {
		t.Fatalf("round trip: %v, %q vs %q", err, back.String(), p.String())
	}
	type stored struct{ Pos dbcloud.LogPosition }
	b, err := json.Marshal(stored{p})
	var st stored
	if err != nil || json.Unmarshal(b, &st) != nil || st.Pos.String() != p.String() || !strings.Contains(string(b), p.String()) {
		t.Errorf("JSON round trip: %s, %v -> %q", b, err, st.Pos.String())
	}
	for _, bad := range []string{"x", "lp1.", "lp1.!!", "lp1.AAAAAAAAAAAA", p.String() + "AA"} {
		if _, err := dbcloud.ParseLogPosition(bad); !errors.Is(err, dbcloud.ErrBadLogPosition) {
			t.Errorf("ParseLogPosition(%q) = %v, want ErrBadLogPosition", bad, err)
		}
	}
	c, _ := mockClient(t)
	for _, err := range c.Services.FollowLogs(t.Context(), "p", "s", &dbcloud.LogOptions{After: &p, Since: at}) {
		if !isValidation(err) {
			t.Errorf("After and Since: %v, want a *ValidationError", err)
		}
	}
}

// A zero position is the very beginning: a follow from it yields the whole
// history oldest first, then what comes; a follow without one starts after
// what is there.
func TestFollowFromTheBeginning(t *testing.T) {
	t.Parallel()
	srv, c, id := newLoggedService(t, 1100)
	all := collect(t, c.Services.AllLogs(t.Context(), srv.ProjectID, id, nil), nil)
	slices.Reverse(all)
	got, _ := followN(t, c, srv.ProjectID, id, &dbcloud.LogPosition{}, len(all))
	if d := cmp.Diff(all, got); d != "" {
		t.Errorf("follow from the beginning (-history +followed):\n%s", d)
	}
}
