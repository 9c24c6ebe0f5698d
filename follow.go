package dbcloud

import (
	"context"
	"errors"
	"iter"
	"maps"
	"math/rand/v2"
	"time"
)

// DefaultFollowInterval is how often FollowLogs polls when
// LogOptions.PollInterval is 0.
const DefaultFollowInterval = 2 * time.Second

// FollowLogs yields a service's log entries oldest first as they are written,
// like tail -f, polling the API until ctx ends.
//
// It starts at opts.Since (entries at that instant included) or, when Since
// is zero, after the entries the API holds at the first poll that succeeds:
// those count as seen. The server's clock decides, not the local one, so
// clock skew neither drops nor repeats a line. Search, Severities and Node
// filter as for ListLogs; PollInterval sets the pace. Cursor and Until have
// no meaning in a follow: setting either is a *ValidationError, yielded
// before anything is sent.
//
// Every entry is yielded once, also when more than a page of entries is
// written between two polls and when entries share a timestamp: entries at
// one instant are told apart by severity and message and counted, so that
// two identical lines are two lines. This holds whether the API's since
// bound includes its own instant or not. An entry the API records with a
// timestamp older than one already yielded is not seen.
//
// A poll that finds nothing new is one request. A poll that finds more than
// a page walks back to the last entry yielded, page by page as the API serves
// them (newest first), within one window fixed after the first page (see
// AllLogs), and then yields oldest first, reading the pages between the
// newest and the oldest a second time rather than holding them: k pages cost
// 2k-2 requests. A follow holds at most two pages, a cursor per page of the
// current poll, and a hash of each entry yielded at the newest instant,
// however long it runs. The cursors are bounded: a poll that would walk back
// through more than MaxFollowWalk pages, or hold more than 4 MiB of cursors
// (only a broken or hostile server sends such cursors), ends the follow with
// ErrFollowBacklog; resume it with a LogPosition (see Follow).
//
// Network errors, 5xx and 429, once the request's own retries are spent, are
// outlasted: the next poll resumes where the last yielded entry left off. A
// 404 (the service is gone) or another 4xx is yielded once, with a zero
// LogEntry, and ends the follow, as do ErrRepeatedCursor, ErrUntimedLogs and
// ErrFollowBacklog.
// The end of ctx ends it with no error.
//
//	ctx, stop := signal.NotifyContext(ctx, os.Interrupt)
//	defer stop()
//	for entry, err := range client.Services.FollowLogs(ctx, projectID, serviceID, nil) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(entry.Timestamp, entry.Severity, entry.Message)
//	}
func (s *ServicesClient) FollowLogs(ctx context.Context, projectID, serviceID string, opts *LogOptions) iter.Seq2[LogEntry, error] {
	return follow(ctx, func() (*follower, error) { return s.newFollower(projectID, serviceID, opts) })
}

// follow is the sequence of a follow that start sets up anew at each
// iteration; an error setting it up is the only value yielded.
func follow(ctx context.Context, start func() (*follower, error)) iter.Seq2[LogEntry, error] {
	return func(yield func(LogEntry, error) bool) {
		f, err := start()
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
	opts               LogOptions // the filters; Since, Until and Cursor are set per request
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
	f := &follower{s: s, projectID: projectID, service: serviceID}
	if opts != nil {
		f.opts = *opts
	}
	switch {
	case f.opts.Cursor != "":
		return nil, invalid("Cursor", "FollowLogs starts from Since, not from a cursor")
	case !f.opts.Until.IsZero():
		return nil, invalid("Until", "FollowLogs has no end: use a context to stop it")
	case f.opts.PollInterval < 0:
		return nil, invalid("PollInterval", "must not be negative")
	}
	// Bad ids or filters are reported now, before anything is sent.
	if err := checkService(projectID, serviceID); err != nil {
		return nil, err
	}
	if _, err := f.opts.query(); err != nil {
		return nil, err
	}
	f.interval = f.opts.PollInterval
	if f.interval == 0 {
		f.interval = DefaultFollowInterval
	}
	if !f.opts.Since.IsZero() {
		f.started = true
		f.pos = LogPosition{at: f.opts.Since, seen: map[uint64]uint32{}}
	}
	return f, nil
}

// ErrUntimedLogs is yielded by FollowLogs when the API sends log lines
// without timestamps (only the deprecated "logs" strings): a follow needs
// them to tell new lines from old ones.
var ErrUntimedLogs = errors.New("dbcloud: log entries without timestamps cannot be followed")

// MaxFollowWalk is the most pages one poll of a follow walks back through
// (5,000,000 entries), and maxFollowCursorBytes the most cursor text it
// holds to read them again: a broken or hostile server that keeps handing
// out new cursors cannot grow a follow's memory without bound.
const (
	MaxFollowWalk        = 10_000
	maxFollowCursorBytes = 4 << 20
)

// ErrFollowBacklog is yielded by a follow whose poll would walk back through
// more than MaxFollowWalk pages (or 4 MiB of cursors) to reach the last
// entry it yielded. Resume with the LogPosition of the last entry handled
// and a later Since, or read the backlog with AllLogs.
var ErrFollowBacklog = errors.New("dbcloud: more new log entries than a follow walks back through at once")

// endsFollow reports an error that no later poll can outlast.
func endsFollow(err error) bool {
	return isTerminal(err) || errors.Is(err, ErrRepeatedCursor) || errors.Is(err, ErrUntimedLogs) ||
		errors.Is(err, ErrFollowBacklog)
}

// errStopped is poll's report that the consumer stopped the loop.
var errStopped = errors.New("dbcloud: follow stopped by its consumer")

func (f *follower) run(ctx context.Context, yield func(LogEntry, error) bool) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		}
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
		timer.Reset(jitter(f.interval))
	}
}

// jitter returns d give or take a fifth, at random.
func jitter(d time.Duration) time.Duration {
	fifth := d / 5
	return d - fifth + rand.N(2*fifth+1)
}

// poll reads what is new since the position and yields it oldest first.
func (f *follower) poll(ctx context.Context, yield func(LogEntry, error) bool) error {
	q := f.opts
	if !f.pos.IsZero() {
		q.Since = f.pos.at.Add(-time.Nanosecond)
	}
	w := f.s.newLogWalk(f.projectID, f.service, q)
	top, err := w.next(ctx)
	if err != nil {
		return err
	}
	if !f.started {
		return f.start(ctx, w, top)
	}
	// Walk back to the position, keeping only the newest page, the page in
	// hand, and how to read the pages in between again.
	last := top
	var steps []walkStep
	held := 0
	for !w.done && !f.reached(last) {
		st := w.step()
		if held += len(st.cursor); len(steps) == MaxFollowWalk || held > maxFollowCursorBytes {
			return ErrFollowBacklog
		}
		steps = append(steps, st)
		if last, err = w.next(ctx); err != nil {
			return err
		}
	}
	f.skip = maps.Clone(f.pos.seen)
	if len(steps) > 0 {
		if err := f.emit(ctx, last, yield); err != nil {
			return err
		}
		for i := len(steps) - 2; i >= 0; i-- {
			page, err := w.fetch(ctx, steps[i])
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
func (f *follower) reached(p *LogPage) bool {
	n := len(p.Entries)
	return !f.pos.IsZero() && n > 0 && p.Entries[n-1].Timestamp.Before(f.pos.at)
}

// start takes the entries at the newest instant the API holds as seen, so
// that a follow without Since yields only what is written after it starts.
// The clock of the server decides, not the local one: no skew can drop or
// repeat lines. Until a first poll succeeds, nothing is marked.
func (f *follower) start(ctx context.Context, w *logWalk, p *LogPage) error {
	var pos LogPosition
	for pages := 1; ; pages++ {
		for _, e := range p.Entries {
			if e.Timestamp.IsZero() {
				return ErrUntimedLogs
			}
			if !pos.IsZero() && !e.Timestamp.Equal(pos.at) {
				f.started, f.pos = true, pos
				return nil
			}
			pos.Advance(e)
		}
		if w.done {
			f.started, f.pos = true, pos
			return nil
		}
		// More than a page at the newest instant: count them all.
		if pages == MaxFollowWalk {
			return ErrFollowBacklog
		}
		var err error
		if p, err = w.next(ctx); err != nil {
			return err
		}
	}
}

// emit yields the new entries of a page, oldest first, moving the position.
func (f *follower) emit(ctx context.Context, p *LogPage, yield func(LogEntry, error) bool) error {
	for i := len(p.Entries) - 1; i >= 0; i-- {
		e := p.Entries[i]
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
