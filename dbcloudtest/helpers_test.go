package dbcloudtest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
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

// send sends one request to the server with its API key and decodes a
// JSON answer into out (unless nil), failing the test unless the answer
// has status want. It reaches the operations the SDK does not have.
func send(t testing.TB, srv *dbcloudtest.Server, method, path, body string, want int, out any) {
	t.Helper()
	if err := request(t.Context(), srv, method, path, body, want, out); err != nil {
		t.Fatal(err)
	}
}

// request is send for a goroutine other than the test's: it returns what
// went wrong instead of failing the test.
func request(ctx context.Context, srv *dbcloudtest.Server, method, path, body string, want int, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, srv.URL+path, strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+srv.APIKey)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != want {
		return fmt.Errorf("%s %s: status %d, want %d", method, path, res.StatusCode, want)
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(res.Body).Decode(out)
}

// createVPC creates a VPC in project and returns its id.
func createVPC(t testing.TB, srv *dbcloudtest.Server, project string) string {
	t.Helper()
	var vpc struct{ ID string }
	send(t, srv, "POST", "/projects/"+project+"/vpcs", `{"name": "net", "cidr": "10.0.0.0/16", "region_code": "us-east-1"}`, 201, &vpc)
	return vpc.ID
}
