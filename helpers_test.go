package dbcloud_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/jarcoal/httpmock"
)

const (
	mockKey  = "sk-test-7f3a9c2e1b5d"
	mockBase = "https://api.test/v1"
)

// mockClient returns a client whose attempts go to a fresh httpmock
// transport, with tiny retry waits. An unregistered route fails the test.
func mockClient(t *testing.T, opts ...dbcloud.Option) (*dbcloud.Client, *httpmock.MockTransport) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	mt.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		t.Errorf("unexpected request %s %s", req.Method, req.URL)
		return httpmock.NewStringResponse(http.StatusTeapot, ""), nil
	})
	all := append([]dbcloud.Option{
		dbcloud.WithBaseURL(mockBase),
		dbcloud.WithHTTPClient(&http.Client{Transport: mt}),
		dbcloud.WithRetryWait(time.Millisecond, 2*time.Millisecond),
	}, opts...)
	c, err := dbcloud.NewClient(mockKey, all...)
	if err != nil {
		t.Fatal(err)
	}
	return c, mt
}

// serviceJSON is a minimal valid Service response body.
const serviceJSON = `{"service_id":"s1","project_id":"p1","name":"db","region_code":"us-east-1",` +
	`"service_type":"POSTGRES","status":"READY","created":"2026-01-02T03:04:05Z","resources":[]}`
