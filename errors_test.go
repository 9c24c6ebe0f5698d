package dbcloud_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

var sentinels = []error{
	dbcloud.ErrBadRequest, dbcloud.ErrUnauthorized, dbcloud.ErrForbidden, dbcloud.ErrNotFound,
	dbcloud.ErrConflict, dbcloud.ErrRateLimited, dbcloud.ErrServer, dbcloud.ErrUnexpectedStatus,
	dbcloud.ErrInvalidResponse,
}

func TestErrorMapping(t *testing.T) {
	t.Parallel()
	const proxyPage = "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n"
	tests := []struct {
		status   int
		body     string
		header   http.Header
		sentinel error
		want     dbcloud.APIError
	}{
		{400, `{"code":"INVALID_REQUEST","message":"name: must be 1 to 128 characters","details":"got 0"}`, nil, dbcloud.ErrBadRequest,
			dbcloud.APIError{Code: "INVALID_REQUEST", Message: "name: must be 1 to 128 characters", Details: "got 0"}},
		{401, `{"code":"UNAUTHORIZED","message":"invalid API key"}`, nil, dbcloud.ErrUnauthorized,
			dbcloud.APIError{Code: "UNAUTHORIZED", Message: "invalid API key"}},
		{403, `{"message":"forbidden"}`, nil, dbcloud.ErrForbidden, dbcloud.APIError{Message: "forbidden"}},
		{404, `{"code":"NOT_FOUND","message":"service not found"}`, nil, dbcloud.ErrNotFound,
			dbcloud.APIError{Code: "NOT_FOUND", Message: "service not found"}},
		{409, `{"code":"CONFLICT","message":"pooler already enabled"}`, nil, dbcloud.ErrConflict,
			dbcloud.APIError{Code: "CONFLICT", Message: "pooler already enabled"}},
		{429, `{"code":"RATE_LIMITED"}`, http.Header{"Retry-After": {"7"}}, dbcloud.ErrRateLimited,
			dbcloud.APIError{Code: "RATE_LIMITED", RetryAfter: 7 * time.Second}},
		{500, ``, nil, dbcloud.ErrServer, dbcloud.APIError{}},
		{502, proxyPage, http.Header{"Content-Type": {"text/html"}}, dbcloud.ErrServer,
			dbcloud.APIError{Message: "<html> <head><title>502 Bad Gateway</title></head> <body> <center><h1>502 Bad Gateway</h1></center> <hr><center>nginx</center> </body> </html>"}},
		{503, `{"code":7,"message":"numeric code"}`, nil, dbcloud.ErrServer, dbcloud.APIError{Message: "numeric code"}},
		{418, `not json`, nil, nil, dbcloud.APIError{Message: "not json"}},
	}
	for _, tt := range tests {
		t.Run(http.StatusText(tt.status), func(t *testing.T) {
			t.Parallel()
			c, mt := mockClient(t, dbcloud.WithRetryMax(0))
			header := http.Header{"X-Request-Id": {"req-42"}}
			for k, v := range tt.header {
				header[k] = v
			}
			mt.RegisterResponder("POST", serviceURL+"/enablePooler", httpmock.NewStringResponder(tt.status, tt.body).HeaderSet(header))
			err := c.Services.EnablePooler(t.Context(), "p1", "s1")

			var got *dbcloud.APIError
			if !errors.As(err, &got) {
				t.Fatalf("err = %#v, want *APIError", err)
			}
			want := tt.want
			want.StatusCode, want.RequestID, want.Method, want.Path = tt.status, "req-42", "POST", "/projects/p1/services/s1/enablePooler"
			if diff := cmp.Diff(&want, got); diff != "" {
				t.Errorf("APIError (-want +got):\n%s", diff)
			}
			for _, s := range sentinels {
				if is := errors.Is(err, s); is != (s == tt.sentinel) {
					t.Errorf("errors.Is(err, %v) = %v", s, is)
				}
			}
			for _, part := range []string{"POST", "/projects/p1/services/s1/enablePooler", "req-42", want.Code, want.Message} {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("Error() = %q, want it to contain %q", err, part)
				}
			}
		})
	}
}

// listError is an error type that cannot be a map key: errors.Is hands any
// target to every Is method in the chain, which must not panic on it.
type listError []string

func (listError) Error() string { return "list" }

func TestAPIErrorIsWithUnhashableTarget(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("wrapped: %w", &dbcloud.APIError{StatusCode: http.StatusNotFound})
	if errors.Is(err, listError{"a"}) {
		t.Error("an APIError matched an unrelated error")
	}
	if !errors.Is(err, dbcloud.ErrNotFound) {
		t.Error("the 404 does not match ErrNotFound")
	}
}

func TestErrorMessageOfLongHTMLIsBounded(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t, dbcloud.WithRetryMax(0))
	mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(502, strings.Repeat("é<p>", 1000)))
	_, err := c.Services.Get(t.Context(), "p1", "s1")
	var apiErr *dbcloud.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v", err)
	}
	if n := len([]rune(apiErr.Message)); n != 200 {
		t.Errorf("Message has %d runes, want the first 200", n)
	}
}

// endless is a body that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

func TestBodyBounds(t *testing.T) {
	t.Parallel()
	respond := func(status int, length int64) httpmock.Responder {
		return func(*http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: status, ContentLength: length, Header: http.Header{"X-Request-Id": {"req-9"}}, Body: io.NopCloser(endless{})}, nil
		}
	}
	t.Run("announced success body over 32 MiB", func(t *testing.T) {
		c, mt := mockClient(t)
		mt.RegisterResponder("GET", serviceURL, respond(200, 40<<20))
		_, err := c.Services.Get(t.Context(), "p1", "s1")
		var respErr *dbcloud.ResponseError
		if !errors.As(err, &respErr) || !errors.Is(err, dbcloud.ErrResponseTooLarge) || !errors.Is(err, dbcloud.ErrInvalidResponse) {
			t.Fatalf("err = %v, want a *ResponseError wrapping ErrResponseTooLarge", err)
		}
		if respErr.RequestID != "req-9" || respErr.StatusCode != 200 {
			t.Errorf("ResponseError = %+v, want the status and request id kept", respErr)
		}
	})
	t.Run("endless success body", func(t *testing.T) {
		c, mt := mockClient(t)
		mt.RegisterResponder("GET", serviceURL, respond(200, -1))
		if _, err := c.Services.Get(t.Context(), "p1", "s1"); !errors.Is(err, dbcloud.ErrResponseTooLarge) {
			t.Fatalf("err = %v, want ErrResponseTooLarge", err)
		}
	})
	t.Run("endless error body", func(t *testing.T) {
		c, mt := mockClient(t, dbcloud.WithRetryMax(0))
		mt.RegisterResponder("GET", serviceURL, respond(500, -1))
		if _, err := c.Services.Get(t.Context(), "p1", "s1"); !errors.Is(err, dbcloud.ErrServer) {
			t.Fatalf("err = %v, want the 500 as an *APIError", err)
		}
	})
}

func TestUnreadableSuccessBodies(t *testing.T) {
	t.Parallel()
	for _, body := range []string{``, `   `, `{"service_id":`, `<html>ok</html>`, `[]`} {
		c, mt := mockClient(t)
		mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(200, body))
		_, err := c.Services.Get(t.Context(), "p1", "s1")
		var respErr *dbcloud.ResponseError
		if !errors.As(err, &respErr) || !errors.Is(err, dbcloud.ErrInvalidResponse) {
			t.Errorf("body %q: err = %v, want a *ResponseError", body, err)
		}
	}
}

// Operations that return nothing accept any 2xx, with or without a body.
func TestAnySuccessStatusWithoutBody(t *testing.T) {
	t.Parallel()
	for _, status := range []int{200, 202, 204} {
		c, mt := mockClient(t)
		mt.RegisterResponder("POST", serviceURL+"/updatePassword", httpmock.NewStringResponder(status, ""))
		if err := c.Services.UpdatePassword(t.Context(), "p1", "s1", "n3w-pa55"); err != nil {
			t.Errorf("status %d: %v", status, err)
		}
	}
}

// A response without its required id is unusable: the caller gets a
// *ResponseError naming the element, not a value with an empty id.
func TestMissingRequiredIDs(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t)
	mt.RegisterResponder("GET", servicesURL, httpmock.NewStringResponder(200, "["+serviceJSON+`,{"name":"no id"}]`))
	mt.RegisterResponder("GET", replicasURL, httpmock.NewStringResponder(200, `[{"id":"rs-1"},{"name":"no id"}]`))
	mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(200, `{"name":"no id"}`))
	_, listErr := c.Services.List(t.Context(), "p1")
	_, setsErr := c.ReplicaSets.List(t.Context(), "p1", "s1")
	_, getErr := c.Services.Get(t.Context(), "p1", "s1")
	for name, tt := range map[string]struct {
		err  error
		says string
	}{
		"services": {listErr, "element 1: the service has no service_id"},
		"sets":     {setsErr, "element 1: the replica set has no id"},
		"get":      {getErr, "the service has no service_id"},
	} {
		if !errors.Is(tt.err, dbcloud.ErrInvalidResponse) || !strings.Contains(fmt.Sprint(tt.err), tt.says) {
			t.Errorf("%s: err = %v, want a *ResponseError saying %q", name, tt.err, tt.says)
		}
	}
}
