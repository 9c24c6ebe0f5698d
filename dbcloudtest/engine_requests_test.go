package dbcloudtest

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRequestsRecordsEveryAnswer(t *testing.T) {
	f := newFake(t, config{})
	list := "/projects/" + f.proj + "/services"
	id := f.create(nil)
	f.send("GET", f.svcPath(id)+"/logs?severities=ERROR&search=a%20b", nil)
	f.send("GET", f.svcPath(id), nil, "Authorization", "")
	f.send("PUT", f.svcPath(id), nil)
	f.api.injectFault(Fault{Method: "GET", Path: "/projects/*/services", Status: 503})
	f.send("GET", list, nil)
	f.api.injectFault(Fault{Method: "POST", Drop: true})
	if _, err := f.rawDo(t.Context(), "POST", list, `{"name": "lost"}`); err == nil {
		t.Fatal("dropped request succeeded")
	}
	f.api.injectFault(Fault{Method: "GET", Truncate: true})
	if res, err := f.rawDo(t.Context(), "GET", list, ""); err == nil {
		res.Body.Close()
	}

	want := []Request{
		{"POST", list, "", http.StatusAccepted},
		{"GET", f.svcPath(id) + "/logs", "severities=ERROR&search=a%20b", http.StatusOK},
		{"GET", f.svcPath(id), "", http.StatusUnauthorized},
		{"PUT", f.svcPath(id), "", http.StatusMethodNotAllowed},
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
	f.send("GET", list, nil)
	if diff := cmp.Diff([]Request{{"GET", list, "", 200}}, f.api.requestLog()); diff != "" {
		t.Errorf("after ResetCounts (-want +got):\n%s", diff)
	}
}

// With WithRequestLog(false) a long-running fake keeps only the counts.
func TestRequestsOff(t *testing.T) {
	f := newFake(t, config{noLog: true})
	f.create(nil)
	if got := f.api.requestLog(); len(got) != 0 {
		t.Errorf("recorded %v", got)
	}
	if n := f.api.count("", ""); n != 1 {
		t.Errorf("Count = %d", n)
	}
}
