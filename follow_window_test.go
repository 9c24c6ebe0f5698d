package dbcloud_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	gocmp "github.com/google/go-cmp/cmp"
)

// heldRequest is a logs request that waits, before the fake serves it,
// until the test closes release.
type heldRequest struct {
	query   url.Values
	release chan struct{}
}

// holdGate holds every logs request until the test releases it, so that a
// test can act when one request has been answered and the next not yet.
type holdGate struct {
	api  http.Handler
	reqs chan heldRequest
}

func (g *holdGate) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasSuffix(r.URL.Path, "/logs") {
		h := heldRequest{r.URL.Query(), make(chan struct{})}
		select {
		case g.reqs <- h:
		case <-r.Context().Done():
			return
		}
		select {
		case <-h.release:
		case <-r.Context().Done():
			return
		}
	}
	g.api.ServeHTTP(w, r)
}

// Lines written while a follow walks back through a burst, after it read
// the older pages and before it reads the middle one again, are neither
// lost nor repeated. The fake positions a cursor of a read without until
// from the newest entry, as the live service does: a walk that followed
// such cursors would read the middle page shifted, and lose the lines
// pushed out of it.
func TestFollowLinesWrittenDuringTheWalkComeOnce(t *testing.T) {
	srv := dbcloudtest.NewServer(dbcloudtest.WithStartTime(followEpoch))
	t.Cleanup(srv.Close)
	g := &holdGate{api: srv.Handler(), reqs: make(chan heldRequest)}
	c := clientBehind(t, srv, g)
	svc := createReady(t, c, srv.ProjectID, "db")
	srv.Advance(time.Second)
	f := &followFixture{t: t, c: c, srv: srv, project: srv.ProjectID, service: svc.ServiceID}

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out := make(chan dbcloud.LogEntry, 10_000)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e, err := range c.Services.FollowLogs(ctx, f.project, f.service, &dbcloud.LogOptions{PollInterval: time.Millisecond}) {
			if err != nil {
				t.Error(err)
				return
			}
			out <- e
		}
	}()
	next := func() heldRequest {
		t.Helper()
		select {
		case h := <-g.reqs:
			return h
		case <-time.After(followGuard):
			t.Fatal("no logs request")
			return heldRequest{}
		}
	}
	next().release <- struct{}{} // the start
	h := next()                  // an idle poll
	want := f.add(numbered(f.now(), "burst ", 1234)...)
	close(h.release) // finds 1,234 lines: walks back 500, 500, 234
	for range 2 {
		close(next().release)
	}
	h = next() // about to read the middle page again
	more := f.add(numbered(f.now(), "during the walk ", 7)...)
	close(h.release)
	h = next() // the next poll
	close(h.release)
	want = append(want, more...)
	var got []dbcloud.LogEntry
	for len(got) < len(want) {
		select {
		case e := <-out:
			got = append(got, e)
		case <-time.After(followGuard):
			t.Fatalf("%d of %d lines", len(got), len(want))
		}
		if len(got) == 1234 { // the burst is out: let the next polls through
			go func() {
				for {
					select {
					case h := <-g.reqs:
						close(h.release)
					case <-done:
						return
					}
				}
			}()
		}
	}
	cancel()
	<-done
	if d := gocmp.Diff(want, got); d != "" {
		t.Errorf("lines (-written +followed):\n%s", d)
	}
}
