package dbcloud

import (
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

// On a manual clock: a token is replaced once less than the margin is left,
// while it is still valid; a short-lived one at half its lifetime.
func TestTokenReplacedBeforeExpiry(t *testing.T) {
	var mu sync.Mutex // guards now and ttl, read by the fetching goroutine
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	ttl := time.Hour
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	set := func(at time.Time, lifetime time.Duration) { mu.Lock(); now, ttl = at, lifetime; mu.Unlock() }
	n := 0
	src := TokenSourceFunc(func() (*Token, error) {
		mu.Lock()
		defer mu.Unlock()
		n++
		return &Token{AccessToken: Secret("tok-" + strconv.Itoa(n)), Expiry: now.Add(ttl)}, nil
	})
	creds := BearerTokens(src)
	creds.c().(*tokenAuth).now = clock

	mt := httpmock.NewMockTransport()
	var seen []string
	mt.RegisterResponder("GET", "https://api.test/v1/projects/p1/services/s1", func(r *http.Request) (*http.Response, error) {
		seen = append(seen, r.Header.Get("Authorization"))
		return httpmock.NewStringResponse(200, `{"service_id":"s1"}`), nil
	})
	c, err := NewClientWithCredentials(creds, WithBaseURL("https://api.test/v1"), WithHTTPClient(&http.Client{Transport: mt}))
	if err != nil {
		t.Fatal(err)
	}
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
		if _, err := c.Services.Get(t.Context(), "p1", "s1"); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"Bearer tok-1", "Bearer tok-1", "Bearer tok-2", "Bearer tok-2", "Bearer tok-3"}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("Authorization (-want +got):\n%s", diff)
	}
}
