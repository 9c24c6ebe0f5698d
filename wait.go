package dbcloud

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
)

// DefaultWaitTimeout bounds a wait whose context has no deadline and that
// has no WithWaitTimeout: a wait forgotten in CI fails within the hour
// instead of holding a runner until its own limit. An hour is well above
// the slowest operation a wait follows in normal service (a create, a
// resize or a fork of a large service takes minutes to tens of minutes),
// so it only ends waits that something else has broken. A deadline on the
// context, longer or shorter, replaces it.
const DefaultWaitTimeout = time.Hour

// ErrStopStatus is the cause of a wait that ended because the resource
// reached a status named by WithStopOn; the WaitError's LastStatus is that
// status. It matches ErrUnexpectedStatus too.
var ErrStopStatus = fmt.Errorf("%w: a stop status was reached", ErrUnexpectedStatus)

// WaitError is a wait that ended without reaching the wanted status.
type WaitError struct {
	Resource string // the kind of resource: "service" or "replica set" (KindService, KindReplicaSet)
	ID       string
	// Name is the resource's name, as the last read showed it; "" when no
	// read showed the resource.
	Name string
	Want string // the status waited for; "deleted" for the delete waits, "connectable" for WaitForConnectable
	// LastStatus is the last status seen, "" if none: a ServiceStatus or a
	// ReplicaSetStatus, as Resource says, held as the string the API sent.
	LastStatus string
	// Err says why the wait stopped: the context's error (a timeout is
	// context.DeadlineExceeded), ErrNotFound, ErrUnexpectedStatus,
	// ErrNoEndpoint, or the *APIError that cannot be waited out.
	Err error
}

// Error describes what was waited for, what was last seen and why it stopped.
func (e *WaitError) Error() string {
	// The status is the server's text: clipped, and quoted when it holds
	// control characters, so that an error or a log line stays one line of
	// bounded length.
	last := clip(e.LastStatus, maxFieldRunes)
	switch {
	case last == "":
		last = "none seen"
	case strings.ContainsFunc(last, pipeline.IsControl):
		last = strconv.Quote(last)
	}
	name := ""
	if e.Name != "" {
		name = strconv.Quote(clip(e.Name, maxFieldRunes)) + " "
	}
	return fmt.Sprintf("dbcloud: waiting for %s %s(%s) to be %s (last status: %s): %v", e.Resource, name, e.ID, e.Want, last, e.Err)
}

// Unwrap returns Err, so errors.Is and errors.As see the cause.
func (e *WaitError) Unwrap() error { return e.Err }

// deletedWant is WaitError.Want for the delete waits.
const deletedWant = "deleted"

// WaitForReady polls a service until it is READY and returns it. It stops
// early, with a *WaitError, when the service is gone or being deleted, when
// it reaches a status of WithStopOn, or on an error that polling
// cannot outlast (a 4xx other than 429); network errors, 5xx and 429 are
// polled through until the context or the wait's timeout (WithWaitTimeout,
// else DefaultWaitTimeout when the context has no deadline) ends.
// Concurrent waits on one project share their reads; see "Polling" in the
// package doc.
//
// READY means the control plane is done; the database may refuse a
// connection for a moment after it. To connect next, use WaitForConnectable.
// The service returned is a fresh read, without InitialPassword, unless the
// wait is given WithCreated.
func (s *ServicesClient) WaitForReady(ctx context.Context, projectID, serviceID string, opts ...WaitOption) (*Service, error) {
	return s.WaitForStatus(ctx, projectID, serviceID, StatusReady, opts...)
}

// WaitForStatus polls a service until its status is want and returns it, with
// the rules of WaitForReady. Seeing DELETING or DELETED while waiting for
// another status ends the wait with ErrUnexpectedStatus.
func (s *ServicesClient) WaitForStatus(ctx context.Context, projectID, serviceID string, want ServiceStatus, opts ...WaitOption) (*Service, error) {
	if want == "" {
		return nil, invalid("want", "required")
	}
	cfg, err := s.api.newWaitConfig(opts)
	if err != nil {
		return nil, err
	}
	svc, err := s.waitService(ctx, projectID, serviceID, cfg, serviceKind.spec(serviceID, string(want), statusJudge(want)), nil)
	if err != nil {
		return nil, err
	}
	return svc, nil
}

// statusJudge is the built-in rule of a wait for want: done at want,
// ErrUnexpectedStatus when the service is being deleted instead.
func statusJudge(want ServiceStatus) func(*Service) (bool, error) {
	return func(got *Service) (bool, error) {
		switch {
		case got.Status == want:
			return true, nil
		case got.Status == StatusDeleting || got.Status == StatusDeleted:
			return false, ErrUnexpectedStatus
		}
		return false, nil
	}
}

// waitService runs a service wait on the core, with the caller's
// conditions and the password of WithCreated applied.
func (s *ServicesClient) waitService(ctx context.Context, projectID, serviceID string, cfg waitConfig, sp waitSpec[Service], finish func(*waitConfig) func(context.Context, *Service) error) (*Service, error) {
	if err := checkService(projectID, serviceID); err != nil {
		return nil, err
	}
	if err := cfg.pickCreated(KindService, serviceID); err != nil {
		return nil, err
	}
	sp.cond = conditionOf[Service](&cfg)
	if finish != nil {
		sp.finish = finish(&cfg)
	}
	cfg.setTimes(ctx)
	svc, err := runWait(ctx, s.api, &cfg, s.api.servicePoller(projectID, serviceID, &cfg), sp)
	if svc != nil && svc.InitialPassword == "" {
		svc.InitialPassword = cfg.created.password
	}
	return svc, err
}

// WaitForDeleted polls a service until it is gone (404) or DELETED.
func (s *ServicesClient) WaitForDeleted(ctx context.Context, projectID, serviceID string, opts ...WaitOption) error {
	sp := serviceKind.spec(serviceID, deletedWant, func(v *Service) (bool, error) { return v.Status == StatusDeleted, nil })
	sp.goneIsDone = true
	cfg, err := s.api.newWaitConfig(opts)
	if err != nil {
		return err
	}
	_, err = s.waitService(ctx, projectID, serviceID, cfg, sp, nil)
	return err
}

// WaitForActive polls a read replica set until it is active and returns it.
// There is no GET for one set: each poll lists the service's sets, one list
// for every wait on the sets of that service. A set missing from the list
// ends the wait with ErrNotFound; a set in "error" or "deleting" with
// ErrUnexpectedStatus. Other errors are handled as in
// ServicesClient.WaitForReady.
func (r *ReplicaSetsClient) WaitForActive(ctx context.Context, projectID, serviceID, replicaSetID string, opts ...WaitOption) (*ReadReplicaSet, error) {
	set, err := r.waitSet(ctx, projectID, serviceID, replicaSetID, opts, replicaSetKind.spec(replicaSetID, string(ReplicaSetActive), activeJudge), nil)
	if err != nil {
		return nil, err
	}
	return set, nil
}

// activeJudge is the built-in rule of a wait for an active set.
func activeJudge(got *ReadReplicaSet) (bool, error) {
	switch got.Status {
	case ReplicaSetActive:
		return true, nil
	case ReplicaSetError, ReplicaSetDeleting:
		return false, ErrUnexpectedStatus
	}
	return false, nil
}

// waitSet runs a replica set wait on the core.
func (r *ReplicaSetsClient) waitSet(ctx context.Context, projectID, serviceID, replicaSetID string, opts []WaitOption, sp waitSpec[ReadReplicaSet], finish func(*waitConfig) func(context.Context, *ReadReplicaSet) error) (*ReadReplicaSet, error) {
	if err := checkReplicaSet(projectID, serviceID, replicaSetID); err != nil {
		return nil, err
	}
	cfg, err := r.api.newWaitConfig(opts)
	if err != nil {
		return nil, err
	}
	if err := cfg.pickCreated(KindReplicaSet, replicaSetID); err != nil {
		return nil, err
	}
	sp.cond = conditionOf[ReadReplicaSet](&cfg)
	if finish != nil {
		sp.finish = finish(&cfg)
	}
	cfg.setTimes(ctx)
	return runWait(ctx, r.api, &cfg, r.api.replicaSetPoller(projectID, serviceID, replicaSetID, &cfg), sp)
}

// WaitForDeleted polls a read replica set until it is missing from its
// service's list (or the service itself is gone). A set in "error" ends the
// wait with ErrUnexpectedStatus.
func (r *ReplicaSetsClient) WaitForDeleted(ctx context.Context, projectID, serviceID, replicaSetID string, opts ...WaitOption) error {
	sp := replicaSetKind.spec(replicaSetID, deletedWant, func(v *ReadReplicaSet) (bool, error) {
		if v.Status == ReplicaSetError {
			return false, ErrUnexpectedStatus
		}
		return false, nil
	})
	sp.goneIsDone = true
	_, err := r.waitSet(ctx, projectID, serviceID, replicaSetID, opts, sp, nil)
	return err
}
