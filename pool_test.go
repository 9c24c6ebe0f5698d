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

// At 256 goroutines doing Get against one loopback server, the default
// client keeps its connections pooled: it opens no more TCP connections
// than raw net/http with a 100-connection pool.
func TestDefaultClientKeepsConnectionsPooled(t *testing.T) {
	const goroutines, each = 256, 20
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
		raw := &http.Client{Transport: tr}
		defer tr.CloseIdleConnections()
		hammer(func() error {
			req, _ := http.NewRequestWithContext(context.Background(), "GET", srv.URL+"/v1/projects/p1/services/s1", nil)
			resp, err := raw.Do(req)
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
	var raw, sdk int64
	for range 3 {
		raw += rawRun()
		sdk += sdkRun()
	}
	t.Logf("3 rounds of %d goroutines × %d Gets: raw net/http (100-connection pool) opened %d connections, the SDK %d",
		goroutines, each, raw, sdk)
	// Both open about 100 connections and redial those that do not fit in
	// the pool; the slack is for scheduling noise (with an http.Client
	// Timeout the SDK opened 2 to 3 times as many).
	if float64(sdk) > 1.2*float64(raw) {
		t.Errorf("the SDK opened %d connections, raw net/http %d: want no more", sdk, raw)
	}
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
