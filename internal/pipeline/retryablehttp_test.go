package pipeline

// The contract with go-retryablehttp that doc.go lists: one test for each
// thing the call relies on the library doing, each failing if a release
// stops doing it.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/jarcoal/httpmock"
)

// roundTripFunc is a transport made of a function.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// answer is a response of status with body.
func answer(r *http.Request, status int, body string) *http.Response {
	return &http.Response{
		StatusCode: status, Header: http.Header{}, Request: r,
		Body: io.NopCloser(strings.NewReader(body)), ContentLength: int64(len(body)),
	}
}

// Contract 1: per attempt, RequestLogHook, the HTTPClient's Do, then
// CheckRetry once, with the answer's body unread; Backoff only between
// attempts; all on the calling goroutine.
func TestRetryablehttpCallsEachHookOncePerAttempt(t *testing.T) {
	var seen []string
	caller := goroutine()
	elsewhere := 0 // hooks called on another goroutine
	statuses := []int{503, 429, 200}
	rc := retryablehttp.Client{
		HTTPClient: &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			status := statuses[0]
			statuses = statuses[1:]
			if goroutine() != caller {
				elsewhere++
			}
			seen = append(seen, "send")
			return answer(r, status, "body of "+strconv.Itoa(status)), nil
		})},
		RetryMax: math.MaxInt,
		RequestLogHook: func(_ retryablehttp.Logger, _ *http.Request, retry int) {
			if goroutine() != caller {
				elsewhere++
			}
			seen = append(seen, "start "+strconv.Itoa(retry))
		},
		CheckRetry: func(_ context.Context, resp *http.Response, err error) (bool, error) {
			if goroutine() != caller {
				elsewhere++
			}
			body, _ := io.ReadAll(resp.Body)
			seen = append(seen, "check "+string(body))
			return resp.StatusCode != 200, err
		},
		Backoff: func(time.Duration, time.Duration, int, *http.Response) time.Duration {
			if goroutine() != caller {
				elsewhere++
			}
			seen = append(seen, "backoff")
			return 0
		},
	}
	req, err := retryablehttp.NewRequestWithContext(t.Context(), "GET", "https://api.test/", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rc.Do(req); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"start 0", "send", "check body of 503", "backoff",
		"start 1", "send", "check body of 429", "backoff",
		"start 2", "send", "check body of 200",
	}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("hooks (-want +got):\n%s", diff)
	}
	if elsewhere > 0 {
		t.Errorf("%d hook calls on another goroutine than Do's", elsewhere)
	}
}

// goroutine returns the calling goroutine's header line in a stack trace,
// which names it ("goroutine 7 [running]:").
func goroutine() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	line, _, _ := bytes.Cut(buf, []byte("\n"))
	return string(line)
}

// Contract 1, when the request's context ends during the attempt:
// CheckRetry is still called, once, with the attempt's error, and Do then
// returns.
func TestRetryablehttpChecksTheAttemptTheContextEnded(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var checked []error
	rc := retryablehttp.Client{
		HTTPClient: &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			cancel()
			return nil, r.Context().Err()
		})},
		RetryMax: math.MaxInt,
		CheckRetry: func(_ context.Context, _ *http.Response, err error) (bool, error) {
			checked = append(checked, err)
			return false, nil
		},
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, "GET", "https://api.test/", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = rc.Do(req)
	if len(checked) != 1 || !errors.Is(checked[0], context.Canceled) {
		t.Errorf("CheckRetry got %v, want one context.Canceled", checked)
	}
}

// Contract 2: another attempt follows whenever CheckRetry says so, past the
// library's own default count and the policy's MaxRetries: with RetryMax at
// math.MaxInt, only the policy counts.
func TestRetryablehttpRetriesWhileCheckRetrySays(t *testing.T) {
	const want = 2*MaxRetries + 1
	sent := 0
	rc := retryablehttp.Client{
		HTTPClient: &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			sent++
			return answer(r, 503, ""), nil
		})},
		RetryMax:   math.MaxInt,
		CheckRetry: func(context.Context, *http.Response, error) (bool, error) { return sent < want, nil },
		Backoff:    func(time.Duration, time.Duration, int, *http.Response) time.Duration { return 0 },
	}
	req, err := retryablehttp.NewRequestWithContext(t.Context(), "GET", "https://api.test/", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rc.Do(req); err != nil {
		t.Fatal(err)
	}
	if sent != want {
		t.Errorf("%d attempts, want %d", sent, want)
	}
}

// Contract 3: the wait between two attempts is what Backoff returned, on
// the bubble's clock to the nanosecond.
func TestRetryablehttpWaitsWhatBackoffReturns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const wait = 7*time.Second + 3*time.Millisecond
		var sentAt []time.Time
		rc := retryablehttp.Client{
			HTTPClient: &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
				sentAt = append(sentAt, time.Now())
				return answer(r, 503, ""), nil
			})},
			RetryMax:   math.MaxInt,
			CheckRetry: func(context.Context, *http.Response, error) (bool, error) { return len(sentAt) < 2, nil },
			Backoff:    func(time.Duration, time.Duration, int, *http.Response) time.Duration { return wait },
		}
		req, err := retryablehttp.NewRequestWithContext(t.Context(), "GET", "https://api.test/", nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rc.Do(req); err != nil {
			t.Fatal(err)
		}
		if len(sentAt) != 2 || sentAt[1].Sub(sentAt[0]) != wait {
			t.Errorf("sent at %v, want twice, %v apart", sentAt, wait)
		}
	})
}

// Contract 4: when the request's context ends during the wait, Do returns
// at once with the context's error, as it is, and calls no other hook.
func TestRetryablehttpReturnsTheContextErrorOfTheWait(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	starts := 0
	rc := retryablehttp.Client{
		HTTPClient: &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			return answer(r, 503, ""), nil
		})},
		RetryMax:       math.MaxInt,
		RequestLogHook: func(retryablehttp.Logger, *http.Request, int) { starts++ },
		CheckRetry:     func(context.Context, *http.Response, error) (bool, error) { return true, nil },
		Backoff: func(time.Duration, time.Duration, int, *http.Response) time.Duration {
			cancel()
			return time.Hour
		},
	}
	req, err := retryablehttp.NewRequestWithContext(ctx, "GET", "https://api.test/", nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp, err := rc.Do(req); resp != nil || err != context.Canceled || starts != 1 {
		t.Errorf("Do = %v, %v after %d attempts; want nil, context.Canceled after 1", resp, err, starts)
	}
}

// Contract 5: a []byte body is sent whole on every attempt, with a GetBody
// that gives it again; an untyped nil body is no body at all.
func TestRetryablehttpBodies(t *testing.T) {
	for _, tt := range []struct {
		name string
		body any
		want string // what each attempt sends: no Body, the body, its length, encoding, and GetBody's body
	}{
		{"bytes", []byte(`{"name":"x"}`), `false "{\"name\":\"x\"}" 12 [] "{\"name\":\"x\"}"`},
		{"untyped nil", nil, `true "" 0 [] ""`},
	} {
		var sent []string
		rc := retryablehttp.Client{
			HTTPClient: &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
				var data, again []byte
				if r.Body != nil {
					data, _ = io.ReadAll(r.Body)
				}
				if r.GetBody != nil {
					b, _ := r.GetBody()
					again, _ = io.ReadAll(b)
				}
				sent = append(sent, fmt.Sprintf("%t %q %d %q %q", r.Body == nil || r.Body == http.NoBody, data, r.ContentLength, r.TransferEncoding, again))
				return answer(r, 503, ""), nil
			})},
			RetryMax:   math.MaxInt,
			CheckRetry: func(context.Context, *http.Response, error) (bool, error) { return len(sent) < 2, nil },
			Backoff:    func(time.Duration, time.Duration, int, *http.Response) time.Duration { return 0 },
		}
		req, err := retryablehttp.NewRequestWithContext(t.Context(), "POST", "https://api.test/", tt.body)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := rc.Do(req); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{tt.want, tt.want}, sent); diff != "" {
			t.Errorf("%s: what each attempt sent (-want +got):\n%s", tt.name, diff)
		}
	}
}

// Contract 6: with a nil Logger, nothing is logged. The test runs itself in
// a child process, whose standard error must stay empty through retries
// and a failure. The child, under -race, is told not to wait a second at
// its exit (the race runtime's atexit_sleep_ms, for reports still being
// written): a race is reported when it is found, and a report would still
// fail the child (exit code 66) and fill stderr.
func TestRetryablehttpLogsNothing(t *testing.T) {
	if os.Getenv("PIPELINE_TEST_LOGS_NOTHING") == "1" {
		c, mt := mockClient(t, nil, Policy{RetryMax: 2})
		mt.RegisterResponder("GET", "https://api.test/v1/x",
			httpmock.NewStringResponder(503, "").Then(httpmock.NewErrorResponder(errors.New("reset"))))
		if res := c.Do(t.Context(), Request{Method: "GET", URL: "https://api.test/v1/x"}); res.Attempts != 3 {
			t.Fatalf("%+v, want 3 attempts", res)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRetryablehttpLogsNothing$", "-test.count=1")
	cmd.Env = append(os.Environ(), "PIPELINE_TEST_LOGS_NOTHING=1", "GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("the child failed: %v\n%s%s", err, stdout.Bytes(), stderr.Bytes())
	}
	if stderr.Len() > 0 {
		t.Errorf("retryablehttp logged:\n%s", stderr.Bytes())
	}
}

// Contract 7: a failed Do calls its http.Client's CloseIdleConnections,
// which reaches a transport that has the method. The call's transport has
// none, so a failure leaves alone the pool every goroutine of the Client
// shares.
func TestFailureLeavesThePoolAlone(t *testing.T) {
	refused := &closeCounter{RoundTripper: roundTripFunc(func(*http.Request) (*http.Response, error) {
		return nil, errors.New("reset")
	})}
	rc := retryablehttp.Client{
		HTTPClient: &http.Client{Transport: refused},
		CheckRetry: func(context.Context, *http.Response, error) (bool, error) { return false, nil },
	}
	req, err := retryablehttp.NewRequestWithContext(t.Context(), "GET", "https://api.test/", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rc.Do(req); err == nil || refused.closed.Load() == 0 {
		t.Fatalf("retryablehttp: err %v, CloseIdleConnections called %d times; want an error, and at least once", err, refused.closed.Load())
	}

	refused.closed.Store(0)
	c := New(Config{HTTPClient: &http.Client{Transport: refused}, Scheme: "https", Host: "api.test",
		Auth: Static("Bearer k3y"), Policy: Policy{RetryMax: 1}})
	if res := c.Do(t.Context(), Request{Method: "GET", URL: "https://api.test/v1/x"}); res.Came != Failed || res.Attempts != 2 {
		t.Fatalf("%+v, want 2 attempts, failed", res)
	}
	if n := refused.closed.Load(); n != 0 {
		t.Errorf("the pipeline's failure closed the idle connections %d times, want never", n)
	}
}

// closeCounter is a transport that counts its CloseIdleConnections.
type closeCounter struct {
	http.RoundTripper
	closed atomic.Int32
}

func (c *closeCounter) CloseIdleConnections() { c.closed.Add(1) }
