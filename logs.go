package dbcloud

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// LogOptions filters and positions a read of a service's logs. The zero
// value reads from the newest entry with no filter.
//
// LogOptions serves ListLogs, AllLogs and FollowLogs alike, so it holds
// fields that some of them refuse or ignore. LogReadOptions (ReadLogs,
// TailLogs) and LogFollowOptions (Follow) carry only what each accepts, and
// add MinSeverity and resuming from a LogPosition.
type LogOptions struct {
	Cursor     string    // a LogPage.NextCursor, to continue an earlier read
	Node       *int      // one node of a multi-node service; nil = the service's default
	Search     []string  // full-text terms, all of which must match; one query parameter per term
	Severities []string  // severity levels to keep (LOG, WARNING, ERROR, ...); one query parameter per value
	Since      time.Time // only entries after this time; zero = no bound
	Until      time.Time // only entries before this time; zero = no bound

	// PollInterval is how long FollowLogs waits between polls, give or take
	// a fifth at random so that many followers do not poll together;
	// 0 = DefaultFollowInterval. Other reads ignore it.
	PollInterval time.Duration
}

// LogPage is one page of log entries, newest first.
type LogPage struct {
	Entries    []LogEntry
	NextCursor string // "" = no older page
}

// LogEntry is one line of a service's log.
type LogEntry struct {
	Timestamp time.Time `json:"timestamp"`
	Severity  string    `json:"severity"`
	Message   string    `json:"message"`
}

// ListLogs reads one page (at most 500 entries) of a service's logs, newest
// first. Pass NextCursor back as LogOptions.Cursor for the next, older page,
// with the same filters and the same Until; AllLogs does this for you.
//
// A cursor is valid only within the window it was issued for: the live
// service positions one issued for a read without Until relative to its
// newest entry at each request, so an entry written before the next request
// repeats an entry on the next page. Set Until for a walk of several pages
// (AllLogs fixes it after the first page).
func (s *ServicesClient) ListLogs(ctx context.Context, projectID, serviceID string, opts *LogOptions) (*LogPage, error) {
	r := servicePlace.request("Services.ListLogs", http.MethodGet, tplService+"/logs", ref{projectID, serviceID, ""})
	if r.err == nil {
		r.query, r.err = opts.query()
	}
	var w logsJSON
	if err := s.api.run(ctx, r, &w); err != nil {
		return nil, err
	}
	return &LogPage{Entries: w.Entries, NextCursor: w.LastCursor}, nil
}

func (o *LogOptions) query() (url.Values, error) {
	if o == nil {
		return nil, nil
	}
	q := url.Values{}
	if o.Cursor != "" {
		q.Set("cursor", o.Cursor)
	}
	if o.Node != nil {
		if *o.Node < 0 {
			return nil, invalid("Node", "must not be negative")
		}
		q.Set("node", strconv.Itoa(*o.Node))
	}
	for _, f := range []struct {
		name, param string
		values      []string
	}{{"Search", "search", o.Search}, {"Severities", "severities", o.Severities}} {
		for _, v := range f.values {
			if strings.TrimSpace(v) == "" {
				return nil, invalid(f.name, "values must not be empty or only spaces")
			}
			q.Add(f.param, v)
		}
	}
	if !o.Since.IsZero() && !o.Until.IsZero() && !o.Since.Before(o.Until) {
		return nil, invalid("Since", "must be before Until")
	}
	if !o.Since.IsZero() {
		q.Set("since", o.Since.UTC().Format(time.RFC3339Nano))
	}
	if !o.Until.IsZero() {
		q.Set("until", o.Until.UTC().Format(time.RFC3339Nano))
	}
	return q, nil
}

// ErrRepeatedCursor is yielded by AllLogs when the API hands back a cursor it
// already gave: following it would loop forever.
var ErrRepeatedCursor = errors.New("dbcloud: logs cursor repeated")

// cursorSet is the cursors a walk through a history has followed, so that a
// cursor the API hands back again (a cycle of any length) ends the walk
// instead of looping forever. Cursors are kept as hashes: 8 bytes a page,
// not a page's worth of memory.
type cursorSet struct {
	seed maphash.Seed
	seen map[uint64]struct{}
}

func newCursorSet() cursorSet {
	return cursorSet{seed: maphash.MakeSeed(), seen: map[uint64]struct{}{}}
}

// add records cursor, or returns an error matching ErrRepeatedCursor when it
// was followed before. "" (the newest page) is never a repeat.
func (c cursorSet) add(cursor string) error {
	if cursor == "" {
		return nil
	}
	h := maphash.String(c.seed, cursor)
	if _, dup := c.seen[h]; dup {
		return fmt.Errorf("%w: %q", ErrRepeatedCursor, clip(cursor, maxFieldRunes))
	}
	c.seen[h] = struct{}{}
	return nil
}

// AllLogs yields every log entry of a service matching opts, newest first,
// following the cursor from page to page until the API returns none.
//
// One read is one window of the history: when opts has neither Until nor a
// Cursor, entries written while AllLogs reads are not yielded, and none is
// yielded twice. The live service positions a cursor of a read without
// until relative to its newest entry, so without a fixed window an entry
// written between two page requests would repeat an entry on the next page;
// AllLogs therefore fixes until after the first page, just after that
// page's oldest entry, on the server's clock (its official client fixes it
// to the local time of the first request, which a skewed clock moves). See
// logWalk for the details; the window costs no extra request. With a Cursor
// and no Until, the window is the one the cursor was issued for.
//
// Pages are fetched lazily: breaking out of the loop after the first entry
// costs one request, and at most one page is held in memory whatever the
// history's length. Each page is a GET, retried like any other. On an error
// AllLogs yields it once, with a zero LogEntry, and stops.
//
//	for entry, err := range client.Services.AllLogs(ctx, projectID, serviceID, nil) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(entry.Timestamp, entry.Severity, entry.Message)
//	}
func (s *ServicesClient) AllLogs(ctx context.Context, projectID, serviceID string, opts *LogOptions) iter.Seq2[LogEntry, error] {
	return func(yield func(LogEntry, error) bool) {
		var o LogOptions
		if opts != nil {
			o = *opts // a copy: the cursor moves, the caller's options do not
		}
		w := s.newLogWalk(projectID, serviceID, o)
		for !w.done {
			page, err := w.next(ctx)
			if err != nil {
				yield(LogEntry{}, err)
				return
			}
			for _, e := range page.Entries {
				if !yield(e, nil) {
					return
				}
			}
		}
	}
}
