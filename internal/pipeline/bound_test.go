package pipeline

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/jarcoal/httpmock"
)

// The client's one timer ends each attempt at its own deadline, the one
// Policy.AttemptTimeout gives it, whatever else is in flight. On the
// bubble's clock, against a server that answers only once the request's
// context ends: calls whose deadlines give their attempts bounds of 5, 2
// and 3 s (registered in that order: the timer is set earlier, then kept),
// one answered after 1 s, before its own deadline, and one that the
// caller's deadline bounds alone.
func TestWatchEndsEachAttemptAtItsDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, mt := mockClient(t, nil, Policy{Explicit: true, AttemptMax: time.Minute})
		answered := make(chan struct{})
		mt.RegisterResponder("GET", "https://api.test/v1/held", func(r *http.Request) (*http.Response, error) {
			<-r.Context().Done()
			return nil, r.Context().Err()
		})
		mt.RegisterResponder("GET", "https://api.test/v1/answered", func(r *http.Request) (*http.Response, error) {
			select {
			case <-answered:
				return httpmock.NewStringResponse(204, ""), nil
			case <-r.Context().Done():
				return nil, r.Context().Err()
			}
		})
		type outcome struct {
			came Came
			took time.Duration
		}
		var wg sync.WaitGroup
		got := make([]outcome, 5)
		for i, tc := range []struct {
			path     string
			deadline time.Duration // of the caller's context; 0: none (the bound is AttemptMax)
		}{
			{"held", 10 * time.Second},
			{"held", 4 * time.Second},
			{"held", 6 * time.Second},
			{"answered", 0},
			{"held", 400 * time.Millisecond}, // no bound of its own: the deadline ends it
		} {
			ctx, cancel := context.WithCancel(t.Context())
			if tc.deadline > 0 {
				ctx, cancel = context.WithTimeout(t.Context(), tc.deadline)
			}
			wg.Go(func() {
				defer cancel()
				start := time.Now()
				res := c.Do(ctx, Request{Method: "GET", URL: "https://api.test/v1/" + tc.path})
				got[i] = outcome{res.Came, time.Since(start)}
			})
			synctest.Wait() // each registers before the next
		}
		time.Sleep(time.Second)
		close(answered)
		wg.Wait()

		bound := func(deadline time.Duration) time.Duration { return c.policy.AttemptTimeout(false, true, deadline) }
		want := []outcome{
			{TimedOut, bound(10 * time.Second)}, {TimedOut, bound(4 * time.Second)}, {TimedOut, bound(6 * time.Second)},
			{Usable, time.Second}, {Failed, 400 * time.Millisecond},
		}
		if bound(400*time.Millisecond) != 0 || want[1].took >= want[2].took || want[2].took >= want[0].took {
			t.Fatalf("the policy's bounds %v no longer make the case: the second shortest, the third between", want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("call %d: came to %v after %v, want %v after %v", i, got[i].came, got[i].took, want[i].came, want[i].took)
			}
		}
		c.watch.mu.Lock()
		defer c.watch.mu.Unlock()
		if n := len(c.watch.pending); n != 0 {
			t.Errorf("the watch still holds %d attempts", n)
		}
	})
}

// Many goroutines register, end and time out attempts at once: run with
// -race, the watch's lock covers every bound.
func TestWatchUnderConcurrentAttempts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, mt := mockClient(t, nil, Policy{Explicit: true, AttemptMax: time.Second})
		mt.RegisterResponder("GET", "https://api.test/v1/x", func(r *http.Request) (*http.Response, error) {
			if r.URL.Query().Get("hold") == "" {
				return httpmock.NewStringResponse(204, ""), nil
			}
			<-r.Context().Done()
			return nil, r.Context().Err()
		})
		var wg sync.WaitGroup
		for i := range 64 {
			wg.Go(func() {
				url := "https://api.test/v1/x"
				want := Usable
				if i%3 == 0 {
					url, want = url+"?hold=1", TimedOut
				}
				for range 4 {
					if res := c.Do(t.Context(), Request{Method: "GET", URL: url}); res.Came != want {
						t.Errorf("came to %v, want %v", res.Came, want)
					}
				}
			})
		}
		wg.Wait()
	})
}
