package dbcloudtest_test

import (
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/google/go-cmp/cmp"
)

// The since bound includes an entry at its own instant by default and
// excludes it with WithExclusiveSince; later entries are read either way.
func TestWithExclusiveSince(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts []dbcloudtest.Option
		want []string
	}{
		{"default", nil, []string{"after", "on the bound"}},
		{"exclusive", []dbcloudtest.Option{dbcloudtest.WithExclusiveSince()}, []string{"after"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, tt.opts...)
			c := srv.Client()
			svc := createReady(t, c, srv.ProjectID)
			srv.Advance(time.Hour)
			bound := srv.Now()
			if err := srv.AppendLogs(svc.ServiceID,
				dbcloud.LogEntry{Timestamp: bound, Message: "on the bound"},
				dbcloud.LogEntry{Timestamp: bound.Add(time.Microsecond), Message: "after"}); err != nil {
				t.Fatal(err)
			}
			page, err := c.Services.ListLogs(t.Context(), srv.ProjectID, svc.ServiceID, &dbcloud.LogOptions{Since: bound})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range page.Entries {
				got = append(got, e.Message)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("entries from since (-want +got):\n%s", diff)
			}
		})
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

// AppendNodeLogs gives entries a node that the logs endpoint filters on, and
// adds none of them when one is invalid.
func TestAppendNodeLogs(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	svc := createReady(t, c, srv.ProjectID)
	srv.Advance(time.Hour)
	at := srv.Now()
	entry := func(msg string, node int) dbcloudtest.NodeLogEntry {
		return dbcloudtest.NodeLogEntry{LogEntry: dbcloud.LogEntry{Timestamp: at, Severity: "ERROR", Message: msg}, Node: node}
	}
	if err := srv.AppendNodeLogs(svc.ServiceID, entry("primary", 0), entry("replica 1", 1), entry("replica 2", 2)); err != nil {
		t.Fatal(err)
	}
	if err := srv.AppendNodeLogs(svc.ServiceID, entry("valid", 1), entry("negative", -1)); err == nil {
		t.Error("a negative node was accepted")
	}
	for node, want := range []string{"primary", "replica 1", "replica 2"} {
		page, err := c.Services.ListLogs(t.Context(), srv.ProjectID, svc.ServiceID, &dbcloud.LogOptions{Since: at, Node: &node})
		if err != nil {
			t.Fatal(err)
		}
		wantPage := []dbcloud.LogEntry{{Timestamp: at, Severity: "ERROR", Message: want}}
		if diff := cmp.Diff(wantPage, page.Entries); diff != "" {
			t.Errorf("node %d (-want +got):\n%s", node, diff)
		}
	}
	all, err := srv.NodeLogs(svc.ServiceID)
	if err != nil {
		t.Fatal(err)
	}
	want := []dbcloudtest.NodeLogEntry{entry("replica 2", 2), entry("replica 1", 1), entry("primary", 0)}
	if diff := cmp.Diff(want, all[:3]); diff != "" {
		t.Errorf("NodeLogs, newest first (-want +got); the failed append added entries if it shows them:\n%s", diff)
	}
	logs, err := srv.Logs(svc.ServiceID)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range all {
		if e.LogEntry != logs[i] {
			t.Fatalf("entry %d: NodeLogs %+v, Logs %+v", i, e.LogEntry, logs[i])
		}
	}
	if _, err := srv.NodeLogs("no-such-service"); err == nil {
		t.Error("NodeLogs of an unknown service: no error")
	}
}
