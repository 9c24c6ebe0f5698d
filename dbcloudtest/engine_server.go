package dbcloudtest

import (
	"context"
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
	cancel   context.CancelFunc
	served   chan struct{}
	newConns atomic.Int64

	mu      sync.Mutex
	idle    *sync.Cond // signalled when open or active drops
	open    int        // connections neither closed nor hijacked
	active  int        // handlers running
	closing sync.Once
	err     error
}

// startEngine serves a new fake API, configured by opts, on addr; "" means
// "127.0.0.1:0", a free loopback port. Its endpoints are live
// (engineOptions.liveEndpoints is set): programs can probe their databases.
func startEngine(addr string, opts engineOptions) (*engineServer, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	opts.liveEndpoints = true
	api := newEngine(opts)
	ctx, cancel := context.WithCancel(context.Background())
	s := &engineServer{
		url:    "http://" + dialable(ln.Addr().(*net.TCPAddr)) + "/v1",
		api:    api,
		cancel: cancel,
		served: make(chan struct{}),
	}
	s.idle = sync.NewCond(&s.mu)
	s.srv = &http.Server{
		Handler:           http.HandlerFunc(s.serve),
		ReadHeaderTimeout: 10 * time.Second,
		// Cancelled by close, so that delayed answers end instead of outliving it.
		BaseContext: func(net.Listener) context.Context { return ctx },
		ConnState:   s.connState,
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

func (s *engineServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.active++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.active--
		s.idle.Broadcast()
		s.mu.Unlock()
	}()
	s.api.ServeHTTP(w, r)
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

// close stops the listener, closes every connection and returns once all of
// the server's handlers and connections are finished, then closes the live
// endpoints. It is safe to call more than once.
func (s *engineServer) close() error {
	s.closing.Do(func() {
		// Connections first: a delayed handler released by cancel must find
		// its connection closed rather than answer on it.
		s.err = s.srv.Close()
		s.cancel()
		<-s.served
		s.mu.Lock()
		for s.open > 0 || s.active > 0 {
			s.idle.Wait()
		}
		s.mu.Unlock()
		s.api.close()
	})
	return s.err
}
