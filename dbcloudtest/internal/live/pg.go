package live

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"time"
)

// The start of the PostgreSQL frontend/backend protocol, as a live endpoint
// speaks it: decline TLS, then answer the startup message once.

// Answer is how a live endpoint treats a new connection.
type Answer int

const (
	Refuse     Answer = iota // reset at once: the resource is not READY or active
	StartingUp               // ErrorResponse 57P03: within the connect delay of READY or active
	Up                       // an authentication request: the database answers
)

const (
	sslRequestCode    = 80877103
	gssEncRequestCode = 80877104
	// maxStartupPacket is PostgreSQL's own limit on a startup packet.
	maxStartupPacket = 10000
	// connTimeout bounds a connection: a client that stalls holds its
	// goroutine no longer.
	connTimeout = 10 * time.Second
)

var (
	// startingUpReply is what PostgreSQL sends while it starts up.
	startingUpReply = message('E', []byte("SFATAL\x00VFATAL\x00C57P03\x00Mthe database system is starting up\x00\x00"))
	// upReply is AuthenticationSASL offering SCRAM-SHA-256, the first
	// answer of a PostgreSQL 14+ server to a client that needs a password.
	upReply = message('R', append(binary.BigEndian.AppendUint32(nil, 10), "SCRAM-SHA-256\x00\x00"...))
)

// message frames a backend message: its type, then a length that counts
// itself.
func message(typ byte, body []byte) []byte {
	return append(binary.BigEndian.AppendUint32([]byte{typ}, uint32(4+len(body))), body...)
}

var errBadPacket = errors.New("dbcloudtest: malformed startup packet")

// answer answers one connection to a live endpoint and closes it.
func answer(conn net.Conn, ans Answer) {
	defer conn.Close()
	if ans == Refuse {
		if tc, ok := conn.(*net.TCPConn); ok {
			_ = tc.SetLinger(0) // the close resets the connection
		}
		return
	}
	_ = conn.SetDeadline(time.Now().Add(connTimeout))
	for range 3 { // an SSLRequest and a GSSENCRequest may come before the startup message
		code, err := readStartupPacket(conn)
		if err != nil {
			return
		}
		switch {
		case code == sslRequestCode || code == gssEncRequestCode:
			if _, err := conn.Write([]byte{'N'}); err != nil {
				return
			}
		case code>>16 == 3: // protocol 3.x
			reply := upReply
			if ans == StartingUp {
				reply = startingUpReply
			}
			_, _ = conn.Write(reply)
			return
		default: // a CancelRequest, or a protocol this server does not speak
			return
		}
	}
}

// readStartupPacket reads a length-prefixed packet with no type byte and
// returns its code (a request code or a protocol version).
func readStartupPacket(r io.Reader) (uint32, error) {
	var hdr [8]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, err
	}
	n := binary.BigEndian.Uint32(hdr[:4])
	if n < 8 || n > maxStartupPacket {
		return 0, errBadPacket
	}
	if _, err := io.CopyN(io.Discard, r, int64(n-8)); err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint32(hdr[4:]), nil
}
