package dbcloudtest

import (
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// listener serves a front on a real socket: what a Server listens with
// (NewServerAt). Its endpoints are live: programs can probe their
// databases.
type listener struct {
	// url is the base url, ending in /v1: http://127.0.0.1:43121/v1.
	url string
	// front is what the listener serves, for faults, counts and helpers.
	front *front

	srv      *http.Server
	served   chan struct{}
	newConns atomic.Int64

	mu      sync.Mutex
	idle    *sync.Cond // signalled when open drops
	open    int        // connections neither closed nor hijacked
	closing sync.Once
	err     error
}

// listen serves a new fake API, configured by cfg, on addr; "" means
// "127.0.0.1:0", a free loopback port.
func listen(addr string, cfg config) (*listener, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	cfg.api.Model.Live = true
	s := &listener{
		url:    "http://" + dialable(ln.Addr().(*net.TCPAddr)) + "/v1",
		front:  newFront(cfg),
		served: make(chan struct{}),
	}
	s.idle = sync.NewCond(&s.mu)
	s.srv = &http.Server{
		Handler:           s.front,
		ReadHeaderTimeout: 10 * time.Second,
		ConnState:         s.connState,
		// Dropped and truncated connections are the point of faults, not news.
		ErrorLog: log.New(io.Discard, "", 0),
	}
	go func() {
		defer close(s.served)
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

// dialable turns a wildcard listening address into one a client can dial.
func dialable(addr *net.TCPAddr) string {
	ip := addr.IP
	switch {
	case ip.IsUnspecified() && ip.To4() == nil:
		ip = net.IPv6loopback
	case ip.IsUnspecified():
		ip = net.IPv4(127, 0, 0, 1)
	}
	return (&net.TCPAddr{IP: ip, Port: addr.Port}).String()
}

func (s *listener) connState(_ net.Conn, state http.ConnState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch state {
	case http.StateNew:
		s.newConns.Add(1)
		s.open++
	case http.StateClosed, http.StateHijacked:
		s.open--
		s.idle.Broadcast()
	}
}

// newConnections returns how many TCP connections the listener has
// accepted, which lets tests prove that a client reuses keep-alive
// connections.
func (s *listener) newConnections() int64 { return s.newConns.Load() }

// close stops the listener, closes every connection, ends the requests a
// Delay holds (those served through Handler too) and returns once every
// handler and connection is finished, then closes the live endpoints. It is
// safe to call more than once.
func (s *listener) close() error {
	s.closing.Do(func() {
		// Connections first: a delayed handler released by cancel must find
		// its connection closed rather than answer on it.
		s.err = s.srv.Close()
		<-s.served
		s.front.calls.close()
		s.mu.Lock()
		for s.open > 0 {
			s.idle.Wait()
		}
		s.mu.Unlock()
		s.front.api.Model().Close()
	})
	return s.err
}
