// Package pgwire plays the server side of the first steps of the
// PostgreSQL protocol on loopback ports, for the tests of the probe
// (internal/pgprobe) and of WaitForConnectable: it frames backend
// messages, serves an SSLRequest (with TLS, or without) and a startup
// message, answers with what the test says, and records what the client
// sent. Certs makes a certificate authority for the TLS tests.
package pgwire

import (
	"crypto/tls"
	"encoding/binary"
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// Backend messages' bodies a test answers with.
const (
	// AuthSASL is an AuthenticationSASL request: the server is up.
	AuthSASL = "\x00\x00\x00\x0aSCRAM-SHA-256\x00\x00"
	// StartingUp is the ErrorResponse of a server starting up (57P03).
	StartingUp = "SFATAL\x00VFATAL\x00C57P03\x00Mthe database system is starting up\x00Fpostmaster.c\x00\x00"
)

// Msg frames a backend message: type, then a length counting itself.
func Msg(typ byte, body string) []byte {
	return append(binary.BigEndian.AppendUint32([]byte{typ}, uint32(4+len(body))), body...)
}

// Received is what a test server read from the client.
type Received struct {
	SSLRequest []byte
	ServerName string // SNI, with TLS
	Startup    []byte
	After      []byte // bytes sent after the server's answer
	AfterErr   error  // how the connection ended after the answer
}

// Server serves a plain or TLS (with cert) PostgreSQL-like endpoint on a
// loopback port that answers the startup message with reply, until the
// test ends. Each exchange that got that far is sent on the channel.
func Server(t testing.TB, cert *tls.Certificate, reply []byte) (host string, port int, got <-chan Received) {
	exchanges := make(chan Received, 10)
	host, port = Scripted(t, func(conn net.Conn) {
		if r, ok := Serve(conn, cert, reply); ok {
			select {
			case exchanges <- r:
			default: // nobody looks at this many
			}
		}
	})
	return host, port, exchanges
}

// Serve speaks for a PostgreSQL server on conn: it answers an SSLRequest
// (with TLS when cert is set), answers the startup message with reply and
// reads until the client closes. ok is false when the exchange broke off
// before the reply.
func Serve(conn net.Conn, cert *tls.Certificate, reply []byte) (r Received, ok bool) {
	var c net.Conn = conn
	r.SSLRequest = make([]byte, 8)
	if _, err := io.ReadFull(c, r.SSLRequest); err != nil {
		return r, false
	}
	offer := []byte{'N'}
	if cert != nil {
		offer = []byte{'S'}
	}
	if _, err := c.Write(offer); err != nil {
		return r, false
	}
	if cert != nil {
		tc := tls.Server(c, &tls.Config{Certificates: []tls.Certificate{*cert}})
		if err := tc.Handshake(); err != nil {
			return r, false
		}
		c, r.ServerName = tc, tc.ConnectionState().ServerName
	}
	var n [4]byte
	if _, err := io.ReadFull(c, n[:]); err != nil {
		return r, false
	}
	r.Startup = make([]byte, binary.BigEndian.Uint32(n[:])-4)
	if _, err := io.ReadFull(c, r.Startup); err != nil {
		return r, false
	}
	if _, err := c.Write(reply); err != nil {
		return r, false
	}
	r.After, r.AfterErr = io.ReadAll(c)
	return r, true
}

// Next returns the next exchange a Server recorded.
func Next(t testing.TB, got <-chan Received) Received {
	t.Helper()
	select {
	case r := <-got:
		return r
	case <-time.After(5 * time.Second):
		t.Fatal("the server recorded no exchange")
		return Received{}
	}
}

// Scripted runs script on each connection to a loopback port until the
// test ends. Scripts must end when the client closes.
func Scripted(t testing.TB, script func(net.Conn)) (host string, port int) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer conn.Close()
				script(conn)
			})
		}
	})
	t.Cleanup(func() {
		_ = ln.Close()
		wg.Wait()
	})
	return "127.0.0.1", ln.Addr().(*net.TCPAddr).Port
}

// ClosedPort returns a loopback port where nothing listens.
func ClosedPort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	return port
}
