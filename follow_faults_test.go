package dbcloud_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/jarcoal/httpmock"
)

// A fault that outlasts the request's retries (here: none) fails one poll;
// the next poll resumes from the last line yielded, with no loss and no
// duplicate, wherever the poll was: at its first request, walking back, or
// reading a page again after yielding the pages before it.
func TestFollowLogsOutlastsFaults(t *testing.T) {
	t.Parallel()
	faults := []struct {
		name  string
		fault dbcloudtest.Fault
	}{
		{"503", dbcloudtest.Fault{Status: http.StatusServiceUnavailable, Body: `{"code":"UNAVAILABLE"}`}},
		{"502 HTML", dbcloudtest.Fault{Status: http.StatusBadGateway, Body: "<html>bad gateway</html>"}},
		{"429", dbcloudtest.Fault{Status: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"0"}}}},
		// Go's transport silently retries the first drop on a reused
		// connection; the second reaches the SDK.
		{"dropped connection", dbcloudtest.Fault{Drop: true, Times: 2}},
		{"reset after the server answered", dbcloudtest.Fault{Drop: true, AfterHandling: true, Times: 2}},
		{"cut-off page", dbcloudtest.Fault{Truncate: true}},
	}
	// The burst's poll is four requests: three pages walked back, then the
	// second read again.
	positions := []struct {
		name string
		skip int
	}{{"at a poll's first request", 0}, {"walking back", 1}, {"reading a page again", 3}}
	forBothSinceModes(t, func(t *testing.T, opts []dbcloudtest.Option) {
		for _, fc := range faults {
			for _, pos := range positions {
				t.Run(fc.name+"/"+pos.name, func(t *testing.T) {
					f, p := followFromNow(t, opts, dbcloud.WithRetryMax(0))
					f.expectOnly(p, f.add(dbcloud.LogEntry{Timestamp: f.now(), Message: "first"}))

					burst := f.add(numbered(f.now(), "burst ", 1234)...)
					for range pos.skip {
						f.srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: logsPattern, Delay: time.Nanosecond}) // answers normally
					}
					fault := fc.fault
					fault.Method, fault.Path = "GET", logsPattern
					f.srv.InjectFault(fault)
					before := f.requests()
					f.expectOnly(p, burst)
					// Without the fault: 4 requests for the burst, 1 for the sentinel.
					if n := f.requests() - before; n <= 5 {
						t.Errorf("%d requests: the fault was not served", n)
					}
				})
			}
		}
	})
}

// A 404 (the service was deleted) or another 4xx is yielded once, with a
// zero entry, and ends the follow.
func TestFollowLogsEndsOnClientErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		break_ func(f *followFixture)
		is     error
		status int
	}{
		{"service deleted", func(f *followFixture) {
			if err := f.c.Services.Delete(t.Context(), f.project, f.service); err != nil {
				t.Fatal(err)
			}
		}, dbcloud.ErrNotFound, 404},
		{"403", func(f *followFixture) {
			f.srv.InjectFault(dbcloudtest.Fault{Path: logsPattern, Status: 403, Body: `{"code":"FORBIDDEN","message":"key revoked"}`})
		}, dbcloud.ErrForbidden, 403},
		{"400", func(f *followFixture) {
			f.srv.InjectFault(dbcloudtest.Fault{Path: logsPattern, Status: 400, Body: `{"code":"INVALID_REQUEST"}`})
		}, dbcloud.ErrBadRequest, 400},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f, p := followFromNow(t, nil)
			f.expectOnly(p, f.add(dbcloud.LogEntry{Timestamp: f.now(), Message: "first"}))
			tt.break_(f)
			entries, errs := p.end()
			var apiErr *dbcloud.APIError
			if len(entries) != 0 || len(errs) != 1 || !errors.Is(errs[0], tt.is) ||
				!errors.As(errs[0], &apiErr) || apiErr.StatusCode != tt.status || apiErr.RequestID == "" {
				t.Fatalf("after the fault: %d entries, errors %v; want one %d error, with its request id", len(entries), errs, tt.status)
			}
		})
	}
}

// The end of the context ends a follow with no error and no goroutine left,
// whether it waits between polls, waits for an answer, or is yielding.
func TestFollowLogsEndsQuietlyWithItsContext(t *testing.T) {
	t.Parallel()
	t.Run("between polls", func(t *testing.T) {
		dbcloudtest.CheckGoroutines(t)
		f := newFollowFixture(t, nil)
		ctx, cancel := context.WithCancel(t.Context())
		// The line is there before the follow starts: its first poll reads
		// it, whenever the goroutine gets to run.
		f.add(dbcloud.LogEntry{Timestamp: f.now(), Message: "line"})
		ch := f.background(ctx, dbcloud.LogOptions{Since: f.srv.Now(), PollInterval: time.Hour})
		receive(t, ch, 1) // the poll ends; the next is an hour away
		cancel()
		for r := range ch {
			if r.err != nil {
				t.Errorf("yielded %v after cancel", r.err)
			}
		}
	})
	t.Run("waiting for an answer", func(t *testing.T) {
		dbcloudtest.CheckGoroutines(t)
		f, g := gatedFixture(t, nil)
		f.srv.InjectFault(dbcloudtest.Fault{Path: logsPattern, Delay: time.Hour})
		ctx, cancel := context.WithCancel(t.Context())
		ch := f.background(ctx, dbcloud.LogOptions{})
		g.admit(t) // the first poll's request, whose answer the fault holds
		cancel()
		for r := range ch {
			t.Errorf("yielded %+v after cancel", r)
		}
	})
	t.Run("yielding", func(t *testing.T) {
		dbcloudtest.CheckGoroutines(t)
		f := newFollowFixture(t, nil)
		f.add(numbered(f.now(), "line ", 10)...)
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		n := 0
		for _, err := range f.c.Services.FollowLogs(ctx, f.project, f.service, &dbcloud.LogOptions{Since: f.srv.Now().Add(-time.Hour)}) {
			if err != nil {
				t.Fatal(err)
			}
			n++
			cancel()
		}
		if n != 1 {
			t.Errorf("%d entries yielded after the context ended in the loop's body, want 1", n)
		}
	})
}

// Breaking out of the loop stops the follow at once: no further request.
func TestFollowLogsBreak(t *testing.T) {
	t.Parallel()
	f := newFollowFixture(t, nil)
	f.add(numbered(f.now(), "line ", 10)...)
	n := 0
	for _, err := range f.c.Services.FollowLogs(t.Context(), f.project, f.service, &dbcloud.LogOptions{Since: f.srv.Now().Add(-time.Hour)}) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 3 {
			break
		}
	}
	if got := f.requests(); n != 3 || got != 1 {
		t.Errorf("%d entries in %d requests, want 3 in 1", n, got)
	}
}

// Options a follow cannot honour are a *ValidationError before anything is
// sent (the mock fails the test on any request).
func TestFollowLogsValidation(t *testing.T) {
	t.Parallel()
	c, _ := mockClient(t)
	for _, tt := range []struct {
		project, service string
		opts             *dbcloud.LogOptions
		field            string
	}{
		{"p1", "s1", &dbcloud.LogOptions{Cursor: "abc"}, "Cursor"},
		{"p1", "s1", &dbcloud.LogOptions{Until: time.Now()}, "Until"},
		{"p1", "s1", &dbcloud.LogOptions{PollInterval: -time.Second}, "PollInterval"},
		{"p1", "s1", &dbcloud.LogOptions{Search: []string{" "}}, "Search"},
		{"p1", "s1", &dbcloud.LogOptions{Node: new(-1)}, "Node"},
		{"p1", "", nil, "serviceID"},
		{"", "s1", nil, "projectID"},
	} {
		var errs []error
		for _, err := range c.Services.FollowLogs(t.Context(), tt.project, tt.service, tt.opts) {
			errs = append(errs, err)
		}
		var ve *dbcloud.ValidationError
		if len(errs) != 1 || !errors.As(errs[0], &ve) || ve.Field != tt.field {
			t.Errorf("%+v: yielded %v, want one *ValidationError for %s", tt.opts, errs, tt.field)
		}
	}
}

// Answers a follow cannot go on from end it with an error, once: a cursor
// the API repeats, and lines without timestamps (the deprecated form only).
func TestFollowLogsEndsOnUnusableAnswers(t *testing.T) {
	t.Parallel()
	since := &dbcloud.LogOptions{Since: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)}
	for _, tt := range []struct {
		name     string
		pages    map[string]httpmock.Responder
		opts     *dbcloud.LogOptions
		want     error
		requests int
	}{
		// The newest page, the window's second page (until, no cursor),
		// then (A, until), whose answer A would send it again.
		{"repeated cursor", map[string]httpmock.Responder{
			"":  httpmock.NewStringResponder(200, logsPage(false, "A", "m3")),
			"A": httpmock.NewStringResponder(200, logsPage(false, "A", "m2")),
		}, since, dbcloud.ErrRepeatedCursor, 3},
		{"no timestamps, from Since", map[string]httpmock.Responder{
			"": httpmock.NewStringResponder(200, logsPage(true, "", "m2", "m1")),
		}, since, dbcloud.ErrUntimedLogs, 1},
		{"no timestamps, at the start", map[string]httpmock.Responder{
			"": httpmock.NewStringResponder(200, logsPage(true, "", "m2", "m1")),
		}, nil, dbcloud.ErrUntimedLogs, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, queries := scriptedLogs(t, tt.pages)
			msgs, errs := messages(t, c.Services.FollowLogs(t.Context(), "p1", "s1", tt.opts))
			if len(errs) != 1 || !errors.Is(errs[0], tt.want) || len(msgs) != 0 {
				t.Fatalf("yielded %v and %v, want one %v", msgs, errs, tt.want)
			}
			if len(*queries) != tt.requests {
				t.Errorf("%d requests, want %d", len(*queries), tt.requests)
			}
		})
	}
}

// A hostile server that answers every page of a follow's walk with a new
// entry and a new cursor would have it walk, and hold cursors, forever. The
// walk is bounded by page count and by cursor bytes, and ends the follow
// with ErrFollowBacklog. This is the page bound, with short cursors; the
// byte bound is TestFollowWalkBoundsTheCursorBytesItHolds. By default the
// bound is set to 100 pages (the walk is the same at any bound); with
// DBCLOUD_MEASURE=1 it is the 10,000 pages of the documentation.
func TestFollowWalkBoundsThePagesItWalks(t *testing.T) {
	t.Parallel()
	bound := atScale(100, dbcloud.MaxFollowWalk)
	followWalkBound(t, 16, int64(bound)+1, false, dbcloud.WithFollowWalkBound(bound))
}

// With 64 KiB cursors, the walk ends on the byte bound, and the heap the
// follow retains (sampled after a GC at each request) stays within the
// 4 MiB of cursors it may hold and 2 MiB more. It measures the heap, so it
// runs alone.
func TestFollowWalkBoundsTheCursorBytesItHolds(t *testing.T) {
	followWalkBound(t, 64<<10, 4<<20/(64<<10)+2, true)
}

// followWalkBound follows a server whose every page has a new entry and a
// new cursor of cursorLen bytes, and checks that the follow ends with
// ErrFollowBacklog after at most maxPages requests, and no sooner than
// maxPages-1 (the bound, not something else, ended it); with heap, that the
// live heap stays within 6 MiB over its start.
func followWalkBound(t *testing.T, cursorLen int, maxPages int64, heap bool, opts ...dbcloud.Option) {
	c, mt := mockClient(t, append(opts, dbcloud.WithRetryMax(0))...)
	var n atomic.Int64
	var base, peak uint64
	if heap {
		base = liveHeap()
	}
	start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	mt.RegisterResponder(http.MethodGet, mockBase+"/projects/p/services/s/logs", func(*http.Request) (*http.Response, error) {
		i := n.Add(1)
		if heap {
			peak = max(peak, liveHeap())
		}
		cursor := fmt.Sprintf("%0*d", cursorLen, i)
		body := fmt.Sprintf(`{"entries":[{"timestamp":%q,"severity":"LOG","message":"m%d"}],"last_cursor":%q}`,
			start.Add(time.Hour+time.Duration(i)*time.Nanosecond).Format(time.RFC3339Nano), i, cursor)
		return httpmock.NewStringResponse(200, body), nil
	})
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	var errs []error
	for _, err := range c.Services.FollowLogs(ctx, "p", "s", &dbcloud.LogOptions{Since: start, PollInterval: time.Millisecond}) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) != 1 || !errors.Is(errs[0], dbcloud.ErrFollowBacklog) {
		t.Fatalf("errors %v after %d requests, want one ErrFollowBacklog", errs, n.Load())
	}
	if got := n.Load(); got > maxPages || got < maxPages-1 {
		t.Errorf("%d requests, want %d or %d", got, maxPages-1, maxPages)
	}
	if !strings.Contains(errs[0].Error(), "walks back") {
		t.Errorf("error %q does not say what happened", errs[0])
	}
	if heap {
		t.Logf("peak live heap +%.2f MiB over %d requests", float64(peak-base)/(1<<20), n.Load())
		if peak > base+6<<20 {
			t.Errorf("peak live heap +%.2f MiB, want at most 6 MiB (4 MiB of cursors, 2 MiB more)", float64(peak-base)/(1<<20))
		}
	}
}

// liveHeap is HeapAlloc after a full collection: what is retained.
func liveHeap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
