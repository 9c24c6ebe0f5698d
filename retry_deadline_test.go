package dbcloud_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// failingServer answers its first failures requests 503, the rest with a
// service, and counts them.
func failingServer(t *testing.T, failures int64) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) <= failures {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(serviceJSON))
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// With a deadline, retries are bounded by time, not by WithRetryMax: a 3 s
// deadline rides out five failing attempts although the count allows two
// retries; without a deadline the count holds.
func TestDeadlineRidesOutFiveFailingAttempts(t *testing.T) {
	srv, n := failingServer(t, 5)
	c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(srv.URL+"/v1"),
		dbcloud.WithRetryMax(2), dbcloud.WithRetryWait(10*time.Millisecond, 200*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	if _, err := c.Services.Get(ctx, "p1", "s1"); err != nil {
		t.Fatalf("Get with a 3 s deadline: %v", err)
	}
	if got := n.Load(); got != 6 {
		t.Errorf("attempts = %d, want 6", got)
	}

	n.Store(0)
	_, err = c.Services.Get(t.Context(), "p1", "s1")
	if !errors.Is(err, dbcloud.ErrServer) || n.Load() != 3 {
		t.Errorf("without a deadline: %v after %d attempts, want a 503 after 3 (WithRetryMax(2))", err, n.Load())
	}
}

// A client-wide retry budget keeps an outage from becoming a retry storm:
// 64 goroutines against a server that answers every request 503 send at
// most the budget's retries, however many calls they make.
func TestRetryBudgetCapsRetriesInAnOutage(t *testing.T) {
	run := func(budget int) (calls, retries int64, took time.Duration) {
		srv, n := failingServer(t, 1<<62)
		c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(srv.URL+"/v1"),
			dbcloud.WithRetryBudget(budget), dbcloud.WithRetryWait(time.Millisecond, 2*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseIdleConnections()
		var made atomic.Int64
		start := time.Now()
		var wg sync.WaitGroup
		for range 64 {
			wg.Go(func() {
				for time.Since(start) < time.Second {
					made.Add(1)
					ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
					_, _ = c.Services.Get(ctx, "p1", "s1")
					cancel()
				}
			})
		}
		wg.Wait()
		return made.Load(), n.Load() - made.Load(), time.Since(start)
	}
	calls, retries, took := run(dbcloud.DefaultRetryBudget)
	t.Logf("budget %d: %d calls, %d retries in %v (%.0f retries/s)", dbcloud.DefaultRetryBudget, calls, retries, took, float64(retries)/took.Seconds())
	if retries > dbcloud.DefaultRetryBudget {
		t.Errorf("retries = %d, want at most the budget, %d", retries, dbcloud.DefaultRetryBudget)
	}
	calls, retries, took = run(0)
	t.Logf("no budget: %d calls, %d retries in %v (%.0f retries/s)", calls, retries, took, float64(retries)/took.Seconds())
	if retries <= 5*dbcloud.DefaultRetryBudget {
		t.Errorf("without a budget only %d retries: the outage is too gentle to show the budget", retries)
	}
}

// Successes earn the budget back: after an outage has spent it, calls that
// succeed at once let retries happen again.
func TestRetryBudgetRefilledBySuccesses(t *testing.T) {
	var fail atomic.Bool
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if fail.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte(serviceJSON))
	}))
	defer srv.Close()
	c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(srv.URL+"/v1"),
		dbcloud.WithRetryBudget(2), dbcloud.WithRetryMax(4), dbcloud.WithRetryWait(time.Millisecond, time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	fail.Store(true)
	_, _ = c.Services.Get(t.Context(), "p1", "s1")
	if got := n.Load(); got != 3 {
		t.Fatalf("attempts = %d, want 3: the budget of 2 retries", got)
	}
	_, _ = c.Services.Get(t.Context(), "p1", "s1")
	if got := n.Load(); got != 4 {
		t.Fatalf("attempts = %d, want 4: the budget is spent", got)
	}
	fail.Store(false)
	for range 5 { // 5 first-attempt successes earn one retry
		if _, err := c.Services.Get(t.Context(), "p1", "s1"); err != nil {
			t.Fatal(err)
		}
	}
	fail.Store(true)
	n.Store(0)
	_, _ = c.Services.Get(t.Context(), "p1", "s1")
	if got := n.Load(); got != 2 {
		t.Errorf("attempts = %d, want 2: successes earned one retry back", got)
	}
}

// With a deadline, a Retry-After is slept when the attempt after it still
// has time (250 ms), even if the wait is more than half of what is left;
// when it would leave less, the 429 is returned at once instead of at the
// deadline.
func TestDeadlineHonoursRetryAfterWithRoom(t *testing.T) {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(serviceJSON))
	}))
	t.Cleanup(srv.Close)
	c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(srv.URL+"/v1"), dbcloud.WithRetryWait(10*time.Millisecond, 2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()

	ctx, cancel := context.WithTimeout(t.Context(), 1600*time.Millisecond)
	defer cancel()
	if _, err := c.Services.Get(ctx, "p1", "s1"); err != nil || n.Load() != 2 {
		t.Fatalf("1.6 s deadline, Retry-After 1 s: %v after %d attempts, want success after 2", err, n.Load())
	}

	n.Store(0)
	ctx, cancel = context.WithTimeout(t.Context(), 1100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = c.Services.Get(ctx, "p1", "s1")
	if !errors.Is(err, dbcloud.ErrRateLimited) || n.Load() != 1 || time.Since(start) > 500*time.Millisecond {
		t.Errorf("1.1 s deadline, Retry-After 1 s: %v after %d attempts and %v, want the 429 at once", err, n.Load(), time.Since(start))
	}
}
