package dbcloud

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
)

// Defaults of the waits (DefaultPollMin and DefaultPollMax, the client's
// delays between polls, are with the client's options).
//
// DefaultWaitTimeout bounds a wait whose context has no deadline and that
// has no WithWaitTimeout: a wait forgotten in CI fails within the hour
// instead of holding a runner until its own limit. An hour is well above
// the slowest operation a wait follows in normal service (a create, a
// resize or a fork of a large service takes minutes to tens of minutes),
// so it only ends waits that something else has broken. A deadline on the
// context, longer or shorter, replaces it.
//
// DefaultCreatedGrace is how long after the start of a wait given
// WithJustCreated or WithCreated a missing resource (404) is taken as
// read-after-create lag and polled through.
const (
	DefaultWaitTimeout  = time.Hour
	DefaultCreatedGrace = 30 * time.Second
)

// ErrStopStatus is the cause of a wait that ended because the resource
// reached a status named by WithStopStatuses; the WaitError's LastStatus is
// that status. It matches ErrUnexpectedStatus too.
var ErrStopStatus = fmt.Errorf("%w: a stop status was reached", ErrUnexpectedStatus)

// WaitOption configures WaitForReady, WaitForStatus, WaitForDeleted,
// WaitForActive, WaitForConnectable and the replica set WaitForDeleted.
type WaitOption func(*waitConfig)

type waitConfig struct {
	first, longest time.Duration // WithPollInterval
	timeout        time.Duration
	progress       []func(status string)
	events         []func(WaitProgress) // WithWaitProgress
	stop           []string
	serviceConds   []func(*Service) (bool, error)
	setConds       []func(*ReadReplicaSet) (bool, error)
	createdGrace   time.Duration
	created        *Service      // WithCreated
	private        bool          // WithoutSharedPolling
	jitter         time.Duration // bound of the first poll's random delay: setTimes
	end            time.Time     // when the wait ends: setTimes
	probe          probeConfig   // WaitForConnectable only
}

// newWaitConfig applies opts to the client's defaults and checks them
// before anything is sent.
func (api *caller) newWaitConfig(opts []WaitOption) (waitConfig, error) {
	cfg := waitConfig{first: api.pollFirst, longest: api.pollLongest, probe: probeConfig{timeout: defaultProbeTimeout}}
	for _, opt := range opts {
		opt(&cfg)
	}
	return cfg, checkPollInterval("WithPollInterval", cfg.first, cfg.longest)
}

// WithPollInterval sets this wait's delays between polls, in place of the
// client's (WithDefaultPollInterval); see "Polling" in the package
// documentation for how they grow.
func WithPollInterval(first, longest time.Duration) WaitOption {
	return func(c *waitConfig) { c.first, c.longest = first, longest }
}

// WithWaitTimeout bounds the wait, besides any deadline on the context. A wait
// that times out returns a *WaitError for which
// errors.Is(err, context.DeadlineExceeded) is true.
func WithWaitTimeout(d time.Duration) WaitOption {
	return func(c *waitConfig) { c.timeout = d }
}

// WithProgress calls fn with the status seen on each poll, for progress
// output in deploy scripts. fn runs on the waiting goroutine. The status is
// the resource's, as the API sent it: ServiceStatus(status) or
// ReplicaSetStatus(status) gives the typed value. A string serves the waits
// of both kinds of resource with one option. Each WithProgress adds a
// callback: all of them are called, in the order of the options. A nil fn
// is ignored.
func WithProgress(fn func(status string)) WaitOption {
	return func(c *waitConfig) {
		if fn != nil {
			c.progress = append(c.progress, fn)
		}
	}
}

// WithStopStatuses names statuses that end the wait at once with a
// *WaitError whose Err matches ErrStopStatus (and ErrUnexpectedStatus) and
// whose LastStatus is the status seen: UNSTABLE for a service, say, that
// would otherwise be polled until the timeout. The wanted status is never a
// stop. It takes ServiceStatus or ReplicaSetStatus values (or strings);
// options add up. For statuses of both kinds in one option, use WithStopOn.
//
//	svc, err := c.Services.WaitForReady(ctx, p, id, dbcloud.WithStopStatuses(dbcloud.StatusUnstable))
func WithStopStatuses[S ~string](statuses ...S) WaitOption {
	return func(c *waitConfig) {
		for _, s := range statuses {
			c.stop = append(c.stop, string(s))
		}
	}
}

// WithServiceCondition adds a condition a service wait needs besides the
// status, for what the status alone cannot say (HA replicas in place, a
// pooler endpoint present). It is called, on the waiting goroutine, with
// each service read that has the wanted status: true ends the wait, false
// polls on, an error ends the wait at once with a *WaitError whose Err is
// that error. All conditions must hold. Replica set waits ignore it.
func WithServiceCondition(fn func(*Service) (bool, error)) WaitOption {
	return func(c *waitConfig) { c.serviceConds = append(c.serviceConds, fn) }
}

// WithReplicaSetCondition is WithServiceCondition for the replica set waits;
// service waits ignore it.
func WithReplicaSetCondition(fn func(*ReadReplicaSet) (bool, error)) WaitOption {
	return func(c *waitConfig) { c.setConds = append(c.setConds, fn) }
}

// WithJustCreated tells the wait that its resource was just created: for
// DefaultCreatedGrace after the wait starts, a 404 (or a list without the
// resource) is taken as the API not showing it yet and polled through,
// instead of ending the wait with ErrNotFound. Without it a 404 ends the
// wait at once, as a resource deleted by someone else should. The delete
// waits ignore it: for them a 404 is success.
func WithJustCreated() WaitOption {
	return func(c *waitConfig) { c.createdGrace = DefaultCreatedGrace }
}

// WithCreated starts a service wait from the service Create or Fork
// returned: WithJustCreated, and the service the wait returns keeps
// svc.InitialPassword. Reads never carry the password (only the create's
// response does), so without it
//
//	svc, err = c.Services.WaitForConnectable(ctx, p, svc.ServiceID)
//
// would drop the only copy. svc's ServiceID must be the one waited for.
// Replica set waits ignore it.
//
//	svc, err := c.Services.Create(ctx, p, req)
//	...
//	svc, err = c.Services.WaitForConnectable(ctx, p, svc.ServiceID, dbcloud.WithCreated(svc))
func WithCreated(svc *Service) WaitOption {
	return func(c *waitConfig) {
		c.created = svc
		c.createdGrace = DefaultCreatedGrace
	}
}

// WithoutSharedPolling makes the wait poll alone, with a GET for a service,
// instead of sharing the reads of its project (see "Polling" in the package
// doc). For keys allowed to read one service but not list the project.
func WithoutSharedPolling() WaitOption {
	return func(c *waitConfig) { c.private = true }
}

// WaitError is a wait that ended without reaching the wanted status.
type WaitError struct {
	Resource string // "service" or "replica set"
	ID       string
	Want     string // the status waited for; "deleted" for the delete waits, "connectable" for WaitForConnectable
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
	return fmt.Sprintf("dbcloud: waiting for %s %s to be %s (last status: %s): %v", e.Resource, e.ID, e.Want, last, e.Err)
}

// Unwrap returns Err, so errors.Is and errors.As see the cause.
func (e *WaitError) Unwrap() error { return e.Err }

// deletedWant is WaitError.Want for the delete waits.
const deletedWant = "deleted"

// WaitForReady polls a service until it is READY and returns it. It stops
// early, with a *WaitError, when the service is gone or being deleted, when
// it reaches a status of WithStopStatuses, or on an error that polling
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
	svc, err := s.waitService(ctx, projectID, serviceID, opts, serviceKind.spec(serviceID, string(want), statusJudge(want)), nil)
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

// waitService runs a service wait on the core: options checked, the
// caller's conditions and the password of WithCreated applied.
func (s *ServicesClient) waitService(ctx context.Context, projectID, serviceID string, opts []WaitOption, sp waitSpec[Service], finish func(*waitConfig) func(context.Context, *Service) error) (*Service, error) {
	if err := checkService(projectID, serviceID); err != nil {
		return nil, err
	}
	cfg, err := s.api.newWaitConfig(opts)
	if err != nil {
		return nil, err
	}
	if cfg.created != nil && cfg.created.ServiceID != serviceID {
		return nil, invalid("WithCreated", "the service is not the one waited for")
	}
	if len(cfg.serviceConds) > 0 {
		sp.cond = func(v *Service) (bool, error) { return allHold(cfg.serviceConds, v) }
	}
	if finish != nil {
		sp.finish = finish(&cfg)
	}
	cfg.setTimes(ctx)
	svc, err := runWait(ctx, s.api, &cfg, s.api.servicePoller(projectID, serviceID, &cfg), sp)
	if svc != nil && cfg.created != nil && svc.InitialPassword == "" {
		svc.InitialPassword = cfg.created.InitialPassword
	}
	return svc, err
}

// allHold reports whether every condition holds for v, stopping at the
// first that does not or fails.
func allHold[T any](conds []func(*T) (bool, error), v *T) (bool, error) {
	for _, cond := range conds {
		if ok, err := cond(v); !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

// WaitForDeleted polls a service until it is gone (404) or DELETED.
func (s *ServicesClient) WaitForDeleted(ctx context.Context, projectID, serviceID string, opts ...WaitOption) error {
	sp := serviceKind.spec(serviceID, deletedWant, func(v *Service) (bool, error) { return v.Status == StatusDeleted, nil })
	sp.goneIsDone = true
	_, err := s.waitService(ctx, projectID, serviceID, opts, sp, nil)
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
	if len(cfg.setConds) > 0 {
		sp.cond = func(v *ReadReplicaSet) (bool, error) { return allHold(cfg.setConds, v) }
	}
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
