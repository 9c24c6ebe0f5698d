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
// them (newest first), and then yields oldest first, reading the pages
// between the newest and the oldest a second time rather than holding them:
// k pages cost 2k-2 requests. A follow holds at most two pages, a cursor per
// page of the current poll, and the severity and message of the entries
// yielded at the newest instant, however long it runs.
//
// Network errors, 5xx and 429, once the request's own retries are spent, are
// outlasted: the next poll resumes where the last yielded entry left off. A
// 404 (the service is gone) or another 4xx is yielded once, with a zero
// LogEntry, and ends the follow, as do ErrRepeatedCursor and ErrUntimedLogs.
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
	return func(yield func(LogEntry, error) bool) {
		f, err := s.newFollower(projectID, serviceID, opts)
		if err != nil {
			yield(LogEntry{}, err)
			return
		}
		f.run(ctx, yield)
	}
}

// entryKey tells apart entries of one instant; the node is not on the wire.
type entryKey struct{ severity, message string }

func keyOf(e LogEntry) entryKey { return entryKey{e.Severity, e.Message} }

// follower is the state of one FollowLogs.
//
// The API has no forward cursor, only since and a backward cursor. Each poll
// therefore asks for the entries since the mark (the newest timestamp
// yielded), 1 ns earlier so that the mark's own instant is included whether
// since is inclusive or exclusive, walks back with the cursor to the mark,
// and yields what it found oldest first, minus what was already yielded at
// the mark's instant.
type follower struct {
	s                  *ServicesClient
	projectID, service string
	opts               LogOptions // the filters; Since and Cursor are set per request
	interval           time.Duration

	started bool      // the start is known: opts.Since, or the first poll when it is zero
	hasMark bool      // false until an entry is yielded or seen, when opts.Since is zero
	mark    time.Time // the newest timestamp yielded, or opts.Since
	// atMark counts, by severity and message, the entries at exactly mark
	// that were yielded (or counted as seen at the start).
	atMark map[entryKey]int
	// skip is, during a poll, what is left of atMark as it was when the
	// poll began: the entries at the old mark that this poll reads again.
	skip map[entryKey]int
}

func (s *ServicesClient) newFollower(projectID, serviceID string, opts *LogOptions) (*follower, error) {
	f := &follower{s: s, projectID: projectID, service: serviceID, atMark: map[entryKey]int{}}
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
		f.started, f.hasMark, f.mark = true, true, f.opts.Since
	}
	return f, nil
}

// ErrUntimedLogs is yielded by FollowLogs when the API sends log lines
// without timestamps (only the deprecated "logs" strings): a follow needs
// them to tell new lines from old ones.
var ErrUntimedLogs = errors.New("dbcloud: log entries without timestamps cannot be followed")

// endsFollow reports an error that no later poll can outlast.
func endsFollow(err error) bool {
	return isTerminal(err) || errors.Is(err, ErrRepeatedCursor) || errors.Is(err, ErrUntimedLogs)
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
		// the mark, which has moved only past entries that were yielded.
		timer.Reset(jitter(f.interval))
	}
}

// jitter returns d give or take a fifth, at random.
func jitter(d time.Duration) time.Duration {
	fifth := d / 5
	return d - fifth + rand.N(2*fifth+1)
}

// poll reads what is new since the mark and yields it oldest first.
func (f *follower) poll(ctx context.Context, yield func(LogEntry, error) bool) error {
	q := f.opts
	if f.hasMark {
		q.Since = f.mark.Add(-time.Nanosecond)
	}
	top, err := f.s.ListLogs(ctx, f.projectID, f.service, &q)
	if err != nil {
		return err
	}
	if !f.started {
		return f.start(ctx, q, top)
	}
	// Walk back to the mark, keeping only the newest page, the page in
	// hand, and the cursors of the pages in between to read them again.
	last := top
	var cursors []string
	followed := newCursorSet()
	for last.NextCursor != "" && !f.reached(last) {
		if err := followed.add(last.NextCursor); err != nil {
			return err
		}
		cursors = append(cursors, last.NextCursor)
		q.Cursor = last.NextCursor
		if last, err = f.s.ListLogs(ctx, f.projectID, f.service, &q); err != nil {
			return err
		}
	}
	f.skip = maps.Clone(f.atMark)
	if len(cursors) > 0 {
		if err := f.emit(ctx, last, yield); err != nil {
			return err
		}
		for i := len(cursors) - 2; i >= 0; i-- {
			q.Cursor = cursors[i]
			page, err := f.s.ListLogs(ctx, f.projectID, f.service, &q)
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

// reached reports a page that goes back past the mark: older pages hold
// nothing new.
func (f *follower) reached(p *LogPage) bool {
	n := len(p.Entries)
	return f.hasMark && n > 0 && p.Entries[n-1].Timestamp.Before(f.mark)
}

// start takes the entries at the newest instant the API holds as seen, so
// that a follow without Since yields only what is written after it starts.
// The clock of the server decides, not the local one: no skew can drop or
// repeat lines. Until a first poll succeeds, nothing is marked.
func (f *follower) start(ctx context.Context, q LogOptions, p *LogPage) error {
	var mark time.Time
	atMark := map[entryKey]int{}
	followed := newCursorSet()
	for {
		for _, e := range p.Entries {
			if e.Timestamp.IsZero() {
				return ErrUntimedLogs
			}
			if len(atMark) == 0 {
				mark = e.Timestamp
			}
			if !e.Timestamp.Equal(mark) {
				f.begin(mark, atMark)
				return nil
			}
			atMark[keyOf(e)]++
		}
		if p.NextCursor == "" {
			f.begin(mark, atMark)
			return nil
		}
		// More than a page at the newest instant: count them all.
		if err := followed.add(p.NextCursor); err != nil {
			return err
		}
		q.Cursor = p.NextCursor
		var err error
		if p, err = f.s.ListLogs(ctx, f.projectID, f.service, &q); err != nil {
			return err
		}
	}
}

// begin records where a follow without Since starts: after the entries
// counted in atMark, at mark; with none, at the very beginning.
func (f *follower) begin(mark time.Time, atMark map[entryKey]int) {
	f.started = true
	f.hasMark = len(atMark) > 0
	f.mark, f.atMark = mark, atMark
}

// emit yields the new entries of a page, oldest first, moving the mark.
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

// admit reports whether e is new, and if so records it as yielded.
func (f *follower) admit(e LogEntry) bool {
	if f.hasMark {
		switch {
		case e.Timestamp.Before(f.mark):
			return false
		case e.Timestamp.Equal(f.mark):
			k := keyOf(e)
			if f.skip[k] > 0 {
				f.skip[k]--
				return false
			}
			f.atMark[k]++
			return true
		}
	}
	f.hasMark, f.mark = true, e.Timestamp
	clear(f.atMark)
	clear(f.skip)
	f.atMark[keyOf(e)] = 1
	return true
}
