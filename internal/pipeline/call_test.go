package pipeline

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"testing"
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

// A Retry-After HTTP date is honoured end to end: the clock is set 30 ms
// before the date, so the retry waits about 30 ms although the minimum wait
// is ten seconds.
func TestRetryAfterHTTPDateEndToEnd(t *testing.T) {
	c, mt := mockClient(t, nil, Policy{RetryMax: 4, WaitMin: 10 * time.Second, WaitMax: time.Minute})
	date := epoch.Add(time.Minute)
	c.now = func() time.Time { return date.Add(-30 * time.Millisecond) }
	limited := httpmock.NewStringResponder(429, "").HeaderSet(http.Header{"Retry-After": {date.Format(http.TimeFormat)}})
	mt.RegisterResponder("GET", "https://api.test/v1/things", limited.Then(httpmock.NewStringResponder(200, "[]")))

	start := time.Now()
	var got []int
	res := c.Do(t.Context(), Request{Method: "GET", URL: "https://api.test/v1/things", Out: &got, Decode: decodeJSON})
	if !res.OK() {
		t.Fatalf("result %+v, want a usable 2xx", res)
	}
	if d := time.Since(start); d < 30*time.Millisecond || d > 5*time.Second {
		t.Errorf("took %v, want about 30ms", d)
	}
	if res.Attempts != 2 || mt.GetTotalCallCount() != 2 {
		t.Errorf("attempts = %d (sent %d), want 2", res.Attempts, mt.GetTotalCallCount())
	}
}

// retryablehttp's own logger prints every URL to stderr; it must stay off.
func TestRetryablehttpLoggerIsOff(t *testing.T) {
	c, _ := mockClient(t, nil, Policy{})
	k := c.calls.Get().(*call)
	defer c.calls.Put(k)
	if k.rc.Logger != nil {
		t.Errorf("retryablehttp Logger = %T, want nil", k.rc.Logger)
	}
}

// The call value is reused through the pool: the state of one call never
// reaches the next, whatever it came to.
func TestCallStateDoesNotLeak(t *testing.T) {
	c, mt := mockClient(t, nil, Policy{RetryMax: 1})
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

// On a manual clock: a token is replaced once less than the margin is left,
// while it is still valid; a short-lived one at half its lifetime.
func TestTokenReplacedBeforeExpiry(t *testing.T) {
	var mu sync.Mutex // guards now and ttl, read by the fetching goroutine
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	ttl := time.Hour
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	set := func(at time.Time, lifetime time.Duration) { mu.Lock(); now, ttl = at, lifetime; mu.Unlock() }
	n := 0
	auth := Tokens(func() (string, time.Time, error) {
		mu.Lock()
		defer mu.Unlock()
		n++
		return "tok-" + strconv.Itoa(n), now.Add(ttl), nil
	}, 30*time.Second)
	auth.(*tokenAuth).now = clock
	c, mt := mockClient(t, auth, Policy{})
	var seen []string
	mt.RegisterResponder("GET", "https://api.test/v1/x", func(r *http.Request) (*http.Response, error) {
		seen = append(seen, r.Header.Get("Authorization"))
		return httpmock.NewStringResponse(200, `{}`), nil
	})
	start := clock()
	for _, step := range []struct {
		at       time.Duration // since start
		lifetime time.Duration // of a token fetched at this step
	}{
		{0, time.Hour},                // tok-1, until start+1h
		{59 * time.Minute, time.Hour}, // 60 s left: tok-1
		{59*time.Minute + 31*time.Second, 40 * time.Second}, // 29 s left, still valid: tok-2, for 40 s
		{59*time.Minute + 50*time.Second, time.Hour},        // 21 s left of 40: more than half, tok-2
		{59*time.Minute + 52*time.Second, time.Hour},        // 19 s left of 40: tok-3
	} {
		set(start.Add(step.at), step.lifetime)
		if res := c.Do(context.Background(), Request{Method: "GET", URL: "https://api.test/v1/x"}); !res.OK() {
			t.Fatalf("%+v", res)
		}
	}
	want := []string{"Bearer tok-1", "Bearer tok-1", "Bearer tok-2", "Bearer tok-2", "Bearer tok-3"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("Authorization (-want +got):\n%s", diff)
	}
}
