package dbcloud

import (
	"context"
	"crypto/tls"
	"errors"
)

// connectableWant is WaitError.Want for WaitForConnectable.
const connectableWant = "connectable"

// WithTLSConfig sets the TLS configuration of WaitForConnectable's probes,
// used when the server offers TLS. Without it, or with nil, the server's
// certificate is verified against the system's roots; a config without
// ServerName gets the endpoint's host. c is not modified. To trust a
// private CA, set RootCAs.
func WithTLSConfig(c *tls.Config) WaitOption {
	return func(w *waitConfig) { w.probe.tls = c }
}

// WithPoolerCheck makes WaitForConnectable probe the connection pooler's
// endpoint as well as the database's. A resource without a pooler then ends
// the wait with ErrNoEndpoint.
func WithPoolerCheck() WaitOption {
	return func(w *waitConfig) { w.probe.pooler = true }
}

// WaitForConnectable waits until the service is READY and its database
// answers (see Waiting in the package documentation), and returns it. Once
// READY, each poll (delays starting over) also probes the endpoint with a
// PostgreSQL startup (TLS if offered, see WithTLSConfig; no password). Any
// answer but SQLSTATE 57P03 means it answers; 57P03, a refused or reset
// connection, a DNS or TLS failure, or 5 s of silence mean not yet. A
// timeout's *WaitError (Want "connectable") names the last probe failure;
// a READY service without an endpoint comes with ErrNoEndpoint.
func (s *ServicesClient) WaitForConnectable(ctx context.Context, projectID, serviceID string, opts ...WaitOption) (*Service, error) {
	cfg, err := s.api.newWaitConfig(opts)
	if err != nil {
		return nil, err
	}
	sp := newWaitSpec[Service](services{}, serviceID, connectableWant, statusJudge(StatusReady))
	sp.finish = func(ctx context.Context, v *Service) error {
		return cfg.probe.answers(ctx, "service", v.Endpoint, v.ConnectionPooler)
	}
	svc, err := s.waitService(ctx, projectID, serviceID, cfg, sp)
	return connectableResult(svc, err)
}

// WaitForConnectable waits until the read replica set is active and its
// endpoint answers, and returns it: WaitForActive, then the probes of
// ServicesClient.WaitForConnectable, with the same options and errors.
func (r *ReplicaSetsClient) WaitForConnectable(ctx context.Context, projectID, serviceID, replicaSetID string, opts ...WaitOption) (*ReadReplicaSet, error) {
	cfg, err := r.api.newWaitConfig(opts)
	if err != nil {
		return nil, err
	}
	sp := newWaitSpec[ReadReplicaSet](replicaSets{}, replicaSetID, connectableWant, activeJudge)
	sp.finish = func(ctx context.Context, v *ReadReplicaSet) error {
		return cfg.probe.answers(ctx, "replica set", v.Endpoint, v.ConnectionPooler)
	}
	set, err := r.waitSet(ctx, projectID, serviceID, replicaSetID, cfg, sp)
	return connectableResult(set, err)
}

// connectableResult returns the resource on success and with ErrNoEndpoint,
// where the caller may want to see what it has; with other errors, nil.
func connectableResult[T any](resource *T, err error) (*T, error) {
	if err != nil && !errors.Is(err, ErrNoEndpoint) {
		return nil, err
	}
	return resource, err
}
