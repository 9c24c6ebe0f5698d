// Package pgprobe asks a PostgreSQL server whether it accepts
// connections: it speaks the first steps of the frontend/backend protocol
// (version 3.0), TLS when the server offers it, then a startup message
// for a probe user, without a password and without logging in, and
// closes the connection after the server's first answer.
//
// It knows nothing of the API or its resources: the caller gives it a
// host and a port, and decides what an answer, or its absence, means to a
// wait.
package pgprobe

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"time"
)

const (
	// maxAnswerBytes bounds the first message read from a server (a real
	// one is a few hundred bytes), so a broken or hostile one cannot make
	// the probe allocate more.
	maxAnswerBytes = 16 << 10
	// maxQuotedMessage cuts a server's error message in a probe error.
	maxQuotedMessage = 200

	sslRequestCode    = 80877103
	protocolVersion30 = 3 << 16
	// sqlStateCannotConnectNow is the SQLSTATE of "the database system is
	// starting up" (also "shutting down", "not yet accepting connections").
	sqlStateCannotConnectNow = "57P03"
	probeUser                = "dbcloud_probe"
	probeApplication         = "dbcloud-go probe"
)

// sslRequest asks the server whether it speaks TLS: length 8, then the code.
var sslRequest = binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32(nil, 8), sslRequestCode)

// startupMessage opens a session for the probe user, who needs no password
// to be sent this far: the server answers before any password is due.
var startupMessage = func() []byte {
	body := binary.BigEndian.AppendUint32(nil, protocolVersion30)
	for _, s := range []string{"user", probeUser, "database", "postgres", "application_name", probeApplication} {
		body = append(append(body, s...), 0)
	}
	body = append(body, 0)
	return append(binary.BigEndian.AppendUint32(nil, uint32(4+len(body))), body...)
}()

// Probe reports whether a PostgreSQL server answers at host:port: nil when
// it does, else why not (refused, reset, timed out, TLS failed, starting
// up). A probe takes at most timeout: a server that accepts the TCP
// connection and then says nothing must not hold it. With TLS, the
// server's certificate is verified with tlsConfig (nil: the system's
// roots; it is not modified, and one without ServerName gets host). It
// closes the connection after the server's first answer, before any
// password is due, so the server logs at most a disconnect.
func Probe(ctx context.Context, host string, port int, tlsConfig *tls.Config, timeout time.Duration) error {
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := talk(pctx, addr, host, tlsConfig)
	if err == nil {
		return nil
	}
	timedOut := errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded)
	probeEnd, _ := pctx.Deadline()
	waitEnd, bounded := ctx.Deadline()
	switch {
	case ctx.Err() != nil:
		err = ctx.Err()
	case timedOut && bounded && !waitEnd.After(probeEnd):
		// The wait's own deadline cut the probe, a moment before its
		// context says so: wait for that, so that the wait does not take
		// its own end for a probe failure.
		<-ctx.Done()
		err = ctx.Err()
	case timedOut:
		err = fmt.Errorf("no answer within %v: %w", timeout, err)
	}
	return fmt.Errorf("probe of %s: %w", addr, err)
}

// talk runs one probe on a new connection bounded by ctx, which has a
// deadline.
func talk(ctx context.Context, addr, host string, tlsConfig *tls.Config) error {
	var d net.Dialer
	raw, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return err
	}
	deadline, _ := ctx.Deadline()
	_ = raw.SetDeadline(deadline)
	// A cancelled context ends a blocked read or write at once.
	stop := context.AfterFunc(ctx, func() { _ = raw.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	conn, err := startTLS(ctx, raw, host, tlsConfig)
	if err != nil {
		_ = raw.Close()
		return err
	}
	// Closing a TLS connection sends close_notify first, so that the server
	// sees a clean end rather than an error worth logging.
	defer func() { _ = conn.Close() }()
	if _, err := conn.Write(startupMessage); err != nil {
		return fmt.Errorf("sending the startup message: %w", err)
	}
	return readAnswer(conn)
}

// startTLS sends an SSLRequest and returns the connection to speak on: a
// TLS one when the server offers TLS ('S'), the plain one when it declines
// ('N').
func startTLS(ctx context.Context, conn net.Conn, host string, tlsConfig *tls.Config) (net.Conn, error) {
	if _, err := conn.Write(sslRequest); err != nil {
		return nil, fmt.Errorf("sending SSLRequest: %w", err)
	}
	var b [1]byte
	if _, err := io.ReadFull(conn, b[:]); err != nil {
		return nil, fmt.Errorf("reading the answer to SSLRequest: %w", err)
	}
	switch b[0] {
	case 'N':
		return conn, nil
	case 'S':
		cfg := &tls.Config{}
		if tlsConfig != nil {
			cfg = tlsConfig.Clone()
		}
		if cfg.ServerName == "" {
			cfg.ServerName = host
		}
		tc := tls.Client(conn, cfg)
		if err := tc.HandshakeContext(ctx); err != nil {
			return nil, err
		}
		return tc, nil
	}
	return nil, fmt.Errorf("answer %q to SSLRequest is neither S nor N: not a PostgreSQL server", b[0])
}

// readAnswer reads the server's first message after the startup message
// and says what it means (see answerMeans). Lengths are checked before use.
func readAnswer(r io.Reader) error {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return fmt.Errorf("reading the answer to the startup message: %w", err)
	}
	typ, n := hdr[0], binary.BigEndian.Uint32(hdr[1:])
	if n < 4 || n-4 > maxAnswerBytes {
		return fmt.Errorf("answer of type %q has length %d, out of range: not a PostgreSQL server", typ, n)
	}
	body := make([]byte, n-4)
	if _, err := io.ReadFull(r, body); err != nil {
		return fmt.Errorf("reading the answer to the startup message: %w", err)
	}
	return answerMeans(typ, body)
}

// answerMeans returns nil when a server's first message shows it is up: an
// authentication request, or an ErrorResponse other than 57P03 (a server
// that refuses the probe user is up). 57P03 and anything malformed or
// unexpected mean not yet.
func answerMeans(typ byte, body []byte) error {
	switch typ {
	case 'R':
		if len(body) < 4 {
			return errors.New("malformed authentication request: not a PostgreSQL server")
		}
		return nil
	case 'E':
		e, err := parseErrorResponse(body)
		if err != nil {
			return err
		}
		if e.code == sqlStateCannotConnectNow {
			return e
		}
		return nil
	}
	return fmt.Errorf("unexpected answer of type %q: not a PostgreSQL server", typ)
}

// serverError is an ErrorResponse from a server.
type serverError struct {
	code, message string
}

// Error quotes the SQLSTATE and the message: both come from the server, so
// they are cut (to 5 and maxQuotedMessage runes) and escaped.
func (e *serverError) Error() string {
	return fmt.Sprintf("server answered SQLSTATE %.5q: %.*q", e.code, maxQuotedMessage, e.message)
}

// parseErrorResponse reads an ErrorResponse body: fields of a type byte and
// a NUL-terminated string, ended by a NUL.
func parseErrorResponse(body []byte) (*serverError, error) {
	malformed := errors.New("malformed error response: not a PostgreSQL server")
	e := &serverError{}
	for len(body) > 0 && body[0] != 0 {
		end := bytes.IndexByte(body[1:], 0)
		if end < 0 {
			return nil, malformed
		}
		value := string(body[1 : 1+end])
		switch body[0] {
		case 'C':
			e.code = value
		case 'M':
			e.message = value
		}
		body = body[end+2:]
	}
	if len(body) == 0 {
		return nil, malformed
	}
	return e, nil
}
