package pipeline

// The call's wiring: what reaches the policy, the observer and the caller.
// The rule itself is TestDecide's.

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

// mockClient is a pipeline Client on an httpmock transport, for the API at
// https://api.test.
func mockClient(t *testing.T, auth Authorizer, p Policy) (*Client, *httpmock.MockTransport) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	mt.RegisterNoResponder(func(r *http.Request) (*http.Response, error) {
		t.Errorf("unexpected request %s %s", r.Method, r.URL)
		return httpmock.NewStringResponse(500, ""), nil
	})
	if auth == nil {
		auth = Static("Bearer k3y", "k3y")
	}
	return New(Config{HTTPClient: &http.Client{Transport: mt}, Scheme: "https", Host: "api.test", Auth: auth, UserAgent: "test", Policy: p}), mt
}

func decodeJSON(data []byte, out any) error { return json.Unmarshal(data, out) }

// OK reports a usable 2xx, the Result the tests most often want.
func (r *Result) OK() bool { return r.Err == nil && r.Came == Usable }

// A Retry-After HTTP date reaches the policy read against the clock: on
// the bubble's clock, the retry waits until the date, 30 s, although the
// minimum wait is ten seconds and the longest a minute.
func TestRetryAfterHTTPDateEndToEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, mt := mockClient(t, nil, Policy{RetryMax: 4, WaitMin: 10 * time.Second, WaitMax: time.Minute})
		start := time.Now()
		date := start.Add(30 * time.Second).Format(http.TimeFormat)
		limited := httpmock.NewStringResponder(429, "").HeaderSet(http.Header{"Retry-After": {date}})
		mt.RegisterResponder("GET", "https://api.test/v1/things", limited.Then(httpmock.NewStringResponder(200, "[]")))

		var got []int
		res := c.Do(t.Context(), Request{Method: "GET", URL: "https://api.test/v1/things", Out: &got, Decode: decodeJSON})
		if !res.OK() || res.Attempts != 2 {
			t.Fatalf("result %+v, want a usable 2xx at the second attempt", res)
		}
		if d := time.Since(start); d != 30*time.Second {
			t.Errorf("took %v, want 30s", d)
		}
	})
}

// The call value is reused through the pool: the state of one call never
// reaches the next, whatever it came to.
func TestCallStateDoesNotLeak(t *testing.T) {
	c, mt := mockClient(t, nil, Policy{RetryMax: 1, AttemptMax: time.Minute})
	mt.RegisterResponder("GET", "https://api.test/v1/fail", httpmock.NewStringResponder(503, `{"code":"DOWN"}`))
	mt.RegisterResponder("GET", "https://api.test/v1/ok", httpmock.NewStringResponder(200, `[1]`))
	if res := c.Do(t.Context(), Request{Method: "GET", URL: "https://api.test/v1/fail"}); res.Attempts != 2 || res.Failed.Status != 503 {
		t.Fatalf("failing call: %+v", res)
	}
	var got []int
	res := c.Do(t.Context(), Request{Method: "GET", URL: "https://api.test/v1/ok", Out: &got, Decode: decodeJSON})
	want := Result{Attempts: 1, Came: Usable, Last: Answer{Status: 200, Header: res.Last.Header}, Acted: true}
	if diff := cmp.Diff(want, res); diff != "" {
		t.Errorf("next call (-want +got):\n%s", diff)
	}
}

// The observer's context is the attempt's: the request is sent under a
// context that carries its values, and EndAttempt gets the very context
// StartAttempt returned, not ended by the attempt's bound.
func TestAttemptRunsUnderTheObserversContext(t *testing.T) {
	c, mt := mockClient(t, nil, Policy{RetryMax: 1, AttemptMax: time.Minute})
	mt.RegisterResponder("GET", "https://api.test/v1/x", func(r *http.Request) (*http.Response, error) {
		if n, _ := r.Context().Value(attemptKey{}).(int); n == 0 {
			t.Errorf("the request's context lacks the observer's value")
		}
		return httpmock.NewStringResponse(503, ""), nil
	})
	o := &contextObserver{t: t}
	c.Do(t.Context(), Request{Method: "GET", URL: "https://api.test/v1/x", Observe: o})
	if o.ended != 2 {
		t.Errorf("%d attempts ended, want 2", o.ended)
	}
}

type attemptKey struct{}

// contextObserver checks that EndAttempt gets what StartAttempt returned.
type contextObserver struct {
	t       *testing.T
	started context.Context
	ended   int
}

func (o *contextObserver) StartAttempt(ctx context.Context, n int) context.Context {
	o.started = context.WithValue(ctx, attemptKey{}, n)
	return o.started
}

func (o *contextObserver) EndAttempt(ctx context.Context, a Report) {
	o.ended++
	if ctx != o.started || ctx.Err() != nil {
		o.t.Errorf("attempt %d: EndAttempt's context is not StartAttempt's, or has ended (%v)", a.Number, ctx.Err())
	}
}
