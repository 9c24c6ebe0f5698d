package dbcloud

import (
	"net/url"
	"strconv"
	"strings"
	"time"
)

// LogOptions filters and positions a read of a service's logs: ListLogs,
// AllLogs, TailLogs and FollowLogs all take it. Each field says which of
// them use it; a field set for a method that does not use it is a
// *ValidationError, returned (or yielded) before anything is sent, never
// silently ignored. The zero value reads from the newest entry with no
// filter.
type LogOptions struct {
	// Cursor continues an earlier read: a LogPage.NextCursor, sent with the
	// same filters and the same Until as the read that returned it.
	// ListLogs and AllLogs.
	Cursor string
	// Node reads one node of a multi-node service; nil = the service's
	// default. Every method.
	Node *int
	// Search keeps the entries that match the terms, full-text, one query
	// parameter per term; an empty or blank term is refused. The API does
	// not say whether case matters or whether every term must match (see
	// "Logs" in the package documentation). Every method.
	Search []string
	// Severities keeps the entries of these levels, one query parameter per
	// value. Every method; not together with MinSeverity.
	Severities []string
	// MinSeverity keeps this level and worse (see Severity), sent as
	// Severities; "" = every level. Every method; not together with
	// Severities.
	MinSeverity Severity
	// Since keeps the entries from this time on; zero = no bound. Every
	// method; for FollowLogs it is where the follow starts (entries at that
	// instant included), and it cannot be set together with After.
	Since time.Time
	// Until keeps the entries before this time; zero = no bound (AllLogs
	// and TailLogs then fix one after the first page: see "Logs" in the
	// package documentation). ListLogs, AllLogs and TailLogs.
	Until time.Time
	// After resumes a follow just after a position (see LogPosition): the
	// one TailLogs returned, or one stored by an earlier run; a zero one is
	// the very beginning of the log. Filter as the read that made it did.
	// FollowLogs only.
	After *LogPosition
	// PollInterval is how long FollowLogs waits between polls, give or take
	// a fifth at random so that many followers do not poll together;
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
