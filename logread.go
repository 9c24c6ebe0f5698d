package dbcloud

import (
	"context"
	"iter"
	"slices"
	"time"
)

// LogReadOptions filters a read of a service's logs (ReadLogs, TailLogs).
// It carries only what a read accepts; LogFollowOptions is its counterpart
// for a follow. The zero value reads everything.
type LogReadOptions struct {
	Node        *int      // one node of a multi-node service; nil = the service's default
	Search      []string  // full-text terms, all of which must match
	MinSeverity Severity  // keep this severity and worse (see Severity); "" = every severity
	Since       time.Time // only entries at or after this time; zero = no bound
	// Until: only entries before this time. Zero = the read fixes it itself
	// so that the read is one window of the history (see AllLogs).
	Until time.Time
}

// LogFollowOptions filters and starts a follow (Follow). It carries only
// what a follow accepts: a follow has no end and no cursor.
type LogFollowOptions struct {
	Node        *int     // one node of a multi-node service; nil = the service's default
	Search      []string // full-text terms, all of which must match
	MinSeverity Severity // keep this severity and worse (see Severity); "" = every severity

	// After resumes just after a position: the one TailLogs returned, or
	// one advanced through the entries of an earlier follow (see
	// LogPosition), also one stored by an earlier run of the program. A
	// zero LogPosition starts at the very beginning of the log. Filter as
	// the read that made the position did: entries the earlier read's
	// filters left out and that are older than the position are not seen.
	After *LogPosition
	// Since starts at this time (entries at it included). With neither
	// After nor Since, the follow starts after the entries the API holds at
	// its first poll. Setting both is a *ValidationError.
	Since time.Time

	// PollInterval is how long the follow waits between polls, give or
	// take a fifth at random; 0 = DefaultFollowInterval.
	PollInterval time.Duration
}

func (o *LogReadOptions) logOptions() (LogOptions, error) {
	if o == nil {
		return LogOptions{}, nil
	}
	sevs, err := severitiesFrom(o.MinSeverity)
	return LogOptions{Node: o.Node, Search: o.Search, Severities: sevs, Since: o.Since, Until: o.Until}, err
}

// ReadLogs is AllLogs with LogReadOptions: every entry matching opts,
// newest first, read lazily page by page within one window of the history.
func (s *ServicesClient) ReadLogs(ctx context.Context, projectID, serviceID string, opts *LogReadOptions) iter.Seq2[LogEntry, error] {
	o, err := opts.logOptions()
	if err != nil {
		return func(yield func(LogEntry, error) bool) { yield(LogEntry{}, err) }
	}
	return s.AllLogs(ctx, projectID, serviceID, &o)
}

// TailLogs returns the newest n entries matching opts, oldest first, like
// tail -n, and the position just after the newest of them: pass it as
// LogFollowOptions.After to follow on from there with no gap and no
// duplicate, now or after a restart (store it with its String method).
//
// It reads no more pages than n entries need (one per 500, within one
// window of the history; see AllLogs) and holds at most n entries. With no
// entry matching, the position is the very beginning of the log, so a
// follow from it yields the first entry that comes.
//
// Entries at the newest instant are told apart by severity and message; an
// entry of the oldest instant returned that did not fit in n is older than
// the result and is not in the position either.
func (s *ServicesClient) TailLogs(ctx context.Context, projectID, serviceID string, n int, opts *LogReadOptions) ([]LogEntry, *LogPosition, error) {
	if n < 1 {
		return nil, nil, invalid("n", "must be at least 1")
	}
	o, err := opts.logOptions()
	if err != nil {
		return nil, nil, err
	}
	if err := checkService(projectID, serviceID); err != nil {
		return nil, nil, err
	}
	if _, err := o.query(); err != nil {
		return nil, nil, err
	}
	w := s.newLogWalk(projectID, serviceID, o)
	var out []LogEntry
	for len(out) < n && !w.done {
		page, err := w.next(ctx)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, page.Entries[:min(len(page.Entries), n-len(out))]...)
	}
	slices.Reverse(out)
	pos := new(LogPosition)
	for _, e := range out {
		pos.Advance(e)
	}
	return out, pos, nil
}

// Follow is FollowLogs with LogFollowOptions: it yields entries oldest first
// as they are written, until ctx ends, and can resume exactly where an
// earlier read or follow ended (After). Everything FollowLogs documents
// holds: no gap, no duplicate, bounded memory, transient failures outlasted.
//
// To resume after a restart, advance a LogPosition with each entry handled
// and store it; start the next run with it:
//
//	pos, _ := dbcloud.ParseLogPosition(load()) // "" = the beginning
//	for entry, err := range client.Services.Follow(ctx, projectID, serviceID, &dbcloud.LogFollowOptions{After: pos}) {
//		if err != nil {
//			return err
//		}
//		handle(entry)
//		pos.Advance(entry)
//		store(pos.String())
//	}
func (s *ServicesClient) Follow(ctx context.Context, projectID, serviceID string, opts *LogFollowOptions) iter.Seq2[LogEntry, error] {
	return follow(ctx, func() (*follower, error) { return s.newFollow(projectID, serviceID, opts) })
}

func (s *ServicesClient) newFollow(projectID, serviceID string, opts *LogFollowOptions) (*follower, error) {
	if opts == nil {
		opts = &LogFollowOptions{}
	}
	if opts.After != nil && !opts.Since.IsZero() {
		return nil, invalid("Since", "a follow starts After a position or at Since, not both")
	}
	o, err := (&LogReadOptions{Node: opts.Node, Search: opts.Search, MinSeverity: opts.MinSeverity}).logOptions()
	if err != nil {
		return nil, err
	}
	o.Since, o.PollInterval = opts.Since, opts.PollInterval
	f, err := s.newFollower(projectID, serviceID, &o)
	if err != nil {
		return nil, err
	}
	if opts.After != nil {
		f.started, f.pos = true, *opts.After.Clone()
	}
	return f, nil
}
