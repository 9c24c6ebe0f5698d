package dbcloudtest_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/google/go-cmp/cmp"
)

// Every field of Fault reaches the server, seen through the SDK as a user
// would see it.
func TestFaults(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	ctx := t.Context()
	p := srv.ProjectID
	create := &dbcloud.CreateServiceRequest{Name: "db"}

	// Status, Header and Body, on the matching method and path only.
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: "/projects/*/services", Status: 503,
		Header: http.Header{"X-Proxy": {"edge-7"}}, Body: `{"code":"UNAVAILABLE","message":"try later"}`})
	if _, err := c.Services.List(ctx, p); err != nil {
		t.Fatalf("a GET took the POST's fault: %v", err)
	}
	_, err := c.Services.Create(ctx, p, create)
	var apiErr *dbcloud.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || apiErr.Message != "try later" || !errors.Is(err, dbcloud.ErrServer) {
		t.Errorf("Create under a 503: %v", err)
	}
	if n := len(srv.Services()); n != 0 {
		t.Errorf("a faulted create made %d services", n)
	}

	// Drop with AfterHandling: the service exists although the create failed.
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: "/projects/*/services", Drop: true, AfterHandling: true})
	if _, err := c.Services.Create(ctx, p, create); err == nil {
		t.Error("Create through a dropped connection succeeded")
	}
	made := srv.Services()
	if len(made) != 1 {
		t.Fatalf("Drop+AfterHandling made %d services, want 1", len(made))
	}
	id := made[0].ServiceID

	// Drop alone, Times 2: the SDK retries the GET and gets through.
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services/*", Times: 2, Drop: true})
	if _, err := c.Services.Get(ctx, p, id); err != nil {
		t.Errorf("Get after two drops: %v", err)
	}

	// Truncate: the body is cut; a GET is read again.
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services/*", Truncate: true})
	if _, err := c.Services.Get(ctx, p, id); err != nil {
		t.Errorf("Get after a cut-off body: %v", err)
	}

	// Delay: the answer comes late, or not before the caller's deadline.
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services/*", Delay: 20 * time.Millisecond})
	start := time.Now()
	if _, err := c.Services.Get(ctx, p, id); err != nil || time.Since(start) < 20*time.Millisecond {
		t.Errorf("Get with a 20 ms delay: %v after %v", err, time.Since(start))
	}

	wantGet := dbcloudtest.Request{Method: "GET", Path: "/projects/" + p + "/services/" + id}
	ok := func(r dbcloudtest.Request, status int) dbcloudtest.Request { r.Status = status; return r }
	want := []dbcloudtest.Request{
		{Method: "GET", Path: "/projects/" + p + "/services", Status: 200},
		{Method: "POST", Path: "/projects/" + p + "/services", Status: 503},
		{Method: "POST", Path: "/projects/" + p + "/services", Status: 0},
		ok(wantGet, 0), ok(wantGet, 0), ok(wantGet, 200),
		ok(wantGet, 200), ok(wantGet, 200), // cut, then read again
		ok(wantGet, 200),
	}
	if diff := cmp.Diff(want, srv.Requests()); diff != "" {
		t.Errorf("Requests (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		method, path string
		want         int
	}{
		{"", "", 9},
		{"POST", "", 2},
		{"GET", "/projects/*/services/*", 6},
		{"GET", "/projects/" + p + "/services/" + id, 6},
		{"DELETE", "/projects/*/services/*", 0},
	} {
		if got := srv.Count(tc.method, tc.path); got != tc.want {
			t.Errorf("Count(%q, %q) = %d, want %d", tc.method, tc.path, got, tc.want)
		}
	}
}

// Requests keeps the query string as sent.
func TestRequestsQuery(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	svc := createReady(t, c, srv.ProjectID)
	_, err := c.Services.ListLogs(t.Context(), srv.ProjectID, svc.ServiceID, &dbcloud.LogOptions{Severities: []string{"ERROR", "FATAL"}})
	if err != nil {
		t.Fatal(err)
	}
	all := srv.Requests()
	if last := all[len(all)-1]; last.Query != "severities=ERROR&severities=FATAL" || last.Status != 200 {
		t.Errorf("last request %+v", last)
	}
}

// ResetRequests empties Count and Requests and leaves the state alone;
// requests after it are counted again.
func TestResetRequests(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	svc := createReady(t, c, srv.ProjectID)
	if srv.Count("", "") == 0 || len(srv.Requests()) == 0 {
		t.Fatal("the setup's requests were not counted")
	}
	srv.ResetRequests()
	if n, reqs := srv.Count("", ""), srv.Requests(); n != 0 || len(reqs) != 0 {
		t.Fatalf("after ResetRequests: Count %d, Requests %v", n, reqs)
	}
	if _, err := c.Services.Get(t.Context(), srv.ProjectID, svc.ServiceID); err != nil {
		t.Fatal(err)
	}
	want := []dbcloudtest.Request{{Method: "GET", Path: "/projects/" + srv.ProjectID + "/services/" + svc.ServiceID, Status: 200}}
	if diff := cmp.Diff(want, srv.Requests()); diff != "" {
		t.Errorf("Requests after one Get (-want +got):\n%s", diff)
	}
	if n := srv.Count("GET", "/projects/*/services/*"); n != 1 {
		t.Errorf("Count of the Get = %d, want 1", n)
	}
	if got, ok := srv.Service(svc.ServiceID); !ok || got.Status != dbcloud.StatusReady {
		t.Errorf("the service after ResetRequests: %+v, %v", got, ok)
	}
}
