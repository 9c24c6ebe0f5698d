package dbcloud

import (
	"context"
	"slices"
)

// TailLogs returns the newest n entries matching opts, oldest first, like
// tail -n, and the position just after the newest of them: pass it as
// LogOptions.After to FollowLogs to follow on from there with no gap and no
// duplicate, now or after a restart (store it with its String method).
//
// It reads only the pages n needs, within one window of the history: one
// request for n ≤ 500, and at most ceil(n/500)+1 above (n = 501: 2;
// 1,000: 3; 2,000: 5), the exact figure being in the package
// documentation's "Logs" section. It holds at most n entries and a page.
// With no entry matching, the position is the very beginning of the log, so
// a follow from it yields the first entry that comes. Cursor, After and
// PollInterval are refused (*ValidationError): TailLogs starts at the newest
// entry and does not poll.
//
// Entries at the newest instant are told apart by severity and message; an
// entry of the oldest instant returned that did not fit in n is older than
// the result and is not in the position either.
func (s *ServicesClient) TailLogs(ctx context.Context, projectID, serviceID string, n int, opts *LogOptions) ([]LogEntry, *LogPosition, error) {
	if n < 1 {
		return nil, nil, invalid("n", "must be at least 1")
	}
	f, err := opts.filters(logTail)
	if err != nil {
		return nil, nil, err
	}
	if err := checkIDs(tplService, ref{projectID, serviceID, ""}); err != nil {
		return nil, nil, err
	}
	var o LogOptions
	if opts != nil {
		o = *opts
	}
	w := s.newLogWalk(projectID, serviceID, f, "", o.Until)
	var out []LogEntry
	for len(out) < n && !w.Done() {
		page, err := w.Next(ctx)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, page[:min(len(page), n-len(out))]...)
	}
	slices.Reverse(out)
	pos := new(LogPosition)
	for _, e := range out {
		pos.Advance(e)
	}
	return out, pos, nil
}
