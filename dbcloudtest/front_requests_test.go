package dbcloudtest

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRequestsRecordsEveryAnswer(t *testing.T) {
	f := newFake(t, config{})
	list := f.ServicesPath()
	id := f.Create(nil)
	f.Send("GET", f.SvcPath(id)+"/logs?severities=ERROR&search=a%20b", nil)
	f.Send("GET", f.SvcPath(id), nil, "Authorization", "")
	f.Send("PUT", f.SvcPath(id), nil)
	f.api.injectFault(Fault{Method: "GET", Path: "/projects/*/services", Status: 503})
	f.Send("GET", list, nil)
	f.api.injectFault(Fault{Method: "POST", Drop: true})
	if _, err := f.RawDo(t.Context(), "POST", list, `{"name": "lost"}`); err == nil {
		t.Fatal("dropped request succeeded")
	}
	f.api.injectFault(Fault{Method: "GET", Truncate: true})
	if res, err := f.RawDo(t.Context(), "GET", list, ""); err == nil {
		res.Body.Close()
	}

	want := []Request{
		{"POST", list, "", http.StatusAccepted},
		{"GET", f.SvcPath(id) + "/logs", "severities=ERROR&search=a%20b", http.StatusOK},
		{"GET", f.SvcPath(id), "", http.StatusUnauthorized},
		{"PUT", f.SvcPath(id), "", http.StatusMethodNotAllowed},
		{"GET", list, "", http.StatusServiceUnavailable},
		{"POST", list, "", 0},
		{"GET", list, "", http.StatusOK}, // the status line went out before the cut
	}
	if diff := cmp.Diff(want, f.api.requestLog()); diff != "" {
		t.Errorf("Requests (-want +got):\n%s", diff)
	}
	if n := f.api.count("", ""); n != len(want) {
		t.Errorf("Count = %d, Requests has %d", n, len(want))
	}

	f.api.resetCounts()
	if got := f.api.requestLog(); len(got) != 0 {
		t.Errorf("after ResetCounts: %v", got)
	}
	f.Send("GET", list, nil)
	if diff := cmp.Diff([]Request{{"GET", list, "", 200}}, f.api.requestLog()); diff != "" {
		t.Errorf("after ResetCounts (-want +got):\n%s", diff)
	}
}

// With WithRequestLog(false) a long-running fake keeps only the counts.
func TestRequestsOff(t *testing.T) {
	f := newFake(t, config{noLog: true})
	f.Create(nil)
	if got := f.api.requestLog(); len(got) != 0 {
		t.Errorf("recorded %v", got)
	}
	if n := f.api.count("", ""); n != 1 {
		t.Errorf("Count = %d", n)
	}
}

// Ids are path segments however they are escaped: they can never reach
// another route or another resource.
func TestEscapedIDs(t *testing.T) {
	f := newFake(t, config{})
	id := f.Ready(nil)
	f.Send("POST", f.SvcPath(id)+"/replicaSets", map[string]any{"name": "r", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}).Must(t, 202)
	for _, tc := range []struct{ method, path string }{
		{"GET", f.SvcPath(id + "%2Fstart")},
		{"POST", f.SvcPath(id+"%2Fstop") + "/start"},
		{"GET", f.SvcPath("..")},
		{"GET", f.SvcPath("..") + "/logs"},
		{"POST", f.SvcPath("..") + "/stop"},
		{"GET", f.SvcPath(id + "%3Fx=1")},
		{"GET", f.SvcPath("%2E%2E")},
		{"GET", "/projects/..%2F" + f.Proj + "/services"},
		{"GET", "/projects/" + f.Proj + "%2Fservices%2F" + id + "/services"},
		{"DELETE", f.SvcPath(id) + "/replicaSets/..%2F.."},
		{"POST", f.SvcPath(id) + "/replicaSets/rs-x%2Fresize/enablePooler"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			f.Send(tc.method, tc.path, nil).MustError(t, 404, "NOT_FOUND", "not found")
		})
	}
	f.WantStatus(id, "READY")
	if n := f.api.count("GET", f.SvcPath(id+"%2Fstart")); n != 1 {
		t.Errorf("Count of the escaped path = %d, want 1", n)
	}
}
