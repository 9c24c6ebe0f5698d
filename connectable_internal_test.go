package dbcloud

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/testkit/pgwire"
	"github.com/jarcoal/httpmock"
)

// serviceAt returns a client whose API answers the n-th GET (from 1) of
// service s1 of project p1 with the service in status(n), its endpoint
// 127.0.0.1:port.
func serviceAt(t *testing.T, port int, status func(n int) string) (*Client, *httpmock.MockTransport) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	// Atomic: httpmock runs a responder in a goroutine of its own, which
	// goes on when a wait gives up on the request, so two may overlap.
	var n atomic.Int64
	mt.RegisterResponder("GET", "https://api.test/v1/projects/p1/services/s1", func(*http.Request) (*http.Response, error) {
		return httpmock.NewStringResponse(200, fmt.Sprintf(
			`{"service_id":"s1","project_id":"p1","name":"db","status":%q,"endpoint":{"host":"127.0.0.1","port":%d}}`, status(int(n.Add(1))), port)), nil
	})
	c, err := NewClient("k", WithBaseURL("https://api.test/v1"), WithHTTPClient(&http.Client{Transport: mt}))
	if err != nil {
		t.Fatal(err)
	}
	return c, mt
}

// After READY the probes' delays start over from the poll minimum, however
// far the polls before READY have grown: the database usually answers a
// moment after READY.
func TestConnectableProbesStartOverFromTheMinimumDelay(t *testing.T) {
	t.Parallel() // it waits about a second of poll delays
	var (
		mu     sync.Mutex
		probes []time.Time
		gets   []time.Time
	)
	_, port := pgwire.Scripted(t, func(conn net.Conn) {
		mu.Lock()
		probes = append(probes, time.Now())
		reply := pgwire.Msg('R', pgwire.AuthSASL)
		if len(probes) <= 2 {
			reply = pgwire.Msg('E', pgwire.StartingUp)
		}
		mu.Unlock()
		pgwire.Serve(conn, nil, reply)
	})
	const configuring = 6 // polls before READY: the last delay is >= 20 ms * 1.5^5, about 150 ms
	c, _ := serviceAt(t, port, func(n int) string {
		mu.Lock()
		defer mu.Unlock()
		gets = append(gets, time.Now())
		if n <= configuring {
			return "CONFIGURING"
		}
		return "READY"
	})
	if _, err := c.Services.WaitForConnectable(t.Context(), "p1", "s1", WithPollInterval(20*time.Millisecond, time.Hour)); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	// The poll that saw READY probes at once (57P03); each later poll reads
	// the service and probes: 57P03, then up.
	if len(gets) != configuring+3 || len(probes) != 3 {
		t.Fatalf("%d GETs and %d probes, want %d and 3", len(gets), len(probes), configuring+3)
	}
	lastPollDelay := gets[configuring].Sub(gets[configuring-1])
	firstProbeDelay := probes[1].Sub(probes[0])
	if 2*firstProbeDelay >= lastPollDelay {
		t.Errorf("delay before the second probe %v, after polls %v apart: want it to start over from 20 ms", firstProbeDelay, lastPollDelay)
	}
}
