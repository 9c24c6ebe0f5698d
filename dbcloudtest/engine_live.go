package dbcloudtest

import (
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// loopbackHost is the host of every live endpoint.
const loopbackHost = "127.0.0.1"

// pgAnswer is how a live endpoint treats a new connection.
type pgAnswer int

const (
	pgRefuse     pgAnswer = iota // reset at once: the resource is not READY or active
	pgStartingUp                 // ErrorResponse 57P03: within connectDelay of READY or active
	pgUp                         // an authentication request: the database answers
)

// answerFor is how an endpoint of a resource with this schedule answers
// now: refused unless the current status is up, "starting up" for delay
// after that status began, then up.
func answerFor(sched schedule, now time.Time, up string, delay time.Duration) pgAnswer {
	cur := sched.currentStep(now)
	switch {
	case cur.status != up:
		return pgRefuse
	case now.Before(cur.at.Add(delay)):
		return pgStartingUp
	}
	return pgUp
}

// liveEndpoint is one resource endpoint's listener; nil when endpoints are
// not live.
type liveEndpoint struct {
	ln   net.Listener
	port int
}

// json renders the endpoint: its loopback port when live, else host:port.
func (l *liveEndpoint) json(host string, port int) endpointJSON {
	if l == nil {
		return endpointJSON{host, port}
	}
	return endpointJSON{loopbackHost, l.port}
}

// close stops the listener; connections in progress finish on their own.
func (l *liveEndpoint) close() {
	if l != nil {
		_ = l.ln.Close()
	}
}

var errClosed = errors.New("dbcloudtest: the API is closed")

// liveNet owns the listeners of live endpoints and their connections, so
// that close can end them all and wait for their goroutines.
type liveNet struct {
	mu     sync.Mutex
	closed bool
	lns    map[net.Listener]struct{}
	conns  map[net.Conn]struct{}
	wg     sync.WaitGroup // one per listener and per connection being answered
}

func newLiveNet() *liveNet {
	return &liveNet{lns: make(map[net.Listener]struct{}), conns: make(map[net.Conn]struct{})}
}

// openEndpoint starts a live endpoint whose connections are answered as
// state says at the time (read under a.mu). It returns nil when endpoints
// are not live. The caller holds a.mu.
func (a *engine) openEndpoint(state func(now time.Time) pgAnswer) (*liveEndpoint, error) {
	if a.live == nil {
		return nil, nil
	}
	ln, err := a.live.listen()
	if err != nil {
		return nil, &apiError{http.StatusServiceUnavailable, "UNAVAILABLE", "cannot open a database endpoint", err.Error()}
	}
	go a.live.serve(ln, func() pgAnswer {
		a.mu.Lock()
		defer a.mu.Unlock()
		return state(a.clock.Now())
	})
	return &liveEndpoint{ln: ln, port: ln.Addr().(*net.TCPAddr).Port}, nil
}

func (l *liveNet) listen() (net.Listener, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, errClosed
	}
	ln, err := net.Listen("tcp", loopbackHost+":0")
	if err != nil {
		return nil, err
	}
	l.lns[ln] = struct{}{}
	l.wg.Add(1)
	return ln, nil
}

// serve accepts connections until the listener is closed, answering each
// on its own goroutine. Any other Accept error (out of file descriptors,
// say) is waited out with a growing pause, as net/http's server does, so an
// endpoint never stops answering while its listener stays open.
func (l *liveNet) serve(ln net.Listener, decide func() pgAnswer) {
	defer l.wg.Done()
	defer func() {
		_ = ln.Close()
		l.mu.Lock()
		delete(l.lns, ln)
		l.mu.Unlock()
	}()
	pause := time.Duration(0)
	for {
		conn, err := ln.Accept()
		if errors.Is(err, net.ErrClosed) {
			return
		}
		if err != nil {
			pause = min(max(2*pause, 5*time.Millisecond), time.Second)
			time.Sleep(pause)
			continue
		}
		pause = 0
		if !l.track(conn) {
			_ = conn.Close()
			return
		}
		go func() {
			defer l.wg.Done()
			defer l.untrack(conn)
			answerPG(conn, decide())
		}()
	}
}

// track registers a connection, unless close has begun.
func (l *liveNet) track(conn net.Conn) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return false
	}
	l.conns[conn] = struct{}{}
	l.wg.Add(1)
	return true
}

func (l *liveNet) untrack(conn net.Conn) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.conns, conn)
}

// close stops every listener and connection and waits for their goroutines.
func (l *liveNet) close() {
	l.mu.Lock()
	l.closed = true
	for ln := range l.lns {
		_ = ln.Close()
	}
	for conn := range l.conns {
		_ = conn.Close()
	}
	l.mu.Unlock()
	l.wg.Wait()
}

// close stops the live endpoints (live endpoints) and returns once
// their goroutines have ended. Stop the HTTP server in front of the API
// first: after close, a request that needs a new endpoint fails with 503.
// Without live endpoints it does nothing. It is safe to call more than once.
func (a *engine) close() {
	if a.live != nil {
		a.live.close()
	}
}
