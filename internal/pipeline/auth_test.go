package pipeline

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

// On the bubble's clock: a token is replaced once less than the margin is
// left, while it is still valid; a short-lived one at half its lifetime.
func TestTokenReplacedBeforeExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex // guards n and ttl, read by the fetching goroutine
		n, ttl := 0, time.Hour
		auth := Tokens(func() (string, time.Time, error) {
			mu.Lock()
			defer mu.Unlock()
			n++
			return "tok-" + strconv.Itoa(n), time.Now().Add(ttl), nil
		}, 30*time.Second)
		c, mt := mockClient(t, auth, Policy{})
		var seen []string
		mt.RegisterResponder("GET", "https://api.test/v1/x", func(r *http.Request) (*http.Response, error) {
			seen = append(seen, r.Header.Get("Authorization"))
			return httpmock.NewStringResponse(200, `{}`), nil
		})
		start := time.Now()
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
			time.Sleep(time.Until(start.Add(step.at))) // moves the bubble's clock
			mu.Lock()
			ttl = step.lifetime
			mu.Unlock()
			if res := c.Do(context.Background(), Request{Method: "GET", URL: "https://api.test/v1/x"}); !res.OK() {
				t.Fatalf("%+v", res)
			}
		}
		want := []string{"Bearer tok-1", "Bearer tok-1", "Bearer tok-2", "Bearer tok-2", "Bearer tok-3"}
		if diff := cmp.Diff(want, seen); diff != "" {
			t.Errorf("Authorization (-want +got):\n%s", diff)
		}
	})
}
