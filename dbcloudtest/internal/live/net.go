// Package live runs the database endpoints of the fake: one loopback
// listener per endpoint, answering each connection as the PostgreSQL server
// behind it would at that moment (refused, starting up, or up), so that code
// that waits for or probes a database meets what it meets in production.
// What a connection is answered is decided by the caller, the model, which
// knows the resource's status; this package only listens and speaks the
// protocol.
package live

import (
	"errors"
	"net"
	"sync"
	"time"
)

// Host is the host of every live endpoint.
const Host = "127.0.0.1"

// errClosed is the error of an Open after Close.
var errClosed = errors.New("dbcloudtest: the API is closed")

// Endpoint is one resource endpoint's listener. A nil *Endpoint is an
// endpoint that is not live: Close does nothing.
type Endpoint struct {
	ln   net.Listener
	port int
}

// Port is the loopback port the endpoint listens on.
func (e *Endpoint) Port() int { return e.port }

// Close stops the listener; connections in progress finish on their own.
func (e *Endpoint) Close() {
	if e != nil {
		_ = e.ln.Close()
	}
}

// Net owns the listeners of live endpoints and their connections, so that
// Close can end them all and wait for their goroutines.
type Net struct {
	mu     sync.Mutex
	closed bool
	lns    map[net.Listener]struct{}
	conns  map[net.Conn]struct{}
	wg     sync.WaitGroup // one per listener and per connection being answered
}

// NewNet returns a Net with no endpoint open.
func NewNet() *Net {
	return &Net{lns: make(map[net.Listener]struct{}), conns: make(map[net.Conn]struct{})}
}

// Open starts an endpoint on a free loopback port whose every connection is
// answered as decide says when the connection is accepted.
func (n *Net) Open(decide func() Answer) (*Endpoint, error) {
	ln, err := n.listen()
	if err != nil {
		return nil, err
	}
	go n.serve(ln, decide)
	return &Endpoint{ln: ln, port: ln.Addr().(*net.TCPAddr).Port}, nil
}

func (n *Net) listen() (net.Listener, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return nil, errClosed
	}
	ln, err := net.Listen("tcp", Host+":0")
	if err != nil {
		return nil, err
	}
	n.lns[ln] = struct{}{}
	n.wg.Add(1)
	return ln, nil
}

// serve accepts connections until the listener is closed, answering each
// on its own goroutine. Any other Accept error (out of file descriptors,
// say) is waited out with a growing pause, as net/http's server does, so an
// endpoint never stops answering while its listener stays open.
func (n *Net) serve(ln net.Listener, decide func() Answer) {
	defer n.wg.Done()
	defer func() {
		_ = ln.Close()
		n.mu.Lock()
		delete(n.lns, ln)
		n.mu.Unlock()
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
		if !n.track(conn) {
			_ = conn.Close()
			return
		}
		go func() {
			defer n.wg.Done()
			defer n.untrack(conn)
			answer(conn, decide())
		}()
	}
}

// track registers a connection, unless Close has begun.
func (n *Net) track(conn net.Conn) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return false
	}
	n.conns[conn] = struct{}{}
	n.wg.Add(1)
	return true
}

func (n *Net) untrack(conn net.Conn) {
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.conns, conn)
}

// Close stops every listener and connection and waits for their
// goroutines; an Open after it fails. It is safe to call more than once.
func (n *Net) Close() {
	n.mu.Lock()
	n.closed = true
	for ln := range n.lns {
		_ = ln.Close()
	}
	for conn := range n.conns {
		_ = conn.Close()
	}
	n.mu.Unlock()
	n.wg.Wait()
}
