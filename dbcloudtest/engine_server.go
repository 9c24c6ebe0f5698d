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

// EngineServer is a fake API listening on a real socket, for code that needs a URL
// rather than an http.Handler (examples, end-to-end tests).
type EngineServer struct {
	// URL is the base URL, ending in /v1: http://127.0.0.1:43121/v1.
	URL string
	// APIKey is the key requests must carry.
	APIKey string
	// ProjectID is the first known project.
	ProjectID string
	// API is the model behind the server, for faults, counts and helpers.
	API *API

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

// Start serves a new fake API, configured by opts, on addr; "" means
// "127.0.0.1:0", a free loopback port. Its endpoints are live
// (Options.LiveEndpoints is set): programs can probe their databases.
func Start(addr string, opts Options) (*EngineServer, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	opts.LiveEndpoints = true
	api := New(opts)
	ctx, cancel := context.WithCancel(context.Background())
	s := &EngineServer{
		URL:       "http://" + dialable(ln.Addr().(*net.TCPAddr)) + "/v1",
		APIKey:    api.APIKey(),
		ProjectID: api.ProjectID(),
		API:       api,
		cancel:    cancel,
		served:    make(chan struct{}),
	}
	s.idle = sync.NewCond(&s.mu)
	s.srv = &http.Server{
		Handler:           http.HandlerFunc(s.serve),
		ReadHeaderTimeout: 10 * time.Second,
		// Cancelled by Close, so that delayed answers end instead of outliving it.
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

func (s *EngineServer) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.active++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.active--
		s.idle.Broadcast()
		s.mu.Unlock()
	}()
	s.API.ServeHTTP(w, r)
}

func (s *EngineServer) connState(_ net.Conn, state http.ConnState) {
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

// NewConnections returns how many TCP connections the server has accepted,
// which lets tests prove that a client reuses keep-alive connections.
func (s *EngineServer) NewConnections() int64 { return s.newConns.Load() }

// Close stops the listener, closes every connection and returns once all of
// the server's handlers and connections are finished, then closes the live
// endpoints. It is safe to call more than once.
func (s *EngineServer) Close() error {
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
		s.API.Close()
	})
	return s.err
}
