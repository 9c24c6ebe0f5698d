package dbcloud

import (
	"context"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/logwalk"
)

// newLogWalk starts a walk through a service's history, newest first, with
// the filters f, from cursor within until (both may be empty): every read
// of several pages (AllLogs, TailLogs, a follow's poll) is one. The walk's
// rules (one window, requests keyed on cursor and window, cycles) are
// logwalk's; this is where they meet the API's requests.
func (s *ServicesClient) newLogWalk(projectID, serviceID string, f logFilters, cursor string, until time.Time) *logwalk.Walk[LogEntry] {
	return logwalk.New(logwalk.Config[LogEntry]{
		Fetch: func(ctx context.Context, cursor string, until time.Time) ([]LogEntry, string, error) {
			page, err := s.listLogs(ctx, projectID, serviceID, f, cursor, until)
			if err != nil {
				return nil, "", err
			}
			return page.Entries, page.NextCursor, nil
		},
		Time:     func(e LogEntry) time.Time { return e.Timestamp },
		Key:      entryHash,
		Cursor:   cursor,
		Until:    until,
		Repeated: ErrRepeatedCursor,
	})
}
