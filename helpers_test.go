package dbcloud_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
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

// tinyRetries makes a client of the fake retry after a millisecond or two.
var tinyRetries = dbcloud.WithRetryWait(time.Millisecond, 2*time.Millisecond)

// newFake starts a dbcloudtest server configured by opts and returns it
// with a client of it (tinyRetries, then extra). The server, and with it
// every connection of its clients, closes with the test.
func newFake(t testing.TB, opts []dbcloudtest.Option, extra ...dbcloud.Option) (*dbcloud.Client, *dbcloudtest.Server) {
	t.Helper()
	srv := dbcloudtest.NewServer(opts...)
	t.Cleanup(srv.Close)
	return srv.Client(append([]dbcloud.Option{tinyRetries}, extra...)...), srv
}

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
// and returns a client of it (tinyRetries, then extra). The httptest server
// and its connections close with the test, before srv does when srv was
// started first (newFake).
func clientBehind(t testing.TB, srv *dbcloudtest.Server, h http.Handler, extra ...dbcloud.Option) *dbcloud.Client {
	t.Helper()
	ts := httptest.NewServer(h)
	c := srv.Client(append([]dbcloud.Option{tinyRetries, dbcloud.WithBaseURL(ts.URL + "/v1")}, extra...)...)
	t.Cleanup(func() {
		c.CloseIdleConnections()
		ts.CloseClientConnections()
		ts.Close()
	})
	return c
}

// fastPolls makes waits poll every millisecond or two.
var fastPolls = dbcloud.WithPollInterval(time.Millisecond, 2*time.Millisecond)

// createService creates a service named name, failing the test if it cannot.
func createService(t testing.TB, c *dbcloud.Client, project, name string) *dbcloud.Service {
	t.Helper()
	svc, err := c.Services.Create(context.Background(), project, &dbcloud.CreateServiceRequest{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return svc
}

// createReady creates a service on the fake and waits until it is READY.
func createReady(t testing.TB, c *dbcloud.Client, project, name string) *dbcloud.Service {
	t.Helper()
	svc := createService(t, c, project, name)
	ready, err := c.Services.WaitForReady(context.Background(), project, svc.ServiceID, fastPolls)
	if err != nil {
		t.Fatal(err)
	}
	return ready
}

// newOrdersService starts a dbcloudtest server configured by opts, closed
// with the test, and creates a service "orders" on it with a client of it.
func newOrdersService(t *testing.T, opts ...dbcloudtest.Option) (*dbcloudtest.Server, *dbcloud.Client, *dbcloud.Service) {
	t.Helper()
	c, srv := newFake(t, opts)
	return srv, c, createService(t, c, srv.ProjectID, "orders")
}
