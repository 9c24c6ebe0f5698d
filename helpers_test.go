package dbcloud_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
	"github.com/jarcoal/httpmock"
)

// The package's own tests check for leaks with dbcloudtest's check too
// (export_test.go).
func init() { dbcloud.SetCheckGoroutines(dbcloudtest.CheckGoroutines) }

const (
	mockKey  = "sk-test-7f3a9c2e1b5d"
	mockBase = "https://api.test/v1"
)

// mockClient returns a client whose attempts go to a fresh httpmock
// transport, with tiny retry waits. An unregistered route fails the test.
func mockClient(t *testing.T, opts ...dbcloud.Option) (*dbcloud.Client, *httpmock.MockTransport) {
	t.Helper()
	return credClient(t, dbcloud.APIKey(mockKey), opts...)
}

// serviceJSON is a minimal valid Service response body.
const serviceJSON = `{"service_id":"s1","project_id":"p1","name":"db","region_code":"us-east-1",` +
	`"service_type":"POSTGRES","status":"READY","created":"2026-01-02T03:04:05Z","resources":[]}`

// statusResponder answers code with an API error body naming it.
func statusResponder(code int) httpmock.Responder {
	return httpmock.NewStringResponder(code, `{"code":"X","message":"status `+http.StatusText(code)+`"}`)
}

// setStatus forces a service of srv into status, failing the test if it
// cannot.
func setStatus(t testing.TB, srv *dbcloudtest.Server, serviceID string, status dbcloud.ServiceStatus) {
	t.Helper()
	if err := srv.SetStatus(serviceID, status); err != nil {
		t.Fatal(err)
	}
}

// clientBehind serves h, a handler in front of srv.Handler(), with httptest
// and returns a client of it (fixture.TinyRetries, then extra). The
// httptest server and its connections close with the test, before srv does
// when srv was started first (fixture.NewFake).
func clientBehind(t testing.TB, srv *dbcloudtest.Server, h http.Handler, extra ...dbcloud.Option) *dbcloud.Client {
	t.Helper()
	ts := httptest.NewServer(h)
	c := srv.Client(append([]dbcloud.Option{fixture.TinyRetries, dbcloud.WithBaseURL(ts.URL + "/v1")}, extra...)...)
	t.Cleanup(func() {
		c.CloseIdleConnections()
		ts.CloseClientConnections()
		ts.Close()
	})
	return c
}

// newOrdersService starts a dbcloudtest server configured by opts, closed
// with the test, and creates a service "orders" on it with a client of it.
func newOrdersService(t *testing.T, opts ...dbcloudtest.Option) (*dbcloudtest.Server, *dbcloud.Client, *dbcloud.Service) {
	t.Helper()
	c, srv := fixture.NewFake(t, opts)
	return srv, c, fixture.CreateService(t, c, srv.ProjectID, "orders")
}
