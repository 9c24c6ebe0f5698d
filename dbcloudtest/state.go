package dbcloudtest

import (
	"encoding/json"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/logstore"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/wire"
)

// Advance moves the server's clock forward by d. With WithStep(d), each
// Advance(d) moves every pending asynchronous operation to its next status.
// It panics if d is negative: the clock never goes back.
func (s *Server) Advance(d time.Duration) {
	if d < 0 {
		panic("dbcloudtest: Advance: negative duration " + d.String())
	}
	s.model.Clock().Advance(d)
}

// Now returns the time on the server's clock: where it started plus every
// Advance (and, with WithRealTime, the real time gone by since; with
// WithTickingClock, the ticks so far: Now itself does not tick). The server
// compares times it is sent with this clock, not with
// time.Now: derive a log window from it. (A PITR fork's TargetTime is
// judged on both clocks: see "Time" in the package doc.)
func (s *Server) Now() time.Time { return s.model.Clock().Peek() }

// Service returns the service with this id, in any project, as a GET of it
// would return it now (InitialPassword is empty: the API sends it only in
// the responses of create and fork). ok is false when there is no such
// service, or no longer: a deleted service is gone once its deletion is
// done.
func (s *Server) Service(serviceID string) (svc dbcloud.Service, ok bool) {
	v, ok := s.model.ServiceView(serviceID)
	if !ok {
		return dbcloud.Service{}, false
	}
	mustDecode(v, &svc)
	return svc, true
}

// Services returns every service of every project, newest first (a
// project's list answers oldest first), each as the API would return it
// now.
func (s *Server) Services() []dbcloud.Service {
	var out []dbcloud.Service
	mustDecode(s.model.ServicesView(), &out)
	return out
}

// mustDecode decodes a view of the model, through its wire encoding, into
// the SDK's type for it: a failure is a bug in this package.
func mustDecode(view, v any) {
	if err := json.Unmarshal(wire.Encode(view), v); err != nil {
		panic("dbcloudtest: decoding the server's own view: " + err.Error())
	}
}

// SetStatus forces a service into status, any status at all (UNSTABLE,
// DELETED, or a value this SDK does not know), and cancels the statuses its
// last operation had planned, so that a test reaches states no request leads
// to. The model then treats the service as it treats that status: a
// DELETED service stays readable and refuses every change with 409.
func (s *Server) SetStatus(serviceID string, status dbcloud.ServiceStatus) error {
	return s.model.SetStatus(serviceID, string(status))
}

// SetReplicaSetStatus forces a read replica set into status (for example
// dbcloud.ReplicaSetError, from which the API refuses a resize but allows a
// delete) and cancels the statuses its last operation had planned.
func (s *Server) SetReplicaSetStatus(serviceID, replicaSetID string, status dbcloud.ReplicaSetStatus) error {
	return s.model.SetReplicaSetStatus(serviceID, replicaSetID, string(status))
}

// SeedLogs adds n generated PostgreSQL log entries to a service's history,
// all older than the entries it has, a few seconds apart and of every
// severity, so that a test can page through a long history or filter it.
func (s *Server) SeedLogs(serviceID string, n int) error {
	return s.model.SeedLogs(serviceID, n)
}

// AppendLogs adds entries to a service's history, each at its Timestamp:
// at the newest end, as the running database would write them, or at any
// earlier time, before the service's first lines too, for a test that
// gives a service a history of its own. A zero Timestamp means now on the
// server's clock (Now); an empty Severity means LOG; the severities are
// those of dbcloud.Severity (DEBUG, LOG, INFO, NOTICE, WARNING, ERROR, FATAL
// and PANIC), in any case, and any other is an error, and then none of the
// entries is added. Entries that share a
// timestamp keep the order given, after those already there. Entries older
// than the whole history leave every cursor handed out valid; one placed
// between existing entries can make a walk under way see an entry twice.
func (s *Server) AppendLogs(serviceID string, entries ...dbcloud.LogEntry) error {
	recs := make([]logstore.Entry, len(entries))
	for i, e := range entries {
		recs[i] = logstore.Entry{LogEntry: e}
	}
	return s.model.AppendLogs(serviceID, recs...)
}

// Logs returns a service's whole log history, newest first: what the logs
// endpoint returns without filters, every page in order, with the
// timestamps, severities and messages a client reads. It lets a test
// compare what the code under test printed or stored with what the server
// holds.
func (s *Server) Logs(serviceID string) ([]dbcloud.LogEntry, error) {
	recs, err := s.NodeLogs(serviceID)
	if err != nil {
		return nil, err
	}
	out := make([]dbcloud.LogEntry, len(recs))
	for i, r := range recs {
		out[i] = r.LogEntry
	}
	return out, nil
}
