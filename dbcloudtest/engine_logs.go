package dbcloudtest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

const logPageSize = 500

// Severities are stored as small numbers; sevNames gives their wire names.
const (
	sevLog uint8 = iota
	sevInfo
	sevWarning
	sevError
	sevFatal
)

var sevNames = [...]string{sevLog: "LOG", sevInfo: "INFO", sevWarning: "WARNING", sevError: "ERROR", sevFatal: "FATAL"}

// logRec is one stored entry. Messages are rendered from a template and an
// argument when read, so that a history of 100,000 entries stays small.
type logRec struct {
	at   int64  // Unix nanoseconds; never decreases along a store
	arg  uint32 // template argument; for tmplText, the index in logStore.texts
	node int32
	tmpl uint16
	sev  uint8
}

// logStore is a service's history, oldest first. Each entry has a sequence
// number, base+index, that stays the same when older entries are prepended,
// so cursors keep their meaning.
type logStore struct {
	base  int64
	recs  []logRec
	texts []string
	next  int64 // when the next WithLogInterval line is due, Unix nanoseconds
	keep  int   // WithLogRetention: trim applies it as entries are added
}

func (st *logStore) last() int64 {
	if len(st.recs) == 0 {
		return 0
	}
	return st.recs[len(st.recs)-1].at
}

func (st *logStore) add(r logRec) {
	r.at = max(r.at, st.last())
	st.recs = append(st.recs, r)
	st.trim()
}

// event records a lifecycle line on the primary.
func (st *logStore) event(now time.Time, sev uint8, msg string) {
	st.texts = append(st.texts, msg)
	st.add(logRec{at: now.UnixNano(), arg: uint32(len(st.texts) - 1), tmpl: tmplText, sev: sev})
}

func (st *logStore) message(r logRec) string {
	if r.tmpl == tmplText {
		return st.texts[r.arg]
	}
	return templates[r.tmpl].render(r.arg)
}

func (st *logStore) entry(r logRec) NodeLogEntry {
	return NodeLogEntry{LogEntry: dbcloud.LogEntry{Timestamp: time.Unix(0, r.at).UTC(), Severity: dbcloud.Severity(sevNames[r.sev]), Message: st.message(r)}, Node: int(r.node)}
}

// maxStartupReplicaLines bounds the per-replica startup lines of a service
// with many HA replicas.
const maxStartupReplicaLines = 16

// startupLogs writes what a new PostgreSQL service logs while it comes up,
// ending at now, with one entry of every severity so that filters have
// something to find without seedLogs.
func (a *engine) startupLogs(s *service, now time.Time) {
	var recs []logRec
	add := func(tmpl uint16, node int) {
		recs = append(recs, logRec{arg: a.logRand.Uint32(), tmpl: tmpl, node: int32(node), sev: templates[tmpl].sev})
	}
	for _, t := range []uint16{tmplStarting, tmplListen4, tmplListen6, tmplSocket, tmplSystemReady} {
		add(t, 0)
	}
	switch s.typ {
	case typeTimeSeries:
		add(tmplTimescale, 0)
	case typeVector:
		add(tmplVector, 0)
	}
	for n := 1; n <= min(s.replicas, maxStartupReplicaLines); n++ {
		add(tmplStandby, n)
		add(tmplStreaming, n)
	}
	for _, t := range []uint16{tmplCheckpointStart, tmplCheckpointDone, tmplConnReceived, tmplConnAuthorized,
		tmplSlowQuery, tmplJob, tmplNoTransaction, tmplDuplicateKey, tmplPasswordFailed} {
		add(t, 0)
	}
	for i := range recs {
		recs[i].at = now.Add(-time.Duration(len(recs)-1-i) * time.Millisecond).UnixNano()
		s.logs.add(recs[i])
	}
}

// seed prepends n random entries older than everything the store holds.
func (a *engine) seed(s *service, n int, now time.Time) {
	at := now.UnixNano()
	if len(s.logs.recs) > 0 {
		at = s.logs.recs[0].at
	}
	at = at / int64(time.Millisecond) * int64(time.Millisecond)
	recs := make([]logRec, n)
	for i := n - 1; i >= 0; i-- {
		at -= (1 + a.logRand.Int64N(15_000)) * int64(time.Millisecond)
		recs[i] = a.randomRec(s, at)
	}
	s.logs.base -= int64(n)
	s.logs.recs = append(recs, s.logs.recs...)
	s.logs.trim()
}

// randomRec is a realistic line at at: a weighted random template, on the
// primary or, half of the time, on a random HA replica.
func (a *engine) randomRec(s *service, at int64) logRec {
	tmpl := pickTemplate(a.logRand.IntN(totalWeight))
	node := 0
	if s.replicas > 0 && a.logRand.IntN(2) == 0 {
		node = 1 + a.logRand.IntN(s.replicas)
	}
	return logRec{at: at, arg: a.logRand.Uint32(), node: int32(node), tmpl: tmpl, sev: templates[tmpl].sev}
}

// seedLogs adds n realistic entries to a service's history, all older than
// the entries it already has, so tests can exercise pagination and filters.
func (a *engine) seedLogs(serviceID string, n int) error {
	if n < 0 {
		return fmt.Errorf("dbcloudtest: SeedLogs: negative count %d", n)
	}
	return a.withService(serviceID, func(s *service, now time.Time) error {
		a.seed(s, n, now)
		return nil
	})
}

// logs returns a service's whole history, newest first: what the logs
// endpoint returns without filters, all pages concatenated.
func (a *engine) logs(serviceID string) (out []NodeLogEntry, err error) {
	err = a.withService(serviceID, func(s *service, _ time.Time) error {
		out = make([]NodeLogEntry, 0, len(s.logs.recs))
		for i := len(s.logs.recs) - 1; i >= 0; i-- {
			out = append(out, s.logs.entry(s.logs.recs[i]))
		}
		return nil
	})
	return out, err
}

// logFilter is the filtered walk a logs request asks for; a cursor only says
// where to resume it, so every page of a walk must repeat the same filters.
type logFilter struct {
	since, until       int64
	hasSince, hasUntil bool
	node               int32
	hasNode            bool
	sevs               uint8 // bit per severity
	hasSevs            bool
	search             []string // lower case
}

func (f *logFilter) match(st *logStore, r logRec) bool {
	switch {
	case f.hasSince && r.at < f.since,
		f.hasUntil && r.at >= f.until,
		f.hasNode && r.node != f.node,
		f.hasSevs && f.sevs&(1<<r.sev) == 0:
		return false
	}
	if len(f.search) > 0 {
		msg := strings.ToLower(st.message(r))
		for _, term := range f.search {
			if !strings.Contains(msg, term) {
				return false
			}
		}
	}
	return true
}

func parseLogFilter(q url.Values) (f logFilter, err error) {
	if q.Has("node") {
		n, err := strconv.ParseInt(q.Get("node"), 10, 32)
		if err != nil || n < 0 {
			return f, badRequest("node", "must be an integer >= 0")
		}
		f.node, f.hasNode = int32(n), true
	}
	for _, term := range q["search"] {
		if strings.TrimSpace(term) == "" {
			return f, badRequest("search", "values must not be empty or only spaces")
		}
		f.search = append(f.search, strings.ToLower(term))
	}
	for _, sev := range q["severities"] {
		if strings.TrimSpace(sev) == "" {
			return f, badRequest("severities", "values must not be empty or only spaces")
		}
		f.hasSevs = true
		if n, ok := severity(strings.TrimSpace(sev)); ok {
			f.sevs |= 1 << n
		} // an unknown level matches nothing
	}
	if f.since, f.hasSince, err = timeParam(q, "since"); err != nil {
		return f, err
	}
	if f.until, f.hasUntil, err = timeParam(q, "until"); err != nil {
		return f, err
	}
	if f.hasSince && f.hasUntil && f.until <= f.since {
		return f, badRequest("until", "must be after since")
	}
	return f, nil
}

func timeParam(q url.Values, name string) (int64, bool, error) {
	if !q.Has(name) {
		return 0, false, nil
	}
	t, err := time.Parse(time.RFC3339, q.Get(name))
	if err != nil {
		return 0, false, badRequest(name, "must be an RFC 3339 timestamp")
	}
	return t.UnixNano(), true, nil
}

// cursor tokens carry a position and a MAC over it and the service, so a
// forged cursor or one from another service is refused.
//
// A cursor issued for a read with until names an entry (its sequence
// number): it keeps its place however many entries are added. One issued
// for a read without until is, like the live service's, positioned relative
// to the newest entry at each request (its offset from the newest end):
// entries added between two page requests push the window back, so the next
// page repeats entries the previous one held. With WithWindowCursors every
// cursor is an offset from the newest entry of the request's window (the
// newest before until, or the newest of all), as the live service's are:
// the MAC does not cover the window, so the same text comes back in every
// window at the same depth. A ninth byte, the kind, tells them apart.
const cursorMACLen = 12

// The kinds of cursor, by what their position counts from.
const (
	cursorEntry      byte = iota // names an entry by sequence number
	cursorFromNewest             // offset from the newest entry, at each request
	cursorInWindow               // offset from the newest entry of the request's window
)

func (a *engine) cursorMAC(s *service, seq []byte) []byte {
	m := hmac.New(sha256.New, a.cursorKey)
	m.Write([]byte(s.project + "\x00" + s.id + "\x00"))
	m.Write(seq)
	return m.Sum(nil)[:cursorMACLen]
}

func (a *engine) makeCursor(s *service, pos int64, kind byte) string {
	buf := append(binary.BigEndian.AppendUint64(nil, uint64(pos)), kind)
	return base64.RawURLEncoding.EncodeToString(append(buf, a.cursorMAC(s, buf)...))
}

func (a *engine) readCursor(s *service, token string) (pos int64, kind byte, err error) {
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) != 9+cursorMACLen || raw[8] > cursorInWindow || !hmac.Equal(raw[9:], a.cursorMAC(s, raw[:9])) {
		return 0, 0, badRequest("cursor", "is not a cursor issued for this service")
	}
	return int64(binary.BigEndian.Uint64(raw[:8])), raw[8], nil
}

type logEntryJSON struct {
	Message   string `json:"message"`
	Severity  string `json:"severity"`
	Timestamp string `json:"timestamp"`
}

type logsJSON struct {
	Logs          []string       `json:"logs"`
	Entries       []logEntryJSON `json:"entries"`
	LastCursor    string         `json:"last_cursor,omitempty"`
	LastCursorOld string         `json:"lastCursor,omitempty"`
}

func (a *engine) getLogs(c *call) (reply, error) {
	s := c.svc
	q := c.r.URL.Query()
	f, err := parseLogFilter(q)
	if err != nil {
		return reply{}, err
	}
	if a.sinceExclusive && f.hasSince {
		f.since++ // timestamps are whole nanoseconds: "after since" is "from since+1"
	}
	st := &s.logs
	top := len(st.recs) - 1 // the newest entry of the window
	if f.hasUntil {
		top = sort.Search(len(st.recs), func(j int) bool { return st.recs[j].at >= f.until }) - 1
	}
	i := top
	if q.Has("cursor") {
		pos, kind, err := a.readCursor(s, q.Get("cursor"))
		if err != nil {
			return reply{}, err
		}
		switch kind {
		case cursorFromNewest:
			i = len(st.recs) - 1 - int(min(pos, int64(len(st.recs))))
		case cursorInWindow:
			i = top - int(min(pos, int64(top+1)))
		default:
			i = min(int(pos-st.base), i) // clamped: an API built with the same seed issues the same cursors
		}
	}
	out := logsJSON{Logs: []string{}, Entries: []logEntryJSON{}}
	lastIdx := -1
	for ; i >= 0; i-- {
		r := st.recs[i]
		if f.hasSince && r.at < f.since {
			break // entries only get older from here
		}
		if !f.match(st, r) {
			continue
		}
		if len(out.Entries) == logPageSize {
			switch next := lastIdx - 1; {
			case a.windowCursors:
				out.LastCursor = a.makeCursor(s, int64(top-next), cursorInWindow)
			case f.hasUntil:
				out.LastCursor = a.makeCursor(s, st.base+int64(next), cursorEntry)
			default:
				out.LastCursor = a.makeCursor(s, int64(len(st.recs)-1-next), cursorFromNewest)
			}
			out.LastCursorOld = out.LastCursor
			break
		}
		e := st.entry(r)
		out.Logs = append(out.Logs, e.Message)
		out.Entries = append(out.Entries, logEntryJSON{e.Message, string(e.Severity), e.Timestamp.Format(time.RFC3339Nano)})
		lastIdx = i
	}
	return reply{status: http.StatusOK, body: out}, nil
}
