package dbcloud_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	gocmp "github.com/google/go-cmp/cmp"
)

// newLoggedService returns a server and a READY service with n seeded log
// entries besides its startup lines.
func newLoggedService(t *testing.T, n int, opts ...dbcloudtest.Option) (*dbcloudtest.Server, *dbcloud.Client, string) {
	t.Helper()
	srv, c, svc := newOrdersService(t, opts...)
	if _, err := c.Services.WaitForReady(t.Context(), srv.ProjectID, svc.ServiceID); err != nil {
		t.Fatal(err)
	}
	if err := srv.SeedLogs(svc.ServiceID, n); err != nil {
		t.Fatal(err)
	}
	return srv, c, svc.ServiceID
}

func collect(t *testing.T, seq func(func(dbcloud.LogEntry, error) bool), between func(i int)) []dbcloud.LogEntry {
	t.Helper()
	var out []dbcloud.LogEntry
	for e, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
		if between != nil {
			between(len(out))
		}
	}
	return out
}

// Entries written while AllLogs reads (here after each page) come neither
// in the read nor twice: the dbcloudtest server, like the live service,
// positions a cursor of a read without until from its newest entry, so
// without a fixed window each new entry repeats one on the next page.
func TestAllLogsEntriesArrivingBetweenPagesComeOnce(t *testing.T) {
	srv, c, id := newLoggedService(t, 1700)
	want := collect(t, c.Services.AllLogs(t.Context(), srv.ProjectID, id, nil), nil)
	if len(want) <= 3*dbcloud.MaxLogPage {
		t.Fatalf("history of %d entries, want more than 3 pages", len(want))
	}
	before := srv.Count("GET", "/projects/*/services/*/logs")
	got := collect(t, c.Services.AllLogs(t.Context(), srv.ProjectID, id, nil), func(i int) {
		if i%dbcloud.MaxLogPage == 0 { // the page is done; the next is not asked for yet
			for j := range 3 {
				if err := srv.AppendLogs(id, dbcloud.LogEntry{Severity: "LOG", Message: fmt.Sprintf("written during the read %d.%d", i, j)}); err != nil {
					t.Fatal(err)
				}
			}
			srv.Advance(time.Millisecond)
		}
	})
	if d := gocmp.Diff(want, got); d != "" {
		t.Errorf("AllLogs with entries arriving between pages (-before +during):\n%s", d)
	}
	if n, pages := srv.Count("GET", "/projects/*/services/*/logs")-before, (len(want)+dbcloud.MaxLogPage-1)/dbcloud.MaxLogPage; n != pages {
		t.Errorf("%d requests for %d pages, want one a page", n, pages)
	}
}
