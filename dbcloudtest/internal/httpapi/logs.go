package httpapi

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/logstore"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/wire"
)

const logPageSize = 500

// getLogs answers one page of a service's logs: the query's filters (400
// when malformed), then the walk from the cursor, if any, whose position
// the store reads.
func (a *API) getLogs(c *call) (reply, error) {
	s := c.svc
	q := c.r.URL.Query()
	f, err := parseLogFilter(q)
	if err != nil {
		return reply{}, err
	}
	if a.cfg.SinceExclusive && f.HasSince {
		f.Since++ // timestamps are whole nanoseconds: "after since" is "from since+1"
	}
	var from *logstore.Position
	if q.Has("cursor") {
		pos, err := a.readCursor(s, q.Get("cursor"))
		if err != nil {
			return reply{}, err
		}
		from = &pos
	}
	kind := logstore.FromNewest
	switch {
	case a.cfg.WindowCursors:
		kind = logstore.InWindow
	case f.HasUntil:
		kind = logstore.FromEntry
	}
	page := s.Logs().Read(&f, from, kind, logPageSize)
	out := wire.Logs{Logs: make([]string, 0, len(page.Entries)), Entries: make([]wire.LogEntry, 0, len(page.Entries))}
	for _, e := range page.Entries {
		out.Logs = append(out.Logs, e.Message)
		out.Entries = append(out.Entries, wire.LogEntry{Message: e.Message, Severity: string(e.Severity), Timestamp: e.Timestamp.Format(time.RFC3339Nano)})
	}
	if page.More {
		out.LastCursor = a.makeCursor(s, page.Next)
		out.LastCursorOld = out.LastCursor
	}
	return ok(out), nil
}

func parseLogFilter(q url.Values) (f logstore.Filter, err error) {
	if q.Has("node") {
		n, err := strconv.ParseInt(q.Get("node"), 10, 32)
		if err != nil || n < 0 {
			return f, apierr.BadRequest("node", "must be an integer >= 0")
		}
		f.Node, f.HasNode = int32(n), true
	}
	for _, term := range q["search"] {
		if strings.TrimSpace(term) == "" {
			return f, apierr.BadRequest("search", "values must not be empty or only spaces")
		}
		f.Search = append(f.Search, strings.ToLower(term))
	}
	for _, sev := range q["severities"] {
		if strings.TrimSpace(sev) == "" {
			return f, apierr.BadRequest("severities", "values must not be empty or only spaces")
		}
		f.Severity(strings.TrimSpace(sev))
	}
	if f.Since, f.HasSince, err = timeParam(q, "since"); err != nil {
		return f, err
	}
	if f.Until, f.HasUntil, err = timeParam(q, "until"); err != nil {
		return f, err
	}
	if f.HasSince && f.HasUntil && f.Until <= f.Since {
		return f, apierr.BadRequest("until", "must be after since")
	}
	return f, nil
}

func timeParam(q url.Values, name string) (int64, bool, error) {
	if !q.Has(name) {
		return 0, false, nil
	}
	t, err := time.Parse(time.RFC3339, q.Get(name))
	if err != nil {
		return 0, false, apierr.BadRequest(name, "must be an RFC 3339 timestamp")
	}
	return t.UnixNano(), true, nil
}
