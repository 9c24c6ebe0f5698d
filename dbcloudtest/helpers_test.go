package dbcloudtest_test

import (
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// newServer starts a server that closes with the test.
func newServer(t testing.TB, opts ...dbcloudtest.Option) *dbcloudtest.Server {
	t.Helper()
	srv := dbcloudtest.NewServer(opts...)
	t.Cleanup(srv.Close)
	return srv
}

// create creates a service called "orders" and returns the create's answer.
func create(t testing.TB, c *dbcloud.Client, project string) *dbcloud.Service {
	t.Helper()
	svc, err := c.Services.Create(t.Context(), project, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// createSeeded creates a service with n generated log entries besides its
// own and returns it with the whole history the server holds.
func createSeeded(t testing.TB, srv *dbcloudtest.Server, c *dbcloud.Client, n int) (*dbcloud.Service, []dbcloud.LogEntry) {
	t.Helper()
	svc := create(t, c, srv.ProjectID)
	if err := srv.SeedLogs(svc.ServiceID, n); err != nil {
		t.Fatal(err)
	}
	held, err := srv.Logs(svc.ServiceID)
	if err != nil {
		t.Fatal(err)
	}
	return svc, held
}

// createReady creates a service and waits until it is READY.
func createReady(t testing.TB, c *dbcloud.Client, project string) *dbcloud.Service {
	t.Helper()
	svc := create(t, c, project)
	ready, err := c.Services.WaitForReady(t.Context(), project, svc.ServiceID)
	if err != nil {
		t.Fatal(err)
	}
	return ready
}

// checkUserError checks that a helper failed with an error that speaks of
// this package only.
func checkUserError(t *testing.T, name string, err error) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error", name)
	} else if msg := err.Error(); !strings.HasPrefix(msg, "dbcloudtest: ") || strings.Count(msg, "dbcloudtest: ") != 1 {
		t.Errorf("%s: error %q", name, msg)
	}
}
