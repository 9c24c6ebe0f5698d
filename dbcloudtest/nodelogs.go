package dbcloudtest

import (
	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/logstore"
)

// NodeLogEntry is a log entry written by one node of a service: Node 0 is
// the primary, 1 to n its HA replicas. The API's entries do not say which
// node wrote them, so dbcloud.LogEntry has no such field; the logs endpoint
// filters on it (dbcloud.LogOptions.Node), and AppendNodeLogs is how a test
// gives entries one.
type NodeLogEntry struct {
	dbcloud.LogEntry
	Node int
}

// AppendNodeLogs adds entries at the newest end of a service's history, as
// AppendLogs does, each written by its Node, so that a test of code that
// reads one node's logs (dbcloud.LogOptions.Node) has entries to keep and
// entries to leave out, in one history and in the order given. AppendLogs is
// AppendNodeLogs with every Node 0. A negative Node is an error, and then
// none of the entries is added.
func (s *Server) AppendNodeLogs(serviceID string, entries ...NodeLogEntry) error {
	recs := make([]logstore.Entry, len(entries))
	for i, e := range entries {
		recs[i] = logstore.Entry(e)
	}
	return s.model.AppendLogs(serviceID, recs...)
}

// NodeLogs returns a service's whole log history, newest first, as Logs
// does, with the node that wrote each entry, so that a test of code that
// filters on dbcloud.LogOptions.Node can compute what the filter should
// keep from what the server holds.
func (s *Server) NodeLogs(serviceID string) ([]NodeLogEntry, error) {
	recs, err := s.model.Logs(serviceID)
	out := make([]NodeLogEntry, len(recs))
	for i, r := range recs {
		out[i] = NodeLogEntry(r)
	}
	return out, err
}
