package dbcloud

import (
	"cmp"
	"context"
	"errors"
	"iter"
	"maps"
	"math/rand/v2"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/logwalk"
	"github.com/dbcloud/dbcloud-go/internal/pipeline"
)

// DefaultFollowInterval is how often FollowLogs polls when
// LogOptions.PollInterval is 0.
const DefaultFollowInterval = 2 * time.Second

// FollowLogs yields a service's log entries oldest first as they are
// written, like tail -f, polling until ctx ends (then with no error). It
// starts after opts.After, at opts.Since, or else after what the API holds
// at its first poll. Every entry is yielded once, also across pages and
// shared timestamps; one the API records older than one yielded is not
// seen. Cost and bounds: Logs in the package documentation. Network
// errors, 5xx and 429 are outlasted; a 4xx, ErrRepeatedCursor,
// ErrUntimedLogs or ErrFollowBacklog is yielded once, with a zero
// LogEntry, and ends it.
func (s *ServicesClient) FollowLogs(ctx context.Context, projectID, serviceID string, opts *LogOptions) iter.Seq2[LogEntry, error] {
	return func(yield func(LogEntry, error) bool) {
		f, err := s.newFollower(projectID, serviceID, opts)
		if err != nil {
			yield(LogEntry{}, err)
			return
		}
		f.run(ctx, yield)
	}
}

// follower is the state of one follow.
//
// The API has no forward cursor, only since and a backward cursor. Each poll
// therefore asks for the entries since the position (the newest timestamp
// yielded), 1 ns earlier so that its own instant is included whether since
// is inclusive or exclusive, walks back to the position, and yields what it
// found oldest first, minus what was already yielded at that instant.
type follower struct {
	s                  *ServicesClient
	projectID, service string
	filters            logFilters // since is set per poll
	interval           time.Duration

	started bool // the start is known: a position or Since, or the first poll
	// pos is just after the newest entry yielded (or counted as seen at the
	// start); zero until one is, when the follow starts at the beginning.
	pos LogPosition
	// skip is, during a poll, what is left of pos's count as it was when the
	// poll began: the entries at its instant that this poll reads again.
	skip map[uint64]uint32
}

func (s *ServicesClient) newFollower(projectID, serviceID string, opts *LogOptions) (*follower, error) {
	filters, err := opts.filters(logFollow)
	if err != nil {
		return nil, err
	}
	// Bad ids are reported now, before anything is sent.
	if err := (ref{projectID: projectID, serviceID: serviceID}).check(inService); err != nil {
		return nil, err
	}
	f := &follower{s: s, projectID: projectID, service: serviceID, filters: filters, interval: DefaultFollowInterval}
	if opts == nil {
		return f, nil
	}
	if opts.PollInterval != 0 {
		f.interval = opts.PollInterval
	}
	switch {
	case opts.After != nil:
		f.started, f.pos = true, *opts.After.Clone()
	case !opts.Since.IsZero():
		f.started = true
		f.pos = LogPosition{at: opts.Since, seen: map[uint64]uint32{}}
	}
	return f, nil
}

// ErrUntimedLogs is yielded by FollowLogs when the API sends log lines
// without timestamps (only the deprecated "logs" strings): a follow needs
// them to tell new lines from old ones.
var ErrUntimedLogs = errors.New("dbcloud: log entries without timestamps cannot be followed")

// maxFollowWalk is the most pages one poll of a follow walks back through
// (5,000,000 entries), and maxFollowCursorBytes the most cursor text it
// holds to read them again (64 pages of 64 KiB cursors; 10,000 pages of
// cursors up to 419 bytes): a broken or hostile server that keeps handing
// out new cursors cannot grow a follow's memory without bound.
const (
	maxFollowWalk        = 10_000
	maxFollowCursorBytes = 4 << 20
)

// walkBound is maxFollowWalk, or the smaller bound this package's tests set
// (WithFollowWalkBound, in export_test.go) to reach it in a few pages.
func (f *follower) walkBound() int { return cmp.Or(f.s.api.followWalk, maxFollowWalk) }

// ErrFollowBacklog is yielded by a follow whose poll would walk back through
// more than 10,000 pages (or 4 MiB of cursors) to reach the last
// entry it yielded. Read the backlog with AllLogs, or follow again from a
// later Since.
var ErrFollowBacklog = errors.New("dbcloud: more new log entries than a follow walks back through at once")

// endsFollow reports an error that no later poll can outlast.
func endsFollow(err error) bool {
	return isTerminal(err) || errors.Is(err, ErrRepeatedCursor) || errors.Is(err, ErrUntimedLogs) ||
		errors.Is(err, ErrFollowBacklog)
}

// errStopped is poll's report that the consumer stopped the loop.
var errStopped = errors.New("dbcloud: follow stopped by its consumer")

func (f *follower) run(ctx context.Context, yield func(LogEntry, error) bool) {
	for ctx.Err() == nil {
		err := f.poll(ctx, yield)
		switch {
		case err == errStopped || ctx.Err() != nil:
			return
		case err != nil && endsFollow(err):
			yield(LogEntry{}, err)
			return
		}
		// Any other failure is outlasted: the next poll starts again from
		// the position, which has moved only past entries that were yielded.
		if pipeline.Sleep(ctx, jitter(f.interval)) != nil {
			return
		}
	}
}

// jitter returns d give or take a fifth, at random.
func jitter(d time.Duration) time.Duration {
	fifth := d / 5
	return d - fifth + rand.N(2*fifth+1)
}

// poll reads what is new since the position and yields it oldest first.
func (f *follower) poll(ctx context.Context, yield func(LogEntry, error) bool) error {
	filters := f.filters
	if !f.pos.IsZero() {
		filters = filters.withSince(f.pos.at.Add(-time.Nanosecond))
	}
	w := f.s.newLogWalk(f.projectID, f.service, filters, "", time.Time{})
	top, err := w.Next(ctx)
	if err != nil {
		return err
	}
	if !f.started {
		return f.start(ctx, w, top)
	}
	// Walk back to the position, keeping only the newest page, the page in
	// hand, and how to read the pages in between again.
	last := top
	var steps []logwalk.Request
	held := 0
	for !w.Done() && !f.reached(last) {
		st := w.Step()
		if held += len(st.Cursor); len(steps) == f.walkBound() || held > maxFollowCursorBytes {
			return ErrFollowBacklog
		}
		steps = append(steps, st)
		if last, err = w.Next(ctx); err != nil {
			return err
		}
	}
	f.skip = maps.Clone(f.pos.seen)
	if len(steps) > 0 {
		if err := f.emit(ctx, last, yield); err != nil {
			return err
		}
		for i := len(steps) - 2; i >= 0; i-- {
			page, err := w.Fetch(ctx, steps[i])
			if err != nil {
				return err
			}
			if err := f.emit(ctx, page, yield); err != nil {
				return err
			}
		}
	}
	return f.emit(ctx, top, yield)
}

// reached reports a page that goes back past the position: older pages hold
// nothing new.
func (f *follower) reached(page []LogEntry) bool {
	n := len(page)
	return !f.pos.IsZero() && n > 0 && page[n-1].Timestamp.Before(f.pos.at)
}

// start takes the entries at the newest instant the API holds as seen, so
// that a follow without Since yields only what is written after it starts.
// The clock of the server decides, not the local one: no skew can drop or
// repeat lines. Until a first poll succeeds, nothing is marked.
func (f *follower) start(ctx context.Context, w *logwalk.Walk[LogEntry], page []LogEntry) error {
	var pos LogPosition
	for pages := 1; ; pages++ {
		for _, e := range page {
			if e.Timestamp.IsZero() {
				return ErrUntimedLogs
			}
			if !pos.IsZero() && !e.Timestamp.Equal(pos.at) {
				f.started, f.pos = true, pos
				return nil
			}
			pos.Advance(e)
		}
		if w.Done() {
			f.started, f.pos = true, pos
			return nil
		}
		// More than a page at the newest instant: count them all.
		if pages == f.walkBound() {
			return ErrFollowBacklog
		}
		var err error
		if page, err = w.Next(ctx); err != nil {
			return err
		}
	}
}

// emit yields the new entries of a page, oldest first, moving the position.
func (f *follower) emit(ctx context.Context, page []LogEntry, yield func(LogEntry, error) bool) error {
	for i := len(page) - 1; i >= 0; i-- {
		e := page[i]
		if e.Timestamp.IsZero() {
			return ErrUntimedLogs
		}
		if !f.admit(e) {
			continue
		}
		if ctx.Err() != nil || !yield(e, nil) {
			return errStopped
		}
	}
	return nil
}

// admit reports whether e is new, and if so moves the position past it.
func (f *follower) admit(e LogEntry) bool {
	if !f.pos.IsZero() {
		switch {
		case e.Timestamp.Before(f.pos.at):
			return false
		case e.Timestamp.Equal(f.pos.at):
			if k := entryHash(e); f.skip[k] > 0 {
				f.skip[k]--
				return false
			}
		default:
			clear(f.skip)
		}
	}
	f.pos.Advance(e)
	return true
}
