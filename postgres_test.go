//go:build linux

package dbcloud

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/testkit/pgtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/pgwire"
)

// TestWaitForConnectableRealPostgres points a READY service at a real
// PostgreSQL server, started and stopped by the test, and checks each
// answer the probe can get from it. It skips when PostgreSQL is not
// installed, except under CI=true.
func TestWaitForConnectableRealPostgres(t *testing.T) {
	t.Parallel()
	checkGoroutines(t)
	// failing is how long a wait that must time out gets: time for a few
	// probes of a server that forks a process per connection, on a loaded
	// machine under -race.
	const failing = time.Second
	pg := pgtest.New(t)
	c, mt := serviceAt(t, pg.Port, func(int) string { return "READY" })
	wait := func(timeout time.Duration, opts ...WaitOption) error {
		opts = append(opts, WithPollInterval(5*time.Millisecond, 20*time.Millisecond), WithWaitTimeout(timeout))
		_, err := c.Services.WaitForConnectable(t.Context(), "p1", "s1", opts...)
		return err
	}

	t.Run("not started: keeps waiting and times out", func(t *testing.T) {
		err := wait(300 * time.Millisecond)
		assertTimedOut(t, err)
		if !errors.Is(err, syscall.ECONNREFUSED) {
			t.Errorf("err = %v, want the refusal named", err)
		}
		if n := mt.GetTotalCallCount(); n < 3 {
			t.Errorf("%d polls in 300 ms, want it to keep probing", n)
		}
	})

	// Each subtest binds pg to itself: a failure in pg's methods must end the
	// subtest, from its own goroutine.
	t.Run("starting up (57P03): not yet, until promoted", func(t *testing.T) {
		pg := pg.For(t)
		pg.StartStandby()
		pg.WaitLog(`listening on IPv4 address "127.0.0.1"`) // from here every connection gets 57P03
		err := wait(failing)
		assertTimedOut(t, err)
		if !strings.Contains(err.Error(), `SQLSTATE "57P03"`) {
			t.Errorf("err = %v, want the 57P03 answer named", err)
		}
		pg.Promote()
		if err := wait(time.Minute); err != nil {
			t.Fatalf("after promotion: %v", err)
		}
	})

	t.Run("started: connectable", func(t *testing.T) {
		pg := pg.For(t)
		pg.Stop()
		pg.Start()
		if err := wait(time.Minute); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("TLS: connectable with the CA trusted, a certificate error without", func(t *testing.T) {
		pg := pg.For(t)
		pg.Stop()
		certs := startTLS(t, pg)
		if err := wait(time.Minute, WithTLSConfig(&tls.Config{RootCAs: certs.Roots})); err != nil {
			t.Fatal(err)
		}

		// The first use of the system roots parses them, which can take
		// longer than the wait under -race: not what is tested here.
		_, _ = x509.SystemCertPool()
		err := wait(failing) // the system roots do not know the test's CA
		assertTimedOut(t, err)
		var unknown x509.UnknownAuthorityError
		if !errors.As(err, &unknown) || !strings.Contains(err.Error(), "certificate signed by unknown authority") {
			t.Errorf("err = %v, want the untrusted certificate named", err)
		}
		err = wait(failing, WithTLSConfig(&tls.Config{RootCAs: certs.Roots, ServerName: "db.example.com"}))
		assertTimedOut(t, err)
		var wrongHost x509.HostnameError
		if !errors.As(err, &wrongHost) || !strings.Contains(err.Error(), "db.example.com") {
			t.Errorf("err = %v, want the certificate of another host named", err)
		}
	})

	// The probe sends no password and leaves before one is due: the
	// server never logs a failed login.
	if log := pg.Log(); strings.Contains(log, "authentication failed") || strings.Contains(log, "dbcloud_probe") {
		t.Errorf("the server logged the probe's logins:\n%s", log)
	}
}

// startTLS starts pg with ssl=on and a certificate for 127.0.0.1 signed by
// a CA made for the test.
func startTLS(t *testing.T, pg *pgtest.Cluster) *pgwire.Certs {
	t.Helper()
	certs := pgwire.NewCerts(t, pgtest.Host)
	pg.WriteFile("server.crt", certs.CertPEM)
	pg.WriteFile("server.key", certs.KeyPEM)
	pg.Start("ssl=on", "ssl_cert_file=server.crt", "ssl_key_file=server.key")
	return certs
}

func assertTimedOut(t *testing.T, err error) {
	t.Helper()
	var w *WaitError
	if !errors.As(err, &w) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want a *WaitError matching DeadlineExceeded", err)
	}
	if w.Want != "connectable" || w.LastStatus != "READY" {
		t.Errorf("Want %q, LastStatus %q; want connectable and READY", w.Want, w.LastStatus)
	}
}
