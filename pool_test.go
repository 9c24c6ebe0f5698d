package dbcloud_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/dbcloud/dbcloud-go"
)

// poolServer serves a service to every GET and counts the TCP connections
// opened to it.
func poolServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(serviceJSON))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &conns
}

// The default client keeps its connections pooled under many goroutines
// doing Get against one loopback server: with fewer goroutines than its
// 100-connection pool it opens about one connection per goroutine, like
// raw net/http, and beyond the pool it redials about as often as raw
// net/http does. (With an http.Client Timeout it opened 2 to 3 times as
// many: net/http races the cancel at the end of each body with returning
// its connection to the pool.)
func TestDefaultClientKeepsConnectionsPooled(t *testing.T) {
	for _, tc := range []struct {
		goroutines int
		slack      float64 // how many more connections the SDK may open
	}{
		// Within the pool both open about one connection per goroutine,
		// plus the dials a start burst races (measured: raw 208-234, the
		// SDK 211-277 over 3 rounds of 64).
		{goroutines: 64, slack: 1.35},
		// Beyond the pool the count is a race between redials, which
		// varies by a third from one run to the next on either side.
		{goroutines: 256, slack: 1.6},
	} {
		raw, sdk := poolConnections(t, tc.goroutines, 20)
		t.Logf("3 rounds of %d goroutines × 20 Gets: raw net/http (100-connection pool) opened %d connections, the SDK %d",
			tc.goroutines, raw, sdk)
		if float64(sdk) > tc.slack*float64(raw)+3 {
			t.Errorf("%d goroutines: the SDK opened %d connections, raw net/http %d: want at most %.2f times as many",
				tc.goroutines, sdk, raw, tc.slack)
		}
	}
}

// poolConnections counts the connections that raw net/http and the SDK's
// default client open, in 3 alternating rounds of goroutines each doing
// each Gets.
func poolConnections(t *testing.T, goroutines, each int) (raw, sdk int64) {
	hammer := func(get func() error) {
		var wg sync.WaitGroup
		for range goroutines {
			wg.Go(func() {
				for range each {
					if err := get(); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		wg.Wait()
	}

	rawRun := func() int64 {
		srv, conns := poolServer(t)
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = 100
		client := &http.Client{Transport: tr}
		defer tr.CloseIdleConnections()
		hammer(func() error {
			req, _ := http.NewRequestWithContext(context.Background(), "GET", srv.URL+"/v1/projects/p1/services/s1", nil)
			resp, err := client.Do(req)
			if err != nil {
				return err
			}
			_, err = readAll(resp)
			return err
		})
		return conns.Load()
	}
	sdkRun := func() int64 {
		srv, conns := poolServer(t)
		c, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(srv.URL+"/v1"))
		if err != nil {
			t.Fatal(err)
		}
		defer c.CloseIdleConnections()
		hammer(func() error {
			_, err := c.Services.Get(context.Background(), "p1", "s1")
			return err
		})
		return conns.Load()
	}
	// Rounds alternate, so that a busy moment of the machine does not
	// weigh on one side only.
	for range 3 {
		raw += rawRun()
		sdk += sdkRun()
	}
	return raw, sdk
}

func readAll(resp *http.Response) (int64, error) {
	defer resp.Body.Close()
	var n int64
	buf := make([]byte, 4096)
	for {
		m, err := resp.Body.Read(buf)
		n += int64(m)
		if err != nil {
			if err.Error() == "EOF" {
				return n, nil
			}
			return n, err
		}
	}
}
