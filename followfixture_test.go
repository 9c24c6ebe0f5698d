package dbcloud_test

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/google/go-cmp/cmp"
)

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

// newFollowFixtureAtCreation is newFollowFixture with the clock left at the
// service's creation, followEpoch.
func newFollowFixtureAtCreation(t *testing.T, opts []dbcloudtest.Option, extra ...dbcloud.Option) *followFixture {
	t.Helper()
	c, srv := newFake(t, append([]dbcloudtest.Option{dbcloudtest.WithStartTime(followEpoch)}, opts...), extra...)
	svc := createReady(t, c, srv.ProjectID, "db")
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
	if diff := cmp.Diff(want, p.take(len(want))); diff != "" {
		f.t.Fatalf("followed entries (-want +got):\n%s", diff)
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

// gate holds each logs request until the test receives its query, so that a
// test sees every poll and knows when the follow is between two of them.
type gate struct {
	api  http.Handler
	reqs chan url.Values
}

func (g *gate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasSuffix(r.URL.Path, "/logs") {
		select {
		case g.reqs <- r.URL.Query():
		case <-r.Context().Done():
			return
		}
	}
	g.api.ServeHTTP(w, r)
}

// gatedFixture is a followFixture whose logs requests wait for the test.
func gatedFixture(t *testing.T, opts []dbcloudtest.Option) (*followFixture, <-chan url.Values) {
	t.Helper()
	srv := dbcloudtest.NewServer(append([]dbcloudtest.Option{dbcloudtest.WithStartTime(followEpoch)}, opts...)...)
	t.Cleanup(srv.Close)
	g := &gate{api: srv.Handler(), reqs: make(chan url.Values)}
	c := clientBehind(t, srv, g)
	svc := createReady(t, c, srv.ProjectID, "db")
	srv.Advance(time.Second)
	return &followFixture{t: t, c: c, srv: srv, project: srv.ProjectID, service: svc.ServiceID}, g.reqs
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
