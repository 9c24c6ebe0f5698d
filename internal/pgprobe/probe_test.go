package pgprobe_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/pgprobe"
	"github.com/dbcloud/dbcloud-go/internal/testkit/pgwire"
)

// quick bounds a probe of a server that answers.
const quick = 2 * time.Second

// The probe sends an SSLRequest, then a startup message for the probe user,
// reads the answer and closes: no password, nothing else.
func TestProbePlainSendsNoPassword(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	host, port, got := pgwire.Server(t, nil, pgwire.Msg('R', pgwire.AuthSASL))
	if err := pgprobe.Probe(t.Context(), host, port, nil, quick); err != nil {
		t.Fatal(err)
	}
	rec := pgwire.Next(t, got)
	if !bytes.Equal(rec.SSLRequest, []byte{0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f}) {
		t.Errorf("SSLRequest %x", rec.SSLRequest)
	}
	if want := "\x00\x03\x00\x00user\x00dbcloud_probe\x00database\x00postgres\x00application_name\x00dbcloud-go probe\x00\x00"; string(rec.Startup) != want {
		t.Errorf("startup message %q, want %q", rec.Startup, want)
	}
	if len(rec.After) != 0 || rec.AfterErr != nil {
		t.Errorf("after the answer the probe sent %q and ended with %v, want a clean close", rec.After, rec.AfterErr)
	}
}

// With TLS offered, the probe verifies the certificate (system roots, or
// WithTLSConfig's), sends the endpoint host as SNI, and closes with
// close_notify.
func TestProbeTLS(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	certs := pgwire.NewCerts(t, "localhost")
	_, port, got := pgwire.Server(t, &certs.Server, pgwire.Msg('R', pgwire.AuthSASL))
	const host = "localhost"

	trusting := &tls.Config{RootCAs: certs.Roots}
	if err := pgprobe.Probe(t.Context(), host, port, trusting, quick); err != nil {
		t.Fatal(err)
	}
	rec := pgwire.Next(t, got)
	if rec.ServerName != "localhost" {
		t.Errorf("SNI %q, want the endpoint host", rec.ServerName)
	}
	if rec.AfterErr != nil || len(rec.After) != 0 {
		t.Errorf("after the answer: %q, %v; want close_notify and nothing else", rec.After, rec.AfterErr)
	}
	if trusting.ServerName != "" {
		t.Error("the caller's tls.Config was modified")
	}

	err := pgprobe.Probe(t.Context(), host, port, nil, quick) // system roots do not know the test CA
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("untrusted certificate: %v, want an x509.UnknownAuthorityError", err)
	}

	otherHost := &tls.Config{RootCAs: certs.Roots, ServerName: "db.example.com"}
	err = pgprobe.Probe(t.Context(), host, port, otherHost, quick)
	var wrongHost x509.HostnameError
	if !errors.As(err, &wrongHost) || !strings.Contains(err.Error(), "db.example.com") {
		t.Errorf("another host's certificate: %v, want an x509.HostnameError", err)
	}
}

// A broken or hostile server never hangs the probe: every step is bounded
// by the probe's timeout or the context. Each case has a server of its own
// and waits on its own timeouts: they run in parallel (but the one of a
// closed port, which runs before them), and the goroutine check, the
// test's, counts after all of them.
func TestProbeSurvivesBrokenServers(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	const short = 100 * time.Millisecond
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
		{"sends half an answer", afterN(string(pgwire.Msg('E', pgwire.StartingUp)[:20])), "no answer within 100ms"},
		{"answers with a notice", afterN(string(pgwire.Msg('N', "SNOTICE\x00\x00"))), "unexpected answer"},
		{"starting up", afterN(string(pgwire.Msg('E', pgwire.StartingUp))), "57P03"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			host, port := pgwire.Scripted(t, c.script)
			start := time.Now()
			err := pgprobe.Probe(t.Context(), host, port, nil, short)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v, want an error naming %q", err, c.want)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}

	// Not in parallel: the closed port is free until a listener of the
	// other cases takes it.
	t.Run("nothing listening", func(t *testing.T) {
		host, _ := pgwire.Scripted(t, drain)
		if err := pgprobe.Probe(t.Context(), host, pgwire.ClosedPort(t), nil, short); !errors.Is(err, syscall.ECONNREFUSED) {
			t.Errorf("%v, want ECONNREFUSED", err)
		}
	})
	t.Run("cut by the caller's deadline", func(t *testing.T) {
		t.Parallel()
		host, port := pgwire.Scripted(t, drain)
		ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
		defer cancel()
		err := pgprobe.Probe(ctx, host, port, nil, time.Hour)
		if !errors.Is(err, context.DeadlineExceeded) || ctx.Err() == nil || strings.Contains(err.Error(), "no answer within") {
			t.Errorf("%v, want the caller's deadline, reported once its context has ended", err)
		}
	})
	t.Run("cancelled while the server is silent", func(t *testing.T) {
		t.Parallel()
		host, port := pgwire.Scripted(t, drain)
		ctx, cancel := context.WithCancel(t.Context())
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		err := pgprobe.Probe(ctx, host, port, nil, time.Hour)
		if err == nil || strings.Contains(err.Error(), "no answer within") {
			t.Errorf("%v, want the cut-off read, not the probe's own timeout", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("took %v after the cancel", d)
		}
	})
}
