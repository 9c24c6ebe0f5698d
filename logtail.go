package dbcloud

import (
	"context"
	"slices"
)

// TailLogs returns the newest n entries matching opts, oldest first, like
// tail -n, and the position just after them, for LogOptions.After of a
// FollowLogs with no gap or duplicate (cost and bounds: Logs in the
// package documentation). With no entry matching, the position is the
// log's beginning.
func (s *ServicesClient) TailLogs(ctx context.Context, projectID, serviceID string, n int, opts *LogOptions) ([]LogEntry, *LogPosition, error) {
	if n < 1 {
		return nil, nil, invalid("n", "must be at least 1")
	}
	f, err := opts.filters(logTail)
	if err != nil {
		return nil, nil, err
	}
	if err := (ref{projectID: projectID, serviceID: serviceID}).check(inService); err != nil {
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
