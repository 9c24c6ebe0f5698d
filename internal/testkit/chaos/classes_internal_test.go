package chaos

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// TestClassifyFailure: each class follows from the proxy's records of the
// call's requests and the caller's error, as classes.go states.
func TestClassifyFailure(t *testing.T) {
	cfg := DeadlineConfig()
	t0 := time.Unix(1000, 0)
	call := func(end time.Duration, err error) called {
		return called{id: 1, start: t0, deadline: t0.Add(3 * time.Second), end: t0.Add(end), err: err}
	}
	const list, get, create = "/v1/projects/p/services", "/v1/projects/p/services/s1", "/v1/projects/p/services"
	at := func(method, path string, start time.Duration, k Kind, delay time.Duration, r Reach) Attempt {
		// A spike held past the deadline was abandoned by the client.
		abandoned := k == Spike && start+delay > 3*time.Second
		return Attempt{Call: 1, Method: method, Path: path, Kind: k, Delay: delay, Start: t0.Add(start), Reach: r, Abandoned: abandoned}
	}
	maybe := fmt.Errorf("%w: %w", &dbcloud.MaybeCreatedError{Resource: "service", Err: errors.New("reset")}, context.DeadlineExceeded)
	apiErr := &dbcloud.APIError{StatusCode: http.StatusBadGateway}

	cases := []struct {
		name     string
		op       string
		c        called
		attempts []Attempt
		recovery bool
		want     string
	}{
		{"a poll held past the deadline", opWaitReady, call(3*time.Second, context.DeadlineExceeded),
			[]Attempt{at("GET", get, 0, None, 0, ReachYes), at("GET", get, 100*time.Millisecond, Spike, 5*time.Second, ReachNo)}, true, classStalled},
		{"a short spike, then faults until the deadline", opWaitReady, call(3*time.Second, context.DeadlineExceeded),
			[]Attempt{at("GET", get, 0, Spike, 2500*time.Millisecond, ReachYes), at("GET", get, 2600*time.Millisecond, ResetBefore, 0, ReachNo)}, true, classNoRoom},
		{"retries out at 1 s of 3", opAllLogs, call(time.Second, apiErr),
			[]Attempt{at("GET", get, 0, Status5xxBefore, 0, ReachNo)}, true, classExhaustedEarly},
		{"retries out at 2.5 s of 3", opAllLogs, call(2500*time.Millisecond, apiErr),
			[]Attempt{at("GET", get, 0, Status5xxBefore, 0, ReachNo)}, true, classExhaustedLate},
		{"a create reset before the server", opCreateService, call(3*time.Second, maybe),
			[]Attempt{at("GET", list, 0, None, 0, ReachYes), at("POST", create, 10*time.Millisecond, ResetBefore, 0, ReachNo),
				at("GET", list, 50*time.Millisecond, Spike, 6*time.Second, ReachNo)}, true, classCreateNotSent},
		{"a create held until the caller left", opCreateService, call(3*time.Second, maybe),
			[]Attempt{at("POST", create, 0, Spike, 6*time.Second, ReachNo)}, true, classCreateNotSent},
		{"a create forwarded late", opCreateService, call(3*time.Second, maybe),
			[]Attempt{at("POST", create, 0, Status5xxLate, time.Second, ReachLate)}, true, classCreateLate},
		{"a create's answer lost, recovery's list held", opCreateService, call(3*time.Second, maybe),
			[]Attempt{at("POST", create, 0, ResetAfter, 0, ReachYes), at("GET", list, 20*time.Millisecond, Spike, 4*time.Second, ReachNo)}, true, classRecoveryStalled},
		{"a create's answer lost, recovery's lists faulted", opCreateService, call(3*time.Second, maybe),
			[]Attempt{at("POST", create, 0, ResetAfter, 0, ReachYes), at("GET", list, 20*time.Millisecond, Status5xxBefore, 0, ReachNo)}, true, classNoRoom},
		{"a create's answer lost, no recovery", opCreateService, call(100*time.Millisecond, maybe),
			[]Attempt{at("POST", create, 0, CutOff, 0, ReachYes)}, false, classCreateLost},
		{"the list before the create held", opCreateService, call(3*time.Second, context.DeadlineExceeded),
			[]Attempt{at("GET", list, 0, Spike, 5*time.Second, ReachNo)}, true, classRecoveryStalled},
		{"a held attempt, then the server's 409 before the deadline", opDeleteReplicaSet, call(2*time.Second, &dbcloud.APIError{StatusCode: http.StatusConflict}),
			[]Attempt{at("DELETE", get, 0, Spike, 5*time.Second, ReachNo)}, true, classOther},
		{"no error the faults explain", opAllLogs, call(time.Second, errNoLogs), nil, true, classOther},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg.Recovery = c.recovery
			if got := classifyFailure(c.op, c.c, c.attempts, cfg); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}
