//go:build linux && !race

package dbcloud

import (
	"crypto/tls"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/testkit/pgtest"
)

// TestProbeCostRealPostgres logs the time a probe of a local PostgreSQL
// server takes, plain and with TLS: the median of 100 each. Not under -race,
// which would measure the race detector. A measurement of 5 s, which judges
// nothing: it runs with DBCLOUD_MEASURE=1 (see measure_test.go), as CI's
// measurement step runs it.
func TestProbeCostRealPostgres(t *testing.T) {
	if testing.Short() || os.Getenv("DBCLOUD_MEASURE") == "" {
		t.Skip("a measurement of 5 s: DBCLOUD_MEASURE=1 runs it")
	}
	pg := pgtest.New(t)
	c, _ := serviceAt(t, pg.Port, func(int) string { return "READY" })
	measure := func(kind string, tlsConfig *tls.Config) {
		t.Helper()
		if _, err := c.Services.WaitForConnectable(t.Context(), "p1", "s1", WithTLSConfig(tlsConfig),
			WithPollInterval(5*time.Millisecond, 20*time.Millisecond), WithWaitTimeout(time.Minute)); err != nil {
			t.Fatal(err)
		}
		probe := probeConfig{timeout: defaultProbeTimeout, tls: tlsConfig}
		times := make([]time.Duration, 100)
		for i := range times {
			start := time.Now()
			if err := probe.probe(t.Context(), Endpoint{Host: pgtest.Host, Port: pg.Port}); err != nil {
				t.Fatal(err)
			}
			times[i] = time.Since(start)
		}
		slices.Sort(times)
		t.Logf("%s probe of the local PostgreSQL: median %v of 100 (fastest %v, slowest %v)",
			kind, times[len(times)/2], times[0], times[len(times)-1])
	}

	pg.Start()
	measure("plain", nil)
	pg.Stop()
	certs := startTLS(t, pg)
	measure("TLS", &tls.Config{RootCAs: certs.Roots})
}
