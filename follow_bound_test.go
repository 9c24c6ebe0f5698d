package dbcloud_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/jarcoal/httpmock"
)

// A hostile server that answers every page of a follow's walk with a new
// entry and a new cursor would have it walk, and hold cursors, forever. The
// walk is bounded by page count and by cursor bytes, and ends the follow
// with ErrFollowBacklog.
func TestFollowWalkBoundsTheCursorsItHolds(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cursorLen int
		maxPages  int64
	}{
		{"short cursors: page bound", 16, dbcloud.MaxFollowWalk + 1},
		{"64 KiB cursors: byte bound", 64 << 10, 4<<20/(64<<10) + 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mt := mockClient(t, dbcloud.WithRetryMax(0))
			var n atomic.Int64
			start := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
			mt.RegisterResponder(http.MethodGet, mockBase+"/projects/p/services/s/logs", func(*http.Request) (*http.Response, error) {
				i := n.Add(1)
				cursor := fmt.Sprintf("%0*d", tc.cursorLen, i)
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
			if got := n.Load(); got > tc.maxPages {
				t.Errorf("%d requests, want at most %d", got, tc.maxPages)
			}
			if !strings.Contains(errs[0].Error(), "walks back") {
				t.Errorf("error %q does not say what happened", errs[0])
			}
		})
	}
}
