package dbcloud_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
)

var errEcho = errors.New("proxy refused the request")

// echoError is a transport's error type that repeats what it was sent.
type echoError struct{ said string }

func (e *echoError) Error() string { return "proxy: " + e.said }

// plainError is a transport's error type whose text holds no secret.
type plainError struct{}

func (plainError) Error() string { return "proxy: no route" }

type echoTransport struct{}

func (echoTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, fmt.Errorf("%w: %w; %w", errEcho, &echoError{said: r.Header.Get("Authorization")}, plainError{})
}

// An error whose text a lower layer filled with the key is scrubbed, and
// keeps its identity: it still matches the sentinels it wrapped
// (errors.Is), and the types it wrapped whose own text holds no secret
// (errors.As). A type whose text holds the key is not handed out.
func TestScrubbedErrorKeepsItsIdentity(t *testing.T) {
	t.Parallel()
	c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(mockBase), dbcloud.WithRetryMax(0),
		dbcloud.WithHTTPClient(&http.Client{Transport: echoTransport{}}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Services.Get(t.Context(), "p1", "s1")
	if err == nil || strings.Contains(err.Error(), mockKey) || !strings.Contains(err.Error(), "[redacted]") {
		t.Fatalf("err = %v; want an error with the key scrubbed", err)
	}
	if !errors.Is(err, errEcho) {
		t.Errorf("the scrubbed error does not match the sentinel it wrapped: %v", err)
	}
	if _, ok := errors.AsType[plainError](err); !ok {
		t.Errorf("the scrubbed error does not match a wrapped type free of secrets: %v", err)
	}
	if e, ok := errors.AsType[*echoError](err); ok || e != nil {
		t.Errorf("errors.As handed out the unscrubbed error %q", e)
	}
}
