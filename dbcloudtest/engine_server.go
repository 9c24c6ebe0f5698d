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

// engineServer serves the engine on a real socket: the listener behind a
// Server (NewServerAt).
type engineServer struct {
	// url is the base url, ending in /v1: http://127.0.0.1:43121/v1.
	url string
	// api is the model behind the server, for faults, counts and helpers.
	api *engine

	srv      *http.Server
	served   chan struct{}
	newConns atomic.Int64

	mu      sync.Mutex
	idle    *sync.Cond // signalled when open drops
	open    int        // connections neither closed nor hijacked
	closing sync.Once
	err     error
}

// startEngine serves a new fake API, configured by cfg, on addr; "" means
// "127.0.0.1:0", a free loopback port. Its endpoints are live: programs can
// probe their databases.
func startEngine(addr string, cfg config) (*engineServer, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	api := newEngine(cfg, true)
	s := &engineServer{
		url:    "http://" + dialable(ln.Addr().(*net.TCPAddr)) + "/v1",
		api:    api,
		served: make(chan struct{}),
	}
	s.idle = sync.NewCond(&s.mu)
	s.srv = &http.Server{
		Handler:           api,
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

func (s *engineServer) connState(_ net.Conn, state http.ConnState) {
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

// newConnections returns how many TCP connections the server has accepted,
// which lets tests prove that a client reuses keep-alive connections.
func (s *engineServer) newConnections() int64 { return s.newConns.Load() }

// close stops the listener, closes every connection, ends the requests a
// Delay holds (those served through Handler too) and returns once every
// handler and connection is finished, then closes the live endpoints. It is
// safe to call more than once.
func (s *engineServer) close() error {
	s.closing.Do(func() {
		// Connections first: a delayed handler released by cancel must find
		// its connection closed rather than answer on it.
		s.err = s.srv.Close()
		<-s.served
		s.api.calls.close()
		s.mu.Lock()
		for s.open > 0 {
			s.idle.Wait()
		}
		s.mu.Unlock()
		s.api.close()
	})
	return s.err
}
