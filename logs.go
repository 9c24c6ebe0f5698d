package dbcloud

import (
	"context"
	"errors"
	"iter"
	"net/http"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/logwalk"
)

// LogPage is one page of log entries, newest first.
type LogPage struct {
	Entries    []LogEntry
	NextCursor string // "" = no older page
}

// ListLogs reads one page (at most MaxLogPage entries) of a service's logs,
// newest first. Pass NextCursor back as LogOptions.Cursor, with the same
// filters and Until (set one for a walk: see Logs in the package
// documentation), for the next, older page; AllLogs does this for you.
func (s *ServicesClient) ListLogs(ctx context.Context, projectID, serviceID string, opts *LogOptions) (*LogPage, error) {
	f, err := opts.filters(logList)
	if err != nil {
		return nil, err
	}
	var cursor string
	var until time.Time
	if opts != nil {
		cursor, until = opts.Cursor, opts.Until
	}
	return s.listLogs(ctx, ref{projectID: projectID, serviceID: serviceID}, f, cursor, until)
}

// listLogs sends one logs request: every page of every read is one.
func (s *ServicesClient) listLogs(ctx context.Context, at ref, f logFilters, cursor string, until time.Time) (*LogPage, error) {
	seg, err := at.escape(inService)
	if err != nil {
		return nil, err
	}
	var w logsJSON
	err = s.api.do(ctx, &request{op: "Services.ListLogs", method: http.MethodGet, kind: KindService, at: at,
		tpl: tplService + "/logs", path: "/projects/" + seg.projectID + "/services/" + seg.serviceID + "/logs",
		query: f.query(cursor, until)}, &w)
	if err != nil {
		return nil, err
	}
	return &LogPage{Entries: w.Entries, NextCursor: w.LastCursor}, nil
}

// ErrRepeatedCursor is returned by AllLogs, TailLogs and FollowLogs when
// the API answers with a cursor that leads back to a request the read
// already made (the same cursor in the same window): following it would
// loop forever. The same cursor text in another window is not a repeat.
var ErrRepeatedCursor = errors.New("dbcloud: logs cursor repeated")

// AllLogs yields every log entry of a service matching opts, newest first,
// fetching pages lazily, one window of the history (see Logs in the
// package documentation). An error is yielded once, with a zero LogEntry,
// and ends it.
//
//	for entry, err := range client.Services.AllLogs(ctx, projectID, serviceID, nil) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(entry.Timestamp, entry.Severity, entry.Message)
//	}
func (s *ServicesClient) AllLogs(ctx context.Context, projectID, serviceID string, opts *LogOptions) iter.Seq2[LogEntry, error] {
	return func(yield func(LogEntry, error) bool) {
		f, err := opts.filters(logAll)
		if err != nil {
			yield(LogEntry{}, err)
			return
		}
		var o LogOptions
		if opts != nil {
			o = *opts // read once: a caller changing opts during the loop changes nothing
		}
		w := s.newLogWalk(projectID, serviceID, f, o.Cursor, o.Until)
		for !w.Done() {
			page, err := w.Next(ctx)
			if err != nil {
				yield(LogEntry{}, err)
				return
			}
			for _, e := range page {
				if !yield(e, nil) {
					return
				}
			}
		}
	}
}

// newLogWalk starts a walk through a service's history, newest first, with
// the filters f, from cursor within until (both may be empty): every read
// of several pages (AllLogs, TailLogs, a follow's poll) is one. The walk's
// rules (one window, requests keyed on cursor and window, cycles) are
// logwalk's; this is where they meet the API's requests.
func (s *ServicesClient) newLogWalk(projectID, serviceID string, f logFilters, cursor string, until time.Time) *logwalk.Walk[LogEntry] {
	return logwalk.New(logwalk.Config[LogEntry]{
		Source:   logPages{s: s, at: ref{projectID: projectID, serviceID: serviceID}, filters: f},
		Cursor:   cursor,
		Until:    until,
		Repeated: ErrRepeatedCursor,
	})
}

// logPages is the log of one service, as a walk reads it: one logs request
// a page.
type logPages struct {
	s       *ServicesClient
	at      ref
	filters logFilters
}

// Fetch sends one logs request.
func (p logPages) Fetch(ctx context.Context, cursor string, until time.Time) ([]LogEntry, string, error) {
	page, err := p.s.listLogs(ctx, p.at, p.filters, cursor, until)
	if err != nil {
		return nil, "", err
	}
	return page.Entries, page.NextCursor, nil
}

// Time is an entry's timestamp.
func (logPages) Time(e LogEntry) time.Time { return e.Timestamp }

// Key tells apart the entries of one instant (entryHash).
func (logPages) Key(e LogEntry) uint64 { return entryHash(e) }
