package dbcloud

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

var epoch = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func TestParseRetryAfter(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"0", 0, true},
		{" 7 ", 7 * time.Second, true},
		{"-3", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{"99999999999999", maxRetryAfter, true},
		{epoch.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{epoch.Add(-time.Hour).Format(http.TimeFormat), 0, true},                // in the past: retry now
		{epoch.Add(3 * time.Second).Format(time.RFC850), 3 * time.Second, true}, // obsolete HTTP date forms too
		{epoch.Add(3 * time.Second).Format(time.ANSIC), 3 * time.Second, true},
	}
	for _, tt := range tests {
		got, ok := parseRetryAfter(tt.in, epoch)
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoffGrowsWithFullJitter(t *testing.T) {
	lo, hi := 100*time.Millisecond, 2*time.Second
	tr := &caller{now: func() time.Time { return epoch }, waitMin: lo, waitMax: hi}
	for retry, ceiling := range []time.Duration{200, 400, 800, 1600, 2000, 2000} {
		ceiling *= time.Millisecond
		seenLow, seenHigh := false, false
		for range 2000 {
			d, _ := tr.backoff(retry, nil)
			if d < lo || d > ceiling {
				t.Fatalf("retry %d: backoff %v outside [%v, %v]", retry, d, lo, ceiling)
			}
			seenLow = seenLow || d < lo+(ceiling-lo)/4
			seenHigh = seenHigh || d > ceiling-(ceiling-lo)/4
		}
		if !seenLow || !seenHigh {
			t.Errorf("retry %d: 2000 draws did not spread over [%v, %v]", retry, lo, ceiling)
		}
	}
	if d, _ := tr.backoff(200, nil); d < lo || d > hi {
		t.Errorf("a very late retry waited %v, want within [%v, %v]", d, lo, hi)
	}
	if d, _ := (&caller{}).backoff(3, nil); d != 0 {
		t.Errorf("zero bounds waited %v", d)
	}
}

func TestBackoffHonoursRetryAfterOnlyOn429And503(t *testing.T) {
	tr := &caller{now: func() time.Time { return epoch }, waitMin: time.Millisecond, waitMax: 10 * time.Second}
	header := http.Header{"Retry-After": {"5"}}
	for status, want := range map[int]bool{429: true, 503: true, 500: false, 502: false} {
		d, _ := tr.backoff(0, &http.Response{StatusCode: status, Header: header})
		if got := d == 5*time.Second; got != want {
			t.Errorf("status %d: backoff %v; honoured = %v, want %v", status, d, got, want)
		}
	}
}

// A Retry-After HTTP date is honoured end to end: the clock is set 30 ms
// before the date, so the retry waits about 30 ms although the minimum wait
// is ten seconds.
func TestRetryAfterHTTPDateEndToEnd(t *testing.T) {
	mt := httpmock.NewMockTransport()
	c, err := NewClient("k3y-for-test", WithBaseURL("https://api.test/v1"),
		WithHTTPClient(&http.Client{Transport: mt}), WithRetryWait(10*time.Second, time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	date := epoch.Add(time.Minute)
	c.api.now = func() time.Time { return date.Add(-30 * time.Millisecond) }
	limited := httpmock.NewStringResponder(429, "").HeaderSet(http.Header{"Retry-After": {date.Format(http.TimeFormat)}})
	mt.RegisterResponder("GET", "https://api.test/v1/projects/p/services", limited.Then(httpmock.NewStringResponder(200, "[]")))

	start := time.Now()
	got, err := c.Services.List(t.Context(), "p")
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 30*time.Millisecond || d > 5*time.Second {
		t.Errorf("took %v, want about 30ms", d)
	}
	if diff := cmp.Diff([]Service{}, got); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	if n := mt.GetTotalCallCount(); n != 2 {
		t.Errorf("attempts = %d, want 2", n)
	}
}

// retryablehttp's own logger prints every URL to stderr; it must stay off
// whatever the options.
func TestRetryablehttpLoggerIsOff(t *testing.T) {
	for _, opts := range [][]Option{nil, {WithLogger(nil)}} {
		c, err := NewClient("k3y-for-test", append([]Option{WithBaseURL("https://api.test/v1")}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		if c.api.rc.Logger != nil {
			t.Errorf("retryablehttp Logger = %T, want nil", c.api.rc.Logger)
		}
	}
}

// The wait schedule: each delay grows by a factor in [1.5, 2] from the
// minimum, and reaches the maximum within ten polls here (1.5^9 > 30).
func TestNextDelay(t *testing.T) {
	const lo, hi = 10 * time.Millisecond, 300 * time.Millisecond
	for range 200 {
		d, schedule := lo, []time.Duration{lo}
		for range 10 {
			next := nextDelay(d, hi)
			if next > hi || (next < hi && (next < d+d/2 || next > 2*d)) {
				t.Fatalf("after %v came %v, want in [%v, %v] capped at %v (schedule %v)", d, next, d+d/2, 2*d, hi, schedule)
			}
			d = next
			schedule = append(schedule, d)
		}
		if d != hi {
			t.Fatalf("schedule %v never reached the max %v", schedule, hi)
		}
	}
}
