package dbcloud

import (
	"net/url"
	"strconv"
	"strings"
	"time"
)

// LogOptions filters and positions a read of a service's logs (see Logs in
// the package documentation). A field set for a method that does not use
// it is a *ValidationError before anything is sent. The zero value reads
// from the newest entry with no filter. Every method takes Node (nil: the
// default node), Search (full-text terms, none blank), Severities or
// MinSeverity (this level and worse; not both), and Since (zero: no bound;
// for FollowLogs, where it starts, that instant included).
type LogOptions struct {
	// Cursor is a LogPage.NextCursor, sent with the filters and Until of
	// the read that returned it. ListLogs and AllLogs.
	Cursor      string
	Node        *int
	Search      []string
	Severities  []string
	MinSeverity Severity
	Since       time.Time
	// Until keeps entries before it; zero: no bound. Not FollowLogs.
	Until time.Time
	// After resumes a follow just after a position (zero: the log's
	// beginning), with the filters of the read that made it. FollowLogs
	// only; not with Since.
	After *LogPosition
	// PollInterval is FollowLogs' wait between polls, ±20% at random;
	// 0 = DefaultFollowInterval. FollowLogs only.
	PollInterval time.Duration
}

// logMethod is a method that reads logs: what LogOptions it accepts
// depends on it.
type logMethod uint8

const (
	logList logMethod = iota
	logAll
	logTail
	logFollow
)

var logMethodNames = [...]string{logList: "ListLogs", logAll: "AllLogs", logTail: "TailLogs", logFollow: "FollowLogs"}

// logFilters is what LogOptions sends on every request of one read: the
// filters, checked and encoded once. Cursor and until are set per request.
type logFilters struct {
	q url.Values
}

// filters checks o for method m and encodes its filters.
func (o *LogOptions) filters(m logMethod) (logFilters, error) {
	if o == nil {
		return logFilters{}, nil
	}
	name := logMethodNames[m]
	switch {
	case o.Cursor != "" && m != logList && m != logAll:
		return logFilters{}, invalid("Cursor", name+" does not take a cursor: ListLogs and AllLogs do")
	case !o.Until.IsZero() && m == logFollow:
		return logFilters{}, invalid("Until", "FollowLogs has no end: use a context to stop it")
	case o.After != nil && m != logFollow:
		return logFilters{}, invalid("After", name+" does not resume from a position: FollowLogs does")
	case o.After != nil && !o.Since.IsZero():
		return logFilters{}, invalid("Since", "a follow starts After a position or at Since, not both")
	case o.PollInterval != 0 && m != logFollow:
		return logFilters{}, invalid("PollInterval", name+" does not poll: FollowLogs does")
	case o.PollInterval < 0:
		return logFilters{}, invalid("PollInterval", "must not be negative")
	case o.MinSeverity != "" && len(o.Severities) > 0:
		return logFilters{}, invalid("MinSeverity", "set MinSeverity or Severities, not both")
	case !o.Since.IsZero() && !o.Until.IsZero() && !o.Since.Before(o.Until):
		return logFilters{}, invalid("Since", "must be before Until")
	}
	sevs, err := severitiesFrom(o.MinSeverity)
	if err != nil {
		return logFilters{}, err
	}
	if sevs == nil {
		sevs = o.Severities
	}
	q := url.Values{}
	if o.Node != nil {
		if *o.Node < 0 {
			return logFilters{}, invalid("Node", "must not be negative")
		}
		q.Set("node", strconv.Itoa(*o.Node))
	}
	for _, f := range []struct {
		name, param string
		values      []string
	}{{"Search", "search", o.Search}, {"Severities", "severities", sevs}} {
		for _, v := range f.values {
			if strings.TrimSpace(v) == "" {
				return logFilters{}, invalid(f.name, "values must not be empty or only spaces")
			}
			q.Add(f.param, v)
		}
	}
	if !o.Since.IsZero() {
		q.Set("since", formatLogTime(o.Since))
	}
	return logFilters{q: q}, nil
}

// withSince returns f with since set to t (a follow's poll), or removed
// when t is zero.
func (f logFilters) withSince(t time.Time) logFilters {
	q := make(url.Values, len(f.q)+1)
	for k, v := range f.q {
		q[k] = v
	}
	if t.IsZero() {
		delete(q, "since")
	} else {
		q.Set("since", formatLogTime(t))
	}
	return logFilters{q: q}
}

func formatLogTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// query is the query of one request: the filters, and cursor and until
// when set. nil when there is nothing to send.
func (f logFilters) query(cursor string, until time.Time) url.Values {
	if len(f.q) == 0 && cursor == "" && until.IsZero() {
		return nil
	}
	q := make(url.Values, len(f.q)+2)
	for k, v := range f.q {
		q[k] = v // the values are never modified, only read
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	if !until.IsZero() {
		q.Set("until", formatLogTime(until))
	}
	return q
}
