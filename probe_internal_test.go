package dbcloud

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// pgMsg frames a backend message: type, then a length counting itself.
func pgMsg(typ byte, body string) []byte {
	return append(binary.BigEndian.AppendUint32([]byte{typ}, uint32(4+len(body))), body...)
}

const (
	authSASL   = "\x00\x00\x00\x0aSCRAM-SHA-256\x00\x00"
	startingUp = "SFATAL\x00VFATAL\x00C57P03\x00Mthe database system is starting up\x00Fpostmaster.c\x00\x00"
)

// received is what a test server read from the probe.
type received struct {
	sslRequest []byte
	serverName string // SNI, with TLS
	startup    []byte
	after      []byte // bytes sent after the server's answer
	afterErr   error  // how the connection ended after the answer
}

// pgServer serves a plain or TLS (with cert) PostgreSQL-like endpoint that
// answers the startup message with reply. Each exchange that got that far
// is sent on the channel.
func pgServer(t *testing.T, cert *tls.Certificate, reply []byte) (Endpoint, <-chan received) {
	got := make(chan received, 10)
	ep := scriptedServer(t, func(conn net.Conn) {
		if r, ok := servePG(conn, cert, reply); ok {
			select {
			case got <- r:
			default: // nobody looks at this many
			}
		}
	})
	return ep, got
}

// servePG speaks for a PostgreSQL server on conn: it answers an SSLRequest
// (with TLS when cert is set), answers the startup message with reply and
// reads until the client closes. ok is false when the exchange broke off
// before the reply.
func servePG(conn net.Conn, cert *tls.Certificate, reply []byte) (r received, ok bool) {
	var c net.Conn = conn
	r.sslRequest = make([]byte, 8)
	if _, err := io.ReadFull(c, r.sslRequest); err != nil {
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
		c, r.serverName = tc, tc.ConnectionState().ServerName
	}
	var n [4]byte
	if _, err := io.ReadFull(c, n[:]); err != nil {
		return r, false
	}
	r.startup = make([]byte, binary.BigEndian.Uint32(n[:])-4)
	if _, err := io.ReadFull(c, r.startup); err != nil {
		return r, false
	}
	if _, err := c.Write(reply); err != nil {
		return r, false
	}
	r.after, r.afterErr = io.ReadAll(c)
	return r, true
}

// next returns the next exchange a pgServer recorded.
func next(t *testing.T, got <-chan received) received {
	t.Helper()
	select {
	case r := <-got:
		return r
	case <-time.After(5 * time.Second):
		t.Fatal("the server recorded no exchange")
		return received{}
	}
}

// scriptedServer runs script on each connection to a loopback port until
// the test ends. Scripts must end when the client closes.
func scriptedServer(t *testing.T, script func(net.Conn)) Endpoint {
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
	return Endpoint{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port}
}

var quickProbe = probeConfig{timeout: 2 * time.Second}

// The probe sends an SSLRequest, then a startup message for the probe user,
// reads the answer and closes: no password, nothing else.
func TestProbePlainSendsNoPassword(t *testing.T) {
	checkGoroutines(t)
	ep, got := pgServer(t, nil, pgMsg('R', authSASL))
	if err := quickProbe.probe(t.Context(), ep); err != nil {
		t.Fatal(err)
	}
	rec := next(t, got)
	if !bytes.Equal(rec.sslRequest, []byte{0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f}) {
		t.Errorf("SSLRequest %x", rec.sslRequest)
	}
	if want := "\x00\x03\x00\x00user\x00dbcloud_probe\x00database\x00postgres\x00application_name\x00dbcloud-go probe\x00\x00"; string(rec.startup) != want {
		t.Errorf("startup message %q, want %q", rec.startup, want)
	}
	if len(rec.after) != 0 || rec.afterErr != nil {
		t.Errorf("after the answer the probe sent %q and ended with %v, want a clean close", rec.after, rec.afterErr)
	}
}

// With TLS offered, the probe verifies the certificate (system roots, or
// WithTLSConfig's), sends the endpoint host as SNI, and closes with
// close_notify.
func TestProbeTLS(t *testing.T) {
	checkGoroutines(t)
	certs := newTestCerts(t, "localhost")
	ep, got := pgServer(t, &certs.server, pgMsg('R', authSASL))
	ep.Host = "localhost"

	trusting := quickProbe
	trusting.tls = &tls.Config{RootCAs: certs.roots}
	if err := trusting.probe(t.Context(), ep); err != nil {
		t.Fatal(err)
	}
	rec := next(t, got)
	if rec.serverName != "localhost" {
		t.Errorf("SNI %q, want the endpoint host", rec.serverName)
	}
	if rec.afterErr != nil || len(rec.after) != 0 {
		t.Errorf("after the answer: %q, %v; want close_notify and nothing else", rec.after, rec.afterErr)
	}
	if trusting.tls.ServerName != "" {
		t.Error("the caller's tls.Config was modified")
	}

	err := quickProbe.probe(t.Context(), ep) // system roots do not know the test CA
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("untrusted certificate: %v, want an x509.UnknownAuthorityError", err)
	}

	otherHost := quickProbe
	otherHost.tls = &tls.Config{RootCAs: certs.roots, ServerName: "db.example.com"}
	err = otherHost.probe(t.Context(), ep)
	var wrongHost x509.HostnameError
	if !errors.As(err, &wrongHost) || !strings.Contains(err.Error(), "db.example.com") {
		t.Errorf("another host's certificate: %v, want an x509.HostnameError", err)
	}
}

// A broken or hostile server never hangs the probe: every step is bounded
// by the probe's timeout or the context.
func TestProbeSurvivesBrokenServers(t *testing.T) {
	checkGoroutines(t)
	short := probeConfig{timeout: 100 * time.Millisecond}
	drain := func(c net.Conn) { _, _ = io.Copy(io.Discard, c) }
	afterN := func(then string) func(net.Conn) {
		return func(c net.Conn) {
			if _, err := io.ReadFull(c, make([]byte, 8)); err != nil {
				return
			}
			_, _ = io.WriteString(c, "N"+then)
			drain(c)
		}
	}
	for _, c := range []struct {
		name   string
		script func(net.Conn)
		want   string
	}{
		{"silent after accepting", drain, "no answer within 100ms"},
		{"closes after the SSLRequest", func(c net.Conn) { _, _ = io.ReadFull(c, make([]byte, 8)) }, "reading the answer to SSLRequest: EOF"},
		{"answers SSLRequest with an error", func(c net.Conn) { _, _ = io.WriteString(c, "Ecould not fork new process for connection\n"); drain(c) }, "neither S nor N"},
		{"offers TLS, then speaks plain text", func(c net.Conn) { _, _ = io.WriteString(c, "SHTTP/1.0 400 Bad Request\r\n\r\n"); drain(c) }, "tls:"},
		{"silent after N", afterN(""), "no answer within 100ms"},
		{"announces 2 GiB", afterN("E\x7f\xff\xff\xff"), "out of range"},
		{"sends half an answer", afterN(string(pgMsg('E', startingUp)[:20])), "no answer within 100ms"},
		{"answers with a notice", afterN(string(pgMsg('N', "SNOTICE\x00\x00"))), "unexpected answer"},
		{"starting up", afterN(string(pgMsg('E', startingUp))), "57P03"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ep := scriptedServer(t, c.script)
			start := time.Now()
			err := short.probe(t.Context(), ep)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v, want an error naming %q", err, c.want)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}

	t.Run("nothing listening", func(t *testing.T) {
		ep := scriptedServer(t, drain)
		ep.Port = closedPort(t)
		if err := short.probe(t.Context(), ep); !errors.Is(err, syscall.ECONNREFUSED) {
			t.Errorf("%v, want ECONNREFUSED", err)
		}
	})
	t.Run("cut by the caller's deadline", func(t *testing.T) {
		ep := scriptedServer(t, drain)
		ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
		defer cancel()
		slow := probeConfig{timeout: time.Hour}
		err := slow.probe(ctx, ep)
		if !errors.Is(err, context.DeadlineExceeded) || ctx.Err() == nil || strings.Contains(err.Error(), "no answer within") {
			t.Errorf("%v, want the caller's deadline, reported once its context has ended", err)
		}
	})
	t.Run("cancelled while the server is silent", func(t *testing.T) {
		ep := scriptedServer(t, drain)
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(50*time.Millisecond, cancel)
		slow := probeConfig{timeout: time.Hour}
		start := time.Now()
		err := slow.probe(ctx, ep)
		if err == nil || strings.Contains(err.Error(), "no answer within") {
			t.Errorf("%v, want the cut-off read, not the probe's own timeout", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("took %v after the cancel", d)
		}
	})
}

// closedPort returns a loopback port where nothing listens.
func closedPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	return port
}

// answers checks every endpoint exists before probing any, and probes the
// pooler only when asked.
func TestAnswersProbesThePoolerWhenAsked(t *testing.T) {
	checkGoroutines(t)
	up, _ := pgServer(t, nil, pgMsg('R', authSASL))
	down := Endpoint{Host: "127.0.0.1", Port: closedPort(t)}
	ctx := t.Context()
	withPooler := probeConfig{timeout: time.Second, pooler: true}

	if err := quickProbe.answers(ctx, "service", &up, &ConnectionPooler{Endpoint: &down}); err != nil {
		t.Errorf("without WithPoolerCheck the pooler was probed: %v", err)
	}
	if err := withPooler.answers(ctx, "service", &up, &ConnectionPooler{Endpoint: &up}); err != nil {
		t.Errorf("both up: %v", err)
	}
	err := withPooler.answers(ctx, "service", &up, &ConnectionPooler{Endpoint: &down})
	if !errors.Is(err, syscall.ECONNREFUSED) || !strings.Contains(err.Error(), net.JoinHostPort(down.Host, strconv.Itoa(down.Port))) {
		t.Errorf("pooler down: %v, want its refusal", err)
	}
	for name, c := range map[string]struct {
		direct *Endpoint
		pooler *ConnectionPooler
		want   string
	}{
		"no endpoint":          {nil, nil, "the service has no endpoint"},
		"empty host":           {&Endpoint{Port: 5432}, nil, "no endpoint"},
		"port 0":               {&Endpoint{Host: "h"}, nil, "no endpoint"},
		"no pooler":            {&down, nil, "no connection pooler endpoint"},
		"a pooler without one": {&down, &ConnectionPooler{}, "no connection pooler endpoint"},
	} {
		err := withPooler.answers(ctx, "service", c.direct, c.pooler)
		if !errors.Is(err, ErrNoEndpoint) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrNoEndpoint naming %q", name, err, c.want)
		}
	}
}
