package dbcloud

import (
	"context"
	"crypto/tls"
	"fmt"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/pgprobe"
)

// How WaitForConnectable probes a resource: which endpoints, with what
// configuration. The protocol is internal/pgprobe's.

// defaultProbeTimeout bounds one probe: a server that accepts the TCP
// connection and then says nothing must not hold a wait.
const defaultProbeTimeout = 5 * time.Second

// probeConfig is how WaitForConnectable probes endpoints.
type probeConfig struct {
	tls     *tls.Config // nil: system roots
	pooler  bool        // probe the connection pooler too
	timeout time.Duration
}

// answers probes a resource's endpoint, and its pooler's with
// WithPoolerCheck, and returns nil when each one answers. A missing
// endpoint is an ErrNoEndpoint error before anything is probed.
func (c probeConfig) answers(ctx context.Context, resource string, direct *Endpoint, pooler *ConnectionPooler) error {
	targets := []*Endpoint{direct}
	if c.pooler {
		targets = append(targets, nil)
		if pooler != nil {
			targets[1] = pooler.Endpoint
		}
	}
	for i, ep := range targets {
		if ep == nil || ep.Host == "" || ep.Port <= 0 || ep.Port > 65535 {
			what := "endpoint"
			if i == 1 {
				what = "connection pooler endpoint"
			}
			return fmt.Errorf("%w: the %s has no %s", ErrNoEndpoint, resource, what)
		}
	}
	for _, ep := range targets {
		if err := c.probe(ctx, *ep); err != nil {
			return err
		}
	}
	return nil
}

// probe reports whether a PostgreSQL server answers at ep (see
// pgprobe.Probe).
func (c probeConfig) probe(ctx context.Context, ep Endpoint) error {
	return pgprobe.Probe(ctx, ep.Host, ep.Port, c.tls, c.timeout)
}
