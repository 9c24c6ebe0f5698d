package dbcloud_test

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

// A burst of more than two pages between two polls arrives whole, oldest
// first, in one poll of four requests: three pages walked back to the mark,
// and the middle one read again.
func TestFollowLogsBurstBetweenPolls(t *testing.T) {
	t.Parallel()
	forBothSinceModes(t, func(t *testing.T, opts []dbcloudtest.Option) {
		f, p := followFromNow(t, opts)
		f.expectOnly(p, f.add(dbcloud.LogEntry{Timestamp: f.now(), Message: "first"}))

		// The follow is suspended in its poll, yielding the sentinel: the
		// burst lands between two polls.
		burst := f.add(numbered(f.now(), "burst ", 1234)...)
		before := f.requests()
		if diff := cmp.Diff(burst, p.take(len(burst))); diff != "" {
			t.Fatalf("burst (-want +got):\n%s", diff)
		}
		if n := f.requests() - before; n != 4 {
			t.Errorf("the burst took %d requests, want 4 (3 pages walked, 1 read again)", n)
		}
		f.expectOnly(p, nil)
	})
}

// Since is where a follow starts, entries at its instant included: the
// history after it arrives oldest first, however many pages, then new lines.
func TestFollowLogsFromSince(t *testing.T) {
	t.Parallel()
	forBothSinceModes(t, func(t *testing.T, opts []dbcloudtest.Option) {
		f := newFollowFixture(t, append(opts, dbcloudtest.WithSeed(11)))
		if err := f.srv.SeedLogs(f.service, 3000); err != nil {
			t.Fatal(err)
		}
		held, err := f.srv.Logs(f.service)
		if err != nil {
			t.Fatal(err)
		}
		since := held[1700].Timestamp
		var want []dbcloud.LogEntry
		for _, e := range slices.Backward(held) {
			if !e.Timestamp.Before(since) {
				want = append(want, e)
			}
		}
		p := f.follow(dbcloud.LogOptions{Since: since})
		f.expectOnly(p, want)
	})
}

func TestFollowLogsSameInstant(t *testing.T) {
	t.Parallel()
	// fifty returns 50 lines at one instant, 14 distinct: 7 messages, each
	// in two severities.
	fifty := func(at time.Time, prefix string) []dbcloud.LogEntry {
		out := make([]dbcloud.LogEntry, 50)
		for i := range out {
			out[i] = dbcloud.LogEntry{Timestamp: at, Severity: []dbcloud.Severity{"LOG", "ERROR"}[i/7%2], Message: prefix + "same " + strings.Repeat("x", i%7)}
		}
		return out
	}
	forBothSinceModes(t, func(t *testing.T, opts []dbcloudtest.Option) {
		t.Run("one poll", func(t *testing.T) {
			f, p := followFromNow(t, opts)
			f.expectOnly(p, f.add(fifty(f.now(), "")...))
		})
		t.Run("straddling a page boundary", func(t *testing.T) {
			f, p := followFromNow(t, opts)
			f.expectOnly(p, f.add(dbcloud.LogEntry{Timestamp: f.now(), Message: "first"}))
			// Newest first, the first page holds the 480 newer lines and 20
			// of the fifty; the second, the other 30 and the sentinel.
			want := f.add(fifty(f.now(), "")...)
			want = append(want, f.add(numbered(f.now(), "newer ", 480)...)...)
			f.expectOnly(p, want)
		})
		t.Run("the same instant in a later poll", func(t *testing.T) {
			f, p := followFromNow(t, opts)
			at := f.now()
			lines := fifty(at, "")
			want := f.add(lines[:30]...)
			if diff := cmp.Diff(want, p.take(30)); diff != "" {
				t.Fatalf("first 30 (-want +got):\n%s", diff)
			}
			// The next poll reads the 30 again with 20 more, identical to
			// some of them: it must yield exactly the 20.
			f.expectOnly(p, f.add(lines[30:]...))
		})
		t.Run("the same instant while a poll is yielding", func(t *testing.T) {
			f, p := followFromNow(t, opts)
			at := f.now()
			lines := fifty(at, "")
			want := f.add(lines[:25]...)
			got := p.take(10)
			want = append(want, f.add(lines[25:]...)...)
			f.expectOnly(p, want[10:])
			if diff := cmp.Diff(want[:10], got); diff != "" {
				t.Fatalf("first 10 (-want +got):\n%s", diff)
			}
		})
		t.Run("more than a page at one instant", func(t *testing.T) {
			f, p := followFromNow(t, opts)
			at := f.now()
			var lines []dbcloud.LogEntry
			for i := range 24 {
				lines = append(lines, fifty(at, strings.Repeat("+", i%3))...)
			}
			want := f.add(lines[:700]...)
			if diff := cmp.Diff(want, p.take(700)); diff != "" {
				t.Fatalf("first 700 (-want +got):\n%s", diff)
			}
			f.expectOnly(p, f.add(lines[700:]...))
		})
	})
}

// Search, Severities and Node are sent on every request, and the follow
// yields exactly the lines that match them, across pages.
func TestFollowLogsFilters(t *testing.T) {
	t.Parallel()
	forBothSinceModes(t, func(t *testing.T, opts []dbcloudtest.Option) {
		f := newFollowFixture(t, opts)
		filter := dbcloud.LogOptions{Since: f.srv.Now(), Search: []string{"Alpha"}, Severities: []string{"error", "WARNING"}, Node: new(1)}
		matches := func(l dbcloudtest.NodeLogEntry) bool {
			return strings.Contains(l.Message, "alpha") && (l.Severity == "ERROR" || l.Severity == "WARNING") && l.Node == 1
		}
		p := f.follow(filter)
		lines := func(n int) []dbcloudtest.NodeLogEntry {
			at := f.now()
			out := make([]dbcloudtest.NodeLogEntry, n)
			for i := range out {
				out[i] = dbcloudtest.NodeLogEntry{LogEntry: dbcloud.LogEntry{
					Timestamp: at.Add(time.Duration(i/4) * time.Microsecond),
					Severity:  []dbcloud.Severity{"LOG", "ERROR", "WARNING"}[i%3],
					Message:   []string{"alpha ", "beta "}[i/3%2] + strconv.Itoa(i),
				}, Node: i / 6 % 2}
			}
			return out
		}
		for _, n := range []int{7, 6000, 40} { // 6,000 lines hold 1,000 matches: more than a page
			all := lines(n)
			if err := f.srv.AppendNodeLogs(f.service, all...); err != nil {
				t.Fatal(err)
			}
			var want []dbcloud.LogEntry
			for _, l := range all {
				if matches(l) {
					want = append(want, l.LogEntry)
				}
			}
			if diff := cmp.Diff(want, p.take(len(want))); diff != "" {
				t.Fatalf("%d lines: followed (-want +got):\n%s", n, diff)
			}
		}
		// Nothing else was pending: the next match is the next entry.
		last := []dbcloud.LogEntry{{Timestamp: f.now(), Severity: "ERROR", Message: "alpha last"}}
		if err := f.srv.AppendNodeLogs(f.service, dbcloudtest.NodeLogEntry{LogEntry: last[0], Node: 1}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(last, p.take(1)); diff != "" {
			t.Fatalf("last (-want +got):\n%s", diff)
		}
	})
}

// wantQuery lets the follow's next logs request through the gate, waits
// until it is answered and checks it: its since parameter ("" = none) and
// whether it carries a cursor.
//
// cursor says the request continues a walk: the second page of a walk is
// asked for with until and no cursor (the window is fixed, see AllLogs), the
// later ones with both.
func wantQuery(t *testing.T, g *gate, since string, cursor bool) {
	t.Helper()
	if q := g.pass(t); q.Get("since") != since || q.Has("until") != cursor {
		t.Fatalf("request %v; want since %q, continuing a walk %v", q, since, cursor)
	}
}

// receive returns the next n entries a background follow yields.
func receive(t *testing.T, ch <-chan followed, n int) []dbcloud.LogEntry {
	t.Helper()
	var out []dbcloud.LogEntry
	for len(out) < n {
		select {
		case r, ok := <-ch:
			if !ok || r.err != nil {
				t.Fatalf("after %d of %d entries: ended %v, error %v", len(out), n, !ok, r.err)
			}
			out = append(out, r.entry)
		case <-time.After(followGuard):
			t.Fatalf("%d of %d entries", len(out), n)
		}
	}
	return out
}

// noEntry checks that a background follow has yielded nothing more: once
// its next request has come to the gate, everything the requests before it
// found has been yielded.
func noEntry(t *testing.T, g *gate, ch <-chan followed) {
	t.Helper()
	g.arrived(t)
	select {
	case r := <-ch:
		t.Fatalf("unexpected %+v", r)
	default:
	}
}

func sinceParam(mark time.Time) string {
	return mark.Add(-time.Nanosecond).UTC().Format(time.RFC3339Nano)
}

// Without Since, a follow starts after what the API holds at its first
// poll, by the server's clock (the fake's is 25 years behind the machine's):
// lines already there are not yielded, also identical lines at the newest
// instant, and lines written later are, also at that instant. A poll that
// finds nothing new is one request; one that finds 1,234 lines is four.
func TestFollowLogsStartsAfterWhatIsThere(t *testing.T) {
	t.Parallel()
	forBothSinceModes(t, func(t *testing.T, opts []dbcloudtest.Option) {
		f, reqs := gatedFixture(t, opts)
		newest := f.now()
		same := dbcloud.LogEntry{Timestamp: newest, Severity: "WARNING", Message: "same"}
		f.add(same, same, same)

		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		ch := f.background(ctx, dbcloud.LogOptions{})
		wantQuery(t, reqs, "", false) // the start: the newest page
		for range 5 {
			wantQuery(t, reqs, sinceParam(newest), false) // idle polls: one request each
		}
		noEntry(t, reqs, ch)

		want := f.add(same, same, dbcloud.LogEntry{Timestamp: newest, Severity: "LOG", Message: "same"})
		wantQuery(t, reqs, sinceParam(newest), false)
		if diff := cmp.Diff(want, receive(t, ch, 3)); diff != "" {
			t.Fatalf("lines at the start's instant (-want +got):\n%s", diff)
		}

		want = f.add(numbered(f.now(), "burst ", 1234)...)
		wantQuery(t, reqs, sinceParam(newest), false) // walk back: 500,
		wantQuery(t, reqs, sinceParam(newest), true)  // 500,
		wantQuery(t, reqs, sinceParam(newest), true)  // 234 and the 6 at the mark;
		wantQuery(t, reqs, sinceParam(newest), true)  // the second page again; the first is held
		if diff := cmp.Diff(want, receive(t, ch, len(want))); diff != "" {
			t.Fatalf("burst (-want +got):\n%s", diff)
		}
		mark := want[len(want)-1].Timestamp
		wantQuery(t, reqs, sinceParam(mark), false)
		wantQuery(t, reqs, sinceParam(mark), false)
		noEntry(t, reqs, ch)
		cancel()
		for r := range ch {
			t.Errorf("after cancel: %+v", r)
		}
	})
}

// More than a page of lines at the newest instant at the start are all
// counted as seen.
func TestFollowLogsStartsAfterAFullInstant(t *testing.T) {
	t.Parallel()
	f, reqs := gatedFixture(t, nil)
	newest := f.now()
	same := dbcloud.LogEntry{Timestamp: newest, Message: "same"}
	f.add(slices.Repeat([]dbcloud.LogEntry{same}, 600)...)
	ch := f.background(t.Context(), dbcloud.LogOptions{})
	wantQuery(t, reqs, "", false) // the start: the newest page,
	wantQuery(t, reqs, "", true)  // the window's second page: the same 500 again, dropped,
	wantQuery(t, reqs, "", true)  // and the rest of the newest instant
	want := f.add(same, same)
	wantQuery(t, reqs, sinceParam(newest), false) // 602 lines since the mark: two pages,
	wantQuery(t, reqs, sinceParam(newest), true)  // the window's second page: the first's 500 again, dropped,
	wantQuery(t, reqs, sinceParam(newest), true)  // the last 102,
	wantQuery(t, reqs, sinceParam(newest), true)  // and the empty second page again
	if diff := cmp.Diff(want, receive(t, ch, 2)); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
}

// A follow of a service with no lines yet (here: none matching) yields
// every line that comes, from the first.
func TestFollowLogsStartsOnAnEmptyHistory(t *testing.T) {
	t.Parallel()
	f, reqs := gatedFixture(t, nil)
	ch := f.background(t.Context(), dbcloud.LogOptions{Search: []string{"needle"}})
	wantQuery(t, reqs, "", false) // the start: nothing matches
	first := f.now()
	want := f.add(dbcloud.LogEntry{Timestamp: first, Message: "needle 1"}, dbcloud.LogEntry{Timestamp: f.now(), Message: "hay"})
	wantQuery(t, reqs, "", false) // still no mark: everything is new
	if diff := cmp.Diff(want[:1], receive(t, ch, 1)); diff != "" {
		t.Fatalf("first line (-want +got):\n%s", diff)
	}
	want = f.add(dbcloud.LogEntry{Timestamp: f.now(), Message: "needle 2"})
	wantQuery(t, reqs, sinceParam(first), false)
	if diff := cmp.Diff(want, receive(t, ch, 1)); diff != "" {
		t.Fatalf("second line (-want +got):\n%s", diff)
	}
}

// Entries at one instant are told apart by severity and message, not by
// their place in a page: a server may list them in another order on the
// next poll, and only the new one is yielded.
func TestFollowLogsSameInstantInAnotherOrder(t *testing.T) {
	t.Parallel()
	page := func(entries ...string) httpmock.Responder {
		var js []string
		for _, e := range entries {
			sev, msg, _ := strings.Cut(e, " ")
			js = append(js, fmt.Sprintf(`{"timestamp":"2026-11-22T10:00:00Z","severity":%q,"message":%q}`, sev, msg))
		}
		return httpmock.NewStringResponder(200, `{"logs":[],"entries":[`+strings.Join(js, ",")+`]}`)
	}
	c, mt := mockClient(t)
	mt.RegisterResponder("GET", serviceURL+"/logs", // newest first
		page("LOG x", "ERROR y", "ERROR x").Then(page("ERROR x", "LOG x", "LOG x", "ERROR y")))
	var got []string
	opts := &dbcloud.LogOptions{Since: time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC), PollInterval: time.Millisecond}
	for e, err := range c.Services.FollowLogs(t.Context(), "p1", "s1", opts) {
		if err != nil {
			t.Fatal(err)
		}
		if got = append(got, string(e.Severity)+" "+e.Message); len(got) == 4 {
			break
		}
	}
	if diff := cmp.Diff([]string{"ERROR x", "ERROR y", "LOG x", "LOG x"}, got); diff != "" {
		t.Errorf("followed (-want +got):\n%s", diff)
	}
}

// Lines written while a follow walks back through a burst, after it read
// the older pages and before it reads the middle one again, are neither
// lost nor repeated. The fake positions a cursor of a read without until
// from the newest entry, as the live service does: a walk that followed
// such cursors would read the middle page shifted, and lose the lines
// pushed out of it.
func TestFollowLinesWrittenDuringTheWalkComeOnce(t *testing.T) {
	t.Parallel()
	dbcloudtest.CheckGoroutines(t)
	f, g := gatedFixture(t, nil)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	ch := f.background(ctx, dbcloud.LogOptions{})
	g.pass(t) // the start
	want := f.add(numbered(f.now(), "burst ", 1234)...)
	for range 3 {
		g.pass(t) // finds 1,234 lines: walks back 500, 500, 234
	}
	more := f.add(numbered(f.now(), "during the walk ", 7)...)
	g.pass(t) // reads the middle page again
	g.pass(t) // the next poll
	got := receive(t, ch, len(want))
	passing := g.passAll(ctx) // the burst is out: let the next polls through
	got = append(got, receive(t, ch, len(more))...)
	if d := cmp.Diff(append(want, more...), got); d != "" {
		t.Errorf("lines (-written +followed):\n%s", d)
	}
	cancel()
	for range ch {
	}
	<-passing
}

// followEpoch is the fake's clock in follow tests: far from the machine's,
// so a follow that trusted the local clock would see nothing, or too much.
var followEpoch = time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)

// followGuard bounds a follow in tests: a follow that misses a line blocks
// until then and the test fails with what it got, instead of hanging.
const followGuard = 10 * time.Second

// followFixture is one READY service on a fake whose clock moves only when
// the test says, and whose lines the test appends.
type followFixture struct {
	t       *testing.T
	c       *dbcloud.Client
	srv     *dbcloudtest.Server
	project string
	service string
}

// newFollowFixture starts the fake with opts at followEpoch, creates the
// service and moves the clock a second on, so that appended lines are newer
// than the startup lines.
func newFollowFixture(t *testing.T, opts []dbcloudtest.Option, extra ...dbcloud.Option) *followFixture {
	t.Helper()
	f := newFollowFixtureAtCreation(t, opts, extra...)
	f.srv.Advance(time.Second)
	return f
}

// followFromNow is newFollowFixture and a follow of its service since the
// fake's current time, before any line the test adds.
func followFromNow(t *testing.T, opts []dbcloudtest.Option, extra ...dbcloud.Option) (*followFixture, *puller) {
	t.Helper()
	f := newFollowFixture(t, opts, extra...)
	return f, f.follow(dbcloud.LogOptions{Since: f.srv.Now()})
}

// newFollowFixtureAtCreation is newFollowFixture with the clock left at the
// service's creation, followEpoch.
func newFollowFixtureAtCreation(t *testing.T, opts []dbcloudtest.Option, extra ...dbcloud.Option) *followFixture {
	t.Helper()
	c, srv := fixture.NewFake(t, append([]dbcloudtest.Option{dbcloudtest.WithStartTime(followEpoch)}, opts...), extra...)
	svc := fixture.CreateReady(t, c, srv.ProjectID, "db")
	return &followFixture{t: t, c: c, srv: srv, project: srv.ProjectID, service: svc.ServiceID}
}

// forBothSinceModes runs test against a fake whose since bound includes its
// own instant, then against one whose bound excludes it.
func forBothSinceModes(t *testing.T, test func(t *testing.T, opts []dbcloudtest.Option)) {
	t.Run("since=inclusive", func(t *testing.T) { test(t, nil) })
	t.Run("since=exclusive", func(t *testing.T) { test(t, []dbcloudtest.Option{dbcloudtest.WithExclusiveSince()}) })
}

// now moves the fake's clock by a second and returns it: a fresh
// instant for lines.
func (f *followFixture) now() time.Time {
	f.srv.Advance(time.Second)
	return f.srv.Now()
}

// add appends lines to the service's history and returns them as the SDK
// should yield them.
func (f *followFixture) add(lines ...dbcloud.LogEntry) []dbcloud.LogEntry {
	f.t.Helper()
	if err := f.srv.AppendLogs(f.service, lines...); err != nil {
		f.t.Fatal(err)
	}
	out := make([]dbcloud.LogEntry, len(lines))
	for i, l := range lines {
		sev := l.Severity
		if sev == "" {
			sev = "LOG"
		}
		out[i] = dbcloud.LogEntry{Timestamp: l.Timestamp, Severity: sev, Message: l.Message}
	}
	return out
}

// follow starts FollowLogs as a pull iterator, polling every millisecond
// unless opts says otherwise.
func (f *followFixture) follow(opts dbcloud.LogOptions) *puller {
	if opts.PollInterval == 0 {
		opts.PollInterval = time.Millisecond
	}
	ctx, cancel := context.WithTimeout(context.Background(), followGuard)
	f.t.Cleanup(cancel)
	return pull(f.t, f.c.Services.FollowLogs(ctx, f.project, f.service, &opts))
}

// requests is the number of logs requests the fake has seen.
func (f *followFixture) requests() int { return f.srv.Count("GET", logsPattern) }

// expectOnly takes exactly want from p, then checks that nothing else was
// pending: a line appended next is the next one yielded.
func (f *followFixture) expectOnly(p *puller, want []dbcloud.LogEntry) {
	f.t.Helper()
	// == first: cmp.Diff of a burst of a thousand entries, under -race, was
	// a fifth of TestFollowLogsOutlastsFaults. Entries that are == have no
	// diff; others get cmp's judgement (time.Time's Equal).
	if got := p.take(len(want)); !slices.Equal(want, got) {
		if diff := cmp.Diff(want, got); diff != "" {
			f.t.Fatalf("followed entries (-want +got):\n%s", diff)
		}
	}
	sentinel := f.add(dbcloud.LogEntry{Timestamp: f.now(), Severity: "INFO", Message: "sentinel"})
	if diff := cmp.Diff(sentinel, p.take(1)); diff != "" {
		f.t.Fatalf("after the expected entries (-want +got):\n%s", diff)
	}
}

// puller drives a follow from the consumer's side: the test appends lines,
// then takes what it expects; the follow polls until they arrive.
type puller struct {
	t    *testing.T
	next func() (dbcloud.LogEntry, error, bool)
}

func pull(t *testing.T, seq iter.Seq2[dbcloud.LogEntry, error]) *puller {
	next, stop := iter.Pull2(seq)
	t.Cleanup(stop)
	return &puller{t, next}
}

// take returns the next n entries, failing the test on an error or the end.
func (p *puller) take(n int) []dbcloud.LogEntry {
	p.t.Helper()
	var out []dbcloud.LogEntry
	for len(out) < n {
		e, err, ok := p.next()
		if !ok {
			p.t.Fatalf("the follow ended after %d of %d entries", len(out), n)
		}
		if err != nil {
			p.t.Fatalf("after %d of %d entries: %v", len(out), n, err)
		}
		out = append(out, e)
	}
	return out
}

// end returns what the follow yields until it ends.
func (p *puller) end() (entries []dbcloud.LogEntry, errs []error) {
	for {
		e, err, ok := p.next()
		switch {
		case !ok:
			return entries, errs
		case err != nil:
			errs = append(errs, err)
		default:
			entries = append(entries, e)
		}
	}
}

// numbered returns n lines from at on, one microsecond apart in groups of
// three sharing an instant, with messages prefix0, prefix1, ...
func numbered(at time.Time, prefix string, n int) []dbcloud.LogEntry {
	out := make([]dbcloud.LogEntry, n)
	for i := range out {
		out[i] = dbcloud.LogEntry{Timestamp: at.Add(time.Duration(i/3) * time.Microsecond), Message: prefix + strconv.Itoa(i)}
	}
	return out
}

// gate lets a follow's logs requests through one at a time, each when the
// test asks for it (wantQuery), and reports its query once it has been
// answered. Between two wantQuery calls no request is being answered, so
// what the test adds then is seen by the next request, never by the one
// before, however the goroutines are scheduled.
type gate struct {
	api      http.Handler
	arrivals chan struct{}   // one a logs request that has come, before its turn
	turn     chan struct{}   // one a request let through
	reqs     chan url.Values // the query of each request let through, once answered
	waiting  bool            // an arrival taken (arrived) whose turn is not given yet
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/logs") {
		g.api.ServeHTTP(w, r)
		return
	}
	select {
	case g.arrivals <- struct{}{}:
	case <-r.Context().Done():
		return
	}
	select {
	case <-g.turn:
	case <-r.Context().Done():
		return
	}
	g.api.ServeHTTP(w, r)
	select {
	case g.reqs <- r.URL.Query():
	case <-r.Context().Done():
	}
}

// arrived waits until the follow's next logs request has come to the gate:
// by then the follow has yielded everything the requests before it found.
func (g *gate) arrived(t *testing.T) {
	t.Helper()
	if g.waiting {
		return
	}
	select {
	case <-g.arrivals:
		g.waiting = true
	case <-time.After(followGuard):
		t.Fatal("no logs request")
	}
}

// admit lets the next logs request through the gate once it has arrived.
func (g *gate) admit(t *testing.T) {
	t.Helper()
	g.arrived(t)
	g.waiting = false
	select {
	case g.turn <- struct{}{}:
	case <-time.After(followGuard):
		t.Fatal("the logs request left before its turn")
	}
}

// pass admits the next logs request and returns its query once the fake
// has answered it.
func (g *gate) pass(t *testing.T) url.Values {
	t.Helper()
	g.admit(t)
	select {
	case q := <-g.reqs:
		return q
	case <-time.After(followGuard):
		t.Fatal("no answer")
		return nil
	}
}

// passAll lets every logs request through from now until ctx ends, and
// closes the returned channel then.
func (g *gate) passAll(ctx context.Context) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-g.arrivals:
			case g.turn <- struct{}{}:
			case <-g.reqs:
			case <-ctx.Done():
				return
			}
		}
	}()
	return done
}

// gatedFixture is a followFixture whose logs requests go through a gate.
func gatedFixture(t *testing.T, opts []dbcloudtest.Option) (*followFixture, *gate) {
	t.Helper()
	f := newFollowFixture(t, opts)
	g := &gate{api: f.srv.Handler(), arrivals: make(chan struct{}), turn: make(chan struct{}), reqs: make(chan url.Values)}
	f.c = clientBehind(t, f.srv, g)
	return f, g
}

// background runs a follow in a goroutine and sends what it yields on the
// returned channel, closed when the follow ends.
func (f *followFixture) background(ctx context.Context, opts dbcloud.LogOptions) <-chan followed {
	if opts.PollInterval == 0 {
		opts.PollInterval = time.Millisecond
	}
	out := make(chan followed, 10_000)
	go func() {
		defer close(out)
		for e, err := range f.c.Services.FollowLogs(ctx, f.project, f.service, &opts) {
			select {
			case out <- followed{e, err}:
			case <-ctx.Done(): // the test is over: nobody reads
				return
			}
		}
	}()
	return out
}

type followed struct {
	entry dbcloud.LogEntry
	err   error
}
