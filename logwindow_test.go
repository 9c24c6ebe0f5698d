package dbcloud_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	gocmp "github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

// windowCursors is the fake whose cursors are depths within their window,
// like the live service's: the same text comes back in every window.
var windowCursors = []dbcloudtest.Option{dbcloudtest.WithWindowCursors()}

// A history of 1,234 entries reads whole and once on a server whose cursors
// are positions within their window: AllLogs, TailLogs, and a follow from
// the beginning that walks back through it all in one poll. Keyed on the
// cursor's text alone, the read would end with ErrRepeatedCursor on its
// third page.
func TestLogsReadWholeOnWindowRelativeCursors(t *testing.T) {
	t.Parallel()
	srv, c, id := newLoggedService(t, 1234, windowCursors...)
	held, err := srv.Logs(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(held) < 1234 {
		t.Fatalf("the fake holds %d entries", len(held))
	}
	oldestFirst := slices.Clone(held)
	slices.Reverse(oldestFirst)

	if diff := gocmp.Diff(held, collect(t, c.Services.AllLogs(t.Context(), srv.ProjectID, id, nil), nil)); diff != "" {
		t.Errorf("AllLogs (-held +read):\n%s", diff)
	}
	tail, _, err := c.Services.TailLogs(t.Context(), srv.ProjectID, id, len(held), nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(oldestFirst, tail); diff != "" {
		t.Errorf("TailLogs (-held +read):\n%s", diff)
	}
	got, _ := followN(t, c, srv.ProjectID, id, &dbcloud.LogPosition{}, len(held))
	if diff := gocmp.Diff(oldestFirst, got); diff != "" {
		t.Errorf("FollowLogs from the beginning (-held +followed):\n%s", diff)
	}
}

// A follow outlasts a burst of 1,234 lines between two polls on a server
// with window-relative cursors: walked back, then read oldest first, each
// line once.
func TestFollowLogsBurstOnWindowRelativeCursors(t *testing.T) {
	t.Parallel()
	f := newFollowFixture(t, windowCursors)
	p := f.follow(dbcloud.LogOptions{Since: f.now()})
	want := f.add(numbered(f.now(), "burst", 1234)...)
	f.expectOnly(p, want)
}

// The newest n entries cost one request for n ≤ 500 and ceil((n+k)/500)
// above, k being the first page's entries at its oldest instant (here 1):
// never more than ceil(n/500)+1, on either kind of cursor.
func TestTailLogsRequestCounts(t *testing.T) {
	t.Parallel()
	for _, mode := range []struct {
		name string
		opts []dbcloudtest.Option
	}{{"cursors=entry", nil}, {"cursors=window", windowCursors}} {
		t.Run(mode.name, func(t *testing.T) {
			srv, c, id := newLoggedService(t, 2600, mode.opts...)
			held, err := srv.Logs(id)
			if err != nil {
				t.Fatal(err)
			}
			for _, tc := range []struct{ n, requests int }{{500, 1}, {501, 2}, {1000, 3}, {2000, 5}} {
				before := srv.Count("GET", logsPattern)
				got, _, err := c.Services.TailLogs(t.Context(), srv.ProjectID, id, tc.n, nil)
				if err != nil {
					t.Fatal(err)
				}
				sent := srv.Count("GET", logsPattern) - before
				if sent != tc.requests || sent > (tc.n+499)/500+1 {
					t.Errorf("TailLogs(%d): %d requests, want %d (at most ceil(n/500)+1 = %d)", tc.n, sent, tc.requests, (tc.n+499)/500+1)
				}
				want := slices.Clone(held[:tc.n])
				slices.Reverse(want)
				if diff := gocmp.Diff(want, got); diff != "" {
					t.Errorf("TailLogs(%d) (-held +read):\n%s", tc.n, diff)
				}
			}
		})
	}
}

// A server that truly cycles (every answer carries the same cursor, here
// one that holds the API key) ends every read and every follow with
// ErrRepeatedCursor, in a few requests, with no key in the error.
func TestCyclingServerEndsReadsAndFollows(t *testing.T) {
	t.Parallel()
	newer := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for _, cursor := range []string{"c1", "pos:" + mockKey} {
		for _, call := range []struct {
			name string
			run  func(ctx context.Context, c *dbcloud.Client) error
		}{
			{"AllLogs", func(ctx context.Context, c *dbcloud.Client) error {
				for _, err := range c.Services.AllLogs(ctx, "p", "s", nil) {
					if err != nil {
						return err
					}
				}
				return nil
			}},
			{"TailLogs", func(ctx context.Context, c *dbcloud.Client) error {
				_, _, err := c.Services.TailLogs(ctx, "p", "s", 100_000, nil)
				return err
			}},
			{"FollowLogs", func(ctx context.Context, c *dbcloud.Client) error {
				opts := &dbcloud.LogOptions{Since: newer.Add(-time.Hour), PollInterval: time.Millisecond}
				for _, err := range c.Services.FollowLogs(ctx, "p", "s", opts) {
					if err != nil {
						return err
					}
				}
				return errors.New("the follow ended without an error")
			}},
		} {
			t.Run(fmt.Sprintf("%s/cursor=%.4s", call.name, cursor), func(t *testing.T) {
				c, mt := mockClient(t, dbcloud.WithRetryMax(0))
				var sent atomic.Int64
				mt.RegisterResponder(http.MethodGet, mockBase+"/projects/p/services/s/logs", func(*http.Request) (*http.Response, error) {
					i := sent.Add(1)
					body := fmt.Sprintf(`{"entries":[{"timestamp":%q,"severity":"LOG","message":"m%d"}],"last_cursor":%q}`,
						newer.Add(-time.Duration(i)*time.Second).Format(time.RFC3339Nano), i, cursor)
					return httpmock.NewStringResponse(200, body), nil
				})
				ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
				defer cancel()
				err := call.run(ctx, c)
				if !errors.Is(err, dbcloud.ErrRepeatedCursor) {
					t.Fatalf("after %d requests: %v, want ErrRepeatedCursor", sent.Load(), err)
				}
				if strings.Contains(err.Error(), mockKey) {
					t.Errorf("the key is in the error: %v", err)
				}
				// The newest page, the window's second page, the cursor in
				// the window; its answer would repeat that request.
				if n := sent.Load(); n != 3 {
					t.Errorf("%d requests, want 3", n)
				}
			})
		}
	}
}
