package dbcloud_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/jarcoal/httpmock"
)

// A 101 Switching Protocols answer followed by silence: its body is the raw
// connection, which no context reaches. The call must end with its context,
// not when the server hangs up.
func TestSwitchingProtocolsThenSilenceEndsWithTheContext(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				_, _ = http.ReadRequest(bufio.NewReader(conn))
				_, _ = io.WriteString(conn, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: x\r\nConnection: Upgrade\r\n\r\n")
				select { // silence, until the test ends or 10 s
				case <-done:
				case <-time.After(10 * time.Second):
				}
			}()
		}
	}()
	defer ln.Close()
	c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL("http://"+ln.Addr().String()+"/v1"), dbcloud.WithRetryMax(0))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = c.Services.Get(ctx, "p1", "s1")
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("took %v, want the call to end with its 300 ms context", took)
	}
	if err == nil {
		t.Error("err = nil, want a failure for a 101")
	}
}

// Every text the server chooses that reaches an error is clipped like
// Message and scrubbed of the API key: a 256 KiB X-Request-Id holding the
// key becomes a bounded id without it, on an *APIError and a
// *ResponseError alike.
func TestServerTextsInErrorsAreClippedAndScrubbed(t *testing.T) {
	t.Parallel()
	id := strings.Repeat("r", 256<<10) + mockKey
	for _, tt := range []struct {
		name      string
		responder httpmock.Responder
	}{
		{"APIError", httpmock.NewStringResponder(404, `{"code":"NOT_FOUND"}`).HeaderSet(http.Header{"X-Request-Id": {mockKey + id}})},
		{"ResponseError", httpmock.NewStringResponder(200, `{"service_id":`).HeaderSet(http.Header{"X-Request-Id": {mockKey + id}})},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, mt := mockClient(t, dbcloud.WithRetryMax(0))
			mt.RegisterResponder("GET", serviceURL, tt.responder)
			_, err := c.Services.Get(t.Context(), "p1", "s1")
			if err == nil {
				t.Fatal("err = nil")
			}
			msg := err.Error()
			if len(msg) > 8<<10 {
				t.Errorf("error text is %d bytes, want it clipped", len(msg))
			}
			if strings.Contains(msg, mockKey) {
				t.Error("the API key, echoed in X-Request-Id, is in the error text")
			}
			var apiErr *dbcloud.APIError
			var respErr *dbcloud.ResponseError
			switch {
			case errors.As(err, &apiErr):
				if strings.Contains(apiErr.RequestID, mockKey) || len(apiErr.RequestID) > 8<<10 {
					t.Errorf("RequestID holds the key or is %d bytes", len(apiErr.RequestID))
				}
			case errors.As(err, &respErr):
				if strings.Contains(respErr.RequestID, mockKey) || len(respErr.RequestID) > 8<<10 {
					t.Errorf("RequestID holds the key or is %d bytes", len(respErr.RequestID))
				}
			default:
				t.Errorf("err = %T, want a %s", err, tt.name)
			}
		})
	}
}

// A 307 to another host would re-send the request's body there: for
// UpdatePassword, the password. The redirect is refused and the other host
// sees nothing.
func TestRedirectWithABodyIsNotFollowedToAnotherHost(t *testing.T) {
	t.Parallel()
	var elsewhere atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		elsewhere.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	defer other.Close()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer api.Close()
	c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(api.URL+"/v1"), dbcloud.WithRetryMax(0))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	err = c.Services.UpdatePassword(t.Context(), "p1", "s1", "hunter2-secret")
	if err == nil {
		t.Error("UpdatePassword followed a 307 to another host")
	}
	if n := elsewhere.Load(); n != 0 {
		t.Errorf("the other host got %d requests, want none", n)
	}
	if err != nil && strings.Contains(err.Error(), "hunter2-secret") {
		t.Error("the password is in the error")
	}
}

// A repeated cursor and an unknown status are the server's texts too: a
// 256 KiB one holding the API key reaches the error clipped and without
// the key.
func TestCursorAndStatusInErrorsAreClippedAndScrubbed(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("x", 256<<10) + mockKey
	c, mt := mockClient(t, dbcloud.WithRetryMax(0))
	page := fmt.Sprintf(`{"entries":[{"timestamp":"2026-01-02T03:04:05Z","severity":"INFO","message":"m"}],"last_cursor":%q}`, huge)
	mt.RegisterResponder("GET", serviceURL+"/logs", httpmock.NewStringResponder(200, page))
	var err error
	for _, e := range c.Services.AllLogs(t.Context(), "p1", "s1", nil) {
		if e != nil {
			err = e
		}
	}
	if !errors.Is(err, dbcloud.ErrRepeatedCursor) {
		t.Fatalf("err = %v, want ErrRepeatedCursor", err)
	}
	if msg := err.Error(); len(msg) > 8<<10 || strings.Contains(msg, mockKey) {
		t.Errorf("repeated cursor: error text of %d bytes, key in it: %v", len(msg), strings.Contains(msg, mockKey))
	}

	mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(200, strings.Replace(serviceJSON, `"READY"`, fmt.Sprintf("%q", huge), 1)))
	// An unknown status is not an end: the wait goes on until its timeout.
	_, err = c.Services.WaitForReady(t.Context(), "p1", "s1",
		dbcloud.WithPollInterval(time.Millisecond, time.Millisecond), dbcloud.WithWaitTimeout(50*time.Millisecond))
	var we *dbcloud.WaitError
	if !errors.As(err, &we) {
		t.Fatalf("err = %v, want a *WaitError", err)
	}
	if msg := err.Error(); len(msg) > 8<<10 || strings.Contains(msg, mockKey) || strings.Contains(we.LastStatus, mockKey) {
		t.Errorf("unknown status: error text of %d bytes, LastStatus of %d, key in either: %v", len(msg), len(we.LastStatus), strings.Contains(msg+we.LastStatus, mockKey))
	}
}
