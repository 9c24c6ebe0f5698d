package dbcloud_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
	gocmp "github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

const logsPattern = "/projects/*/services/*/logs"

// serviceWithLogs creates a service on the fake whose history holds exactly
// n entries.
func serviceWithLogs(t *testing.T, c *dbcloud.Client, srv *dbcloudtest.Server, n int) string {
	t.Helper()
	svc := fixture.CreateReady(t, c, srv.ProjectID, "db")
	held, err := srv.Logs(svc.ServiceID)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.SeedLogs(svc.ServiceID, n-len(held)); err != nil {
		t.Fatal(err)
	}
	srv.ResetRequests()
	return svc.ServiceID
}

func TestAllLogsReadsWholeHistoryInOrder(t *testing.T) {
	t.Parallel()
	c, srv := fixture.NewFake(t, []dbcloudtest.Option{dbcloudtest.WithSeed(7)})
	id := serviceWithLogs(t, c, srv, 1234)

	got := collect(t, c.Services.AllLogs(t.Context(), srv.ProjectID, id, nil), nil)
	want, err := srv.Logs(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 1234 {
		t.Fatalf("the fake holds %d entries, want 1234", len(want))
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Timestamp.After(got[i-1].Timestamp) {
			t.Fatalf("entry %d is newer than entry %d: not newest first", i, i-1)
		}
	}
	if n := srv.Count("GET", logsPattern); n != 3 {
		t.Errorf("requests = %d, want 3 (500 + 500 + 234)", n)
	}
}

func TestAllLogsBreakCostsOneRequest(t *testing.T) {
	t.Parallel()
	c, srv := fixture.NewFake(t, nil)
	id := serviceWithLogs(t, c, srv, 1500)
	for _, err := range c.Services.AllLogs(t.Context(), srv.ProjectID, id, nil) {
		if err != nil {
			t.Fatal(err)
		}
		break
	}
	if n := srv.Count("GET", logsPattern); n != 1 {
		t.Errorf("requests = %d, want 1", n)
	}
}

// Filters are sent on every page, beside the cursor, and the fake applies
// them consistently across pages.
func TestAllLogsFiltersOnEveryPage(t *testing.T) {
	t.Parallel()
	c, srv := fixture.NewFake(t, []dbcloudtest.Option{dbcloudtest.WithSeed(3)})
	id := serviceWithLogs(t, c, srv, 5000)
	opts := &dbcloud.LogOptions{Severities: []string{"WARNING", "ERROR"}, Node: new(0)}
	got := collect(t, c.Services.AllLogs(t.Context(), srv.ProjectID, id, opts), nil)
	held, _ := srv.NodeLogs(id)
	var want []dbcloud.LogEntry
	for _, e := range held {
		if e.Node == 0 && (e.Severity == "WARNING" || e.Severity == "ERROR") {
			want = append(want, e.LogEntry)
		}
	}
	if len(want) <= 500 {
		t.Fatalf("only %d matching entries: the test needs several pages", len(want))
	}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("filtered entries (-want +got):\n%s", diff)
	}
	if opts.Cursor != "" {
		t.Errorf("AllLogs changed the caller's options: Cursor = %q", opts.Cursor)
	}
}

// logsPage renders a logs response in the deprecated or current form.
func logsPage(deprecated bool, cursor string, msgs ...string) string {
	var entries, logs []string
	for _, m := range msgs {
		logs = append(logs, fmt.Sprintf("%q", m))
		entries = append(entries, fmt.Sprintf(`{"message":%q,"severity":"LOG","timestamp":"2026-11-22T10:00:00Z"}`, m))
	}
	body := `{"logs":[` + strings.Join(logs, ",") + `]`
	if !deprecated {
		body += `,"entries":[` + strings.Join(entries, ",") + `]`
	}
	if cursor != "" {
		name := "last_cursor"
		if deprecated {
			name = "lastCursor"
		}
		body += fmt.Sprintf(`,%q:%q`, name, cursor)
	}
	return body + "}"
}

// scriptedLogs serves pages by cursor ("" = the first) and records the
// queries it saw. A request with until and no cursor, which AllLogs sends
// for its second page to fix its window, is served the page the first
// page's cursor names, as a server whose history does not change would.
func scriptedLogs(t *testing.T, pages map[string]httpmock.Responder) (*dbcloud.Client, *[]url.Values) {
	c, mt := mockClient(t, dbcloud.WithRetryMax(0))
	var queries []url.Values
	var firstCursor string
	mt.RegisterResponder("GET", serviceURL+"/logs", func(req *http.Request) (*http.Response, error) {
		q := req.URL.Query()
		queries = append(queries, q)
		key := q.Get("cursor")
		if key == "" && q.Has("until") {
			key = firstCursor
		}
		if key == "" {
			if resp, err := pages[""](req); err == nil {
				body, _ := io.ReadAll(resp.Body)
				var cur struct {
					Current string `json:"last_cursor"`
					Legacy  string `json:"lastCursor"`
				}
				_ = json.Unmarshal(body, &cur)
				firstCursor = cmp.Or(cur.Current, cur.Legacy)
				resp.Body = io.NopCloser(bytes.NewReader(body))
				return resp, nil
			}
		}
		r, ok := pages[key]
		if !ok {
			t.Errorf("unexpected cursor %q", q.Get("cursor"))
			return httpmock.NewStringResponse(400, ""), nil
		}
		return r(req)
	})
	return c, &queries
}

func messages(t *testing.T, seq func(func(dbcloud.LogEntry, error) bool)) ([]string, []error) {
	var msgs []string
	var errs []error
	for e, err := range seq {
		if err != nil {
			errs = append(errs, err)
			continue // a correct iterator stops by itself after an error
		}
		msgs = append(msgs, e.Message)
	}
	return msgs, errs
}

func TestAllLogsDeprecatedOnlyResponses(t *testing.T) {
	t.Parallel()
	c, queries := scriptedLogs(t, map[string]httpmock.Responder{
		"":   httpmock.NewStringResponder(200, logsPage(true, "c1", "third", "second")),
		"c1": httpmock.NewStringResponder(200, logsPage(true, "", "first")),
	})
	msgs, errs := messages(t, c.Services.AllLogs(t.Context(), "p1", "s1", nil))
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if diff := gocmp.Diff([]string{"third", "second", "first"}, msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if len(*queries) != 2 {
		t.Errorf("requests = %d, want 2", len(*queries))
	}
}

// A server whose cursors lead back to a request already made ends the read
// with ErrRepeatedCursor. A request is its cursor and its window: the
// second page, asked for with until and no cursor, is a request of its own,
// so cursor A there and cursor A in the fixed window are two requests; the
// repeat is caught before the same cursor is sent in the same window again.
func TestAllLogsRepeatingCursorIsAnError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		pages    map[string]httpmock.Responder
		requests int
	}{
		// "", then until: A, then (A, until) answered A again.
		{"same cursor again", map[string]httpmock.Responder{
			"":  httpmock.NewStringResponder(200, logsPage(false, "A", "m1")),
			"A": httpmock.NewStringResponder(200, logsPage(false, "A", "m2")),
		}, 3},
		// "", then until: B, then (B, until), (A, until), and (B, until)
		// again, caught when (A, until) comes round once more.
		{"a longer cycle", map[string]httpmock.Responder{
			"":  httpmock.NewStringResponder(200, logsPage(false, "A", "m1")),
			"A": httpmock.NewStringResponder(200, logsPage(false, "B", "m2")),
			"B": httpmock.NewStringResponder(200, logsPage(false, "A", "m3")),
		}, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, queries := scriptedLogs(t, tc.pages)
			msgs, errs := messages(t, c.Services.AllLogs(t.Context(), "p1", "s1", nil))
			if len(errs) != 1 || !errors.Is(errs[0], dbcloud.ErrRepeatedCursor) {
				t.Fatalf("errors = %v, want one ErrRepeatedCursor", errs)
			}
			if len(msgs) != tc.requests || len(*queries) != tc.requests {
				t.Errorf("got %d entries in %d requests, want %d of each", len(msgs), len(*queries), tc.requests)
			}
		})
	}
}

func TestAllLogsErrorMidwayIsYieldedOnce(t *testing.T) {
	t.Parallel()
	c, _ := scriptedLogs(t, map[string]httpmock.Responder{
		"":   httpmock.NewStringResponder(200, logsPage(false, "c1", "m1", "m2")),
		"c1": httpmock.NewStringResponder(404, `{"code":"NOT_FOUND","message":"service deleted"}`),
	})
	var events []string
	for e, err := range c.Services.AllLogs(t.Context(), "p1", "s1", nil) {
		if err != nil {
			if !errors.Is(err, dbcloud.ErrNotFound) || e != (dbcloud.LogEntry{}) {
				t.Errorf("yielded %+v, %v; want a zero entry and the 404", e, err)
			}
			events = append(events, "error")
			continue
		}
		events = append(events, e.Message)
	}
	if diff := gocmp.Diff([]string{"m1", "m2", "error"}, events); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}

func TestAllLogsStopsWhenContextEnds(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	c, queries := scriptedLogs(t, map[string]httpmock.Responder{
		"": httpmock.NewStringResponder(200, logsPage(false, "c1", "m1")),
	})
	var errs []error
	for _, err := range c.Services.AllLogs(ctx, "p1", "s1", nil) {
		cancel()
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) != 1 || !errors.Is(errs[0], context.Canceled) || len(*queries) != 1 {
		t.Errorf("errors = %v after %d requests, want one context.Canceled after 1", errs, len(*queries))
	}
}

// ListLogs resumes from a cursor: two pages read one at a time equal the
// whole history read by AllLogs.
func TestListLogsResumesFromCursor(t *testing.T) {
	t.Parallel()
	c, srv := fixture.NewFake(t, nil)
	id := serviceWithLogs(t, c, srv, 700)
	ctx, p := t.Context(), srv.ProjectID
	first, err := c.Services.ListLogs(ctx, p, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Entries) != 500 || first.NextCursor == "" {
		t.Fatalf("first page: %d entries, cursor %q", len(first.Entries), first.NextCursor)
	}
	second, err := c.Services.ListLogs(ctx, p, id, &dbcloud.LogOptions{Cursor: first.NextCursor})
	if err != nil {
		t.Fatal(err)
	}
	if len(second.Entries) != 200 || second.NextCursor != "" {
		t.Fatalf("second page: %d entries, cursor %q", len(second.Entries), second.NextCursor)
	}
	all := collect(t, c.Services.AllLogs(ctx, p, id, nil), nil)
	if diff := gocmp.Diff(all, append(first.Entries, second.Entries...)); diff != "" {
		t.Errorf("pages vs AllLogs (-all +pages):\n%s", diff)
	}
}

// newLoggedService returns a server and a READY service with n seeded log
// entries besides its startup lines.
func newLoggedService(t *testing.T, n int, opts ...dbcloudtest.Option) (*dbcloudtest.Server, *dbcloud.Client, string) {
	t.Helper()
	c, srv := fixture.NewFake(t, opts)
	svc := fixture.CreateReady(t, c, srv.ProjectID, "orders")
	if err := srv.SeedLogs(svc.ServiceID, n); err != nil {
		t.Fatal(err)
	}
	return srv, c, svc.ServiceID
}

func collect(t *testing.T, seq func(func(dbcloud.LogEntry, error) bool), between func(i int)) []dbcloud.LogEntry {
	t.Helper()
	var out []dbcloud.LogEntry
	for e, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
		if between != nil {
			between(len(out))
		}
	}
	return out
}

// Entries written while AllLogs reads (here after each page) come neither
// in the read nor twice: the dbcloudtest server, like the live service,
// positions a cursor of a read without until from its newest entry, so
// without a fixed window each new entry repeats one on the next page.
func TestAllLogsEntriesArrivingBetweenPagesComeOnce(t *testing.T) {
	t.Parallel()
	srv, c, id := newLoggedService(t, 1700)
	want := collect(t, c.Services.AllLogs(t.Context(), srv.ProjectID, id, nil), nil)
	if len(want) <= 3*dbcloud.MaxLogPage {
		t.Fatalf("history of %d entries, want more than 3 pages", len(want))
	}
	before := srv.Count("GET", "/projects/*/services/*/logs")
	got := collect(t, c.Services.AllLogs(t.Context(), srv.ProjectID, id, nil), func(i int) {
		if i%dbcloud.MaxLogPage == 0 { // the page is done; the next is not asked for yet
			for j := range 3 {
				if err := srv.AppendLogs(id, dbcloud.LogEntry{Severity: "LOG", Message: fmt.Sprintf("written during the read %d.%d", i, j)}); err != nil {
					t.Fatal(err)
				}
			}
			srv.Advance(time.Millisecond)
		}
	})
	if d := gocmp.Diff(want, got); d != "" {
		t.Errorf("AllLogs with entries arriving between pages (-before +during):\n%s", d)
	}
	if n, pages := srv.Count("GET", "/projects/*/services/*/logs")-before, (len(want)+dbcloud.MaxLogPage-1)/dbcloud.MaxLogPage; n != pages {
		t.Errorf("%d requests for %d pages, want one a page", n, pages)
	}
}

// A page of 350,000 entries in 1 MiB (the API sends at most 500) is a
// malformed answer, refused before its entries are decoded: the read
// allocates about the body, not 350,000 entries (some 20 MiB and more).
func TestLogsPageOverTheLimitIsRefusedUndecoded(t *testing.T) {
	for _, field := range []string{"entries", "logs"} {
		t.Run(field, func(t *testing.T) {
			c, mt := mockClient(t, dbcloud.WithRetryMax(0))
			elem := `{}`
			if field == "logs" {
				elem = `""`
			}
			body := `{"` + field + `":[` + strings.Repeat(elem+",", 349_999) + elem + `]}`
			mt.RegisterResponder(http.MethodGet, mockBase+"/projects/p/services/s/logs", httpmock.NewStringResponder(200, body))

			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			page, err := c.Services.ListLogs(t.Context(), "p", "s", nil)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, dbcloud.ErrInvalidResponse) || !strings.Contains(err.Error(), "more than 500 entries") {
				t.Fatalf("ListLogs = %d entries, %v; want an error matching ErrInvalidResponse naming the limit", entriesOf(page), err)
			}
			if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(6*len(body)); got > limit {
				t.Errorf("reading the page allocated %d bytes, want at most %d (6x the %d-byte body)", got, limit, len(body))
			}
		})
	}
}

// A page of exactly 500 entries, with commas and brackets inside the
// strings, is a page.
func TestLogsPageAtTheLimitIsDecoded(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t)
	e := `{"timestamp":"2026-03-04T05:06:07Z","severity":"LOG","message":"a, [b], {c}, \"d,\" e\\"}`
	body := `{"entries":[` + strings.Repeat(e+",", 499) + e + `],"last_cursor":"c"}`
	mt.RegisterResponder(http.MethodGet, mockBase+"/projects/p/services/s/logs", httpmock.NewStringResponder(200, body))
	page, err := c.Services.ListLogs(t.Context(), "p", "s", nil)
	if err != nil || len(page.Entries) != 500 || page.Entries[499].Message != `a, [b], {c}, "d," e\` {
		t.Fatalf("ListLogs = %d entries, %v; want 500", entriesOf(page), err)
	}
}

func entriesOf(p *dbcloud.LogPage) int {
	if p == nil {
		return 0
	}
	return len(p.Entries)
}
