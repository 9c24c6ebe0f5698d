package dbcloud

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"
)

// Defaults of the wait helpers' polling: the first check is immediate, the
// delays then grow from DefaultPollMin to DefaultPollMax.
const (
	DefaultPollMin = time.Second
	DefaultPollMax = 10 * time.Second
)

// WaitOption configures WaitForReady, WaitForStatus, WaitForDeleted,
// WaitForActive, WaitForConnectable and the replica set WaitForDeleted.
type WaitOption func(*waitConfig)

type waitConfig struct {
	first, longest time.Duration // WithPollInterval
	timeout        time.Duration
	progress       func(status string)
	probe          probeConfig // WaitForConnectable only
}

// newWaitConfig applies opts to the defaults.
func newWaitConfig(opts []WaitOption) waitConfig {
	cfg := waitConfig{first: DefaultPollMin, longest: DefaultPollMax, probe: probeConfig{timeout: defaultProbeTimeout}}
	for _, opt := range opts {
		opt(&cfg)
	}
	return cfg
}

// WithPollInterval sets the delays between polls: the first is first, each
// next one grows by a random factor between 1.5 and 2, up to longest.
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
// of both kinds of resource with one option.
func WithProgress(fn func(status string)) WaitOption {
	return func(c *waitConfig) { c.progress = fn }
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
	last := e.LastStatus
	if last == "" {
		last = "none seen"
	}
	return fmt.Sprintf("dbcloud: waiting for %s %s to be %s (last status: %s): %v", e.Resource, e.ID, e.Want, last, e.Err)
}

// Unwrap returns Err, so errors.Is and errors.As see the cause.
func (e *WaitError) Unwrap() error { return e.Err }

// deletedWant is WaitError.Want for the delete waits.
const deletedWant = "deleted"

// WaitForReady polls a service until it is READY and returns it. It stops
// early, with a *WaitError, when the service is gone or being deleted, or on
// an error that polling cannot outlast (a 4xx other than 429); network
// errors, 5xx and 429 are polled through until the context or
// WithWaitTimeout ends.
//
// READY means the control plane is done; the database may refuse a
// connection for a moment after it. To connect next, use WaitForConnectable.
func (s *ServicesClient) WaitForReady(ctx context.Context, projectID, serviceID string, opts ...WaitOption) (*Service, error) {
	return s.WaitForStatus(ctx, projectID, serviceID, StatusReady, opts...)
}

// WaitForStatus polls a service until its status is want and returns it, with
// the rules of WaitForReady. Seeing DELETING or DELETED while waiting for
// another status ends the wait with ErrUnexpectedStatus.
func (s *ServicesClient) WaitForStatus(ctx context.Context, projectID, serviceID string, want ServiceStatus, opts ...WaitOption) (*Service, error) {
	if err := checkService(projectID, serviceID); err != nil {
		return nil, err
	}
	if want == "" {
		return nil, invalid("want", "required")
	}
	var svc *Service
	err := poll(ctx, &WaitError{Resource: "service", ID: serviceID, Want: string(want)}, opts,
		func(ctx context.Context) (string, bool, error) {
			got, done, err := s.checkStatus(ctx, projectID, serviceID, want)
			if got == nil {
				return "", false, err
			}
			svc = got
			return string(got.Status), done, err
		})
	if err != nil {
		return nil, err
	}
	return svc, nil
}

// checkStatus is one poll of a wait for want: the service as read (nil when
// the read failed), whether it has that status, and ErrUnexpectedStatus when
// it is being deleted instead.
func (s *ServicesClient) checkStatus(ctx context.Context, projectID, serviceID string, want ServiceStatus) (*Service, bool, error) {
	got, err := s.Get(ctx, projectID, serviceID)
	if err != nil {
		return nil, false, err
	}
	switch {
	case got.Status == want:
		return got, true, nil
	case got.Status == StatusDeleting || got.Status == StatusDeleted:
		return got, false, ErrUnexpectedStatus
	}
	return got, false, nil
}

// WaitForDeleted polls a service until it is gone (404) or DELETED.
func (s *ServicesClient) WaitForDeleted(ctx context.Context, projectID, serviceID string, opts ...WaitOption) error {
	if err := checkService(projectID, serviceID); err != nil {
		return err
	}
	return poll(ctx, &WaitError{Resource: "service", ID: serviceID, Want: deletedWant}, opts,
		func(ctx context.Context) (string, bool, error) {
			got, err := s.Get(ctx, projectID, serviceID)
			if isNotFound(err) {
				return "", true, nil
			}
			if err != nil {
				return "", false, err
			}
			return string(got.Status), got.Status == StatusDeleted, nil
		})
}

// WaitForActive polls a read replica set until it is active and returns it.
// There is no GET for one set: each poll lists the service's sets. A set
// missing from the list ends the wait with ErrNotFound; a set in "error" or
// "deleting" with ErrUnexpectedStatus. Other errors are handled as in
// ServicesClient.WaitForReady.
func (r *ReplicaSetsClient) WaitForActive(ctx context.Context, projectID, serviceID, replicaSetID string, opts ...WaitOption) (*ReadReplicaSet, error) {
	if err := checkReplicaSet(projectID, serviceID, replicaSetID); err != nil {
		return nil, err
	}
	var set *ReadReplicaSet
	err := poll(ctx, &WaitError{Resource: "replica set", ID: replicaSetID, Want: string(ReplicaSetActive)}, opts,
		func(ctx context.Context) (string, bool, error) {
			got, done, err := r.checkActive(ctx, projectID, serviceID, replicaSetID)
			if got == nil {
				return "", false, err
			}
			set = got
			return string(got.Status), done, err
		})
	if err != nil {
		return nil, err
	}
	return set, nil
}

// checkActive is one poll of a wait for an active set: the set as listed
// (nil when the list failed or lacks it), whether it is active, and
// ErrUnexpectedStatus when it is in error or being deleted.
func (r *ReplicaSetsClient) checkActive(ctx context.Context, projectID, serviceID, replicaSetID string) (*ReadReplicaSet, bool, error) {
	got, err := r.find(ctx, projectID, serviceID, replicaSetID)
	if err != nil {
		return nil, false, err
	}
	switch got.Status {
	case ReplicaSetActive:
		return got, true, nil
	case ReplicaSetError, ReplicaSetDeleting:
		return got, false, ErrUnexpectedStatus
	}
	return got, false, nil
}

// WaitForDeleted polls a read replica set until it is missing from its
// service's list (or the service itself is gone). A set in "error" ends the
// wait with ErrUnexpectedStatus.
func (r *ReplicaSetsClient) WaitForDeleted(ctx context.Context, projectID, serviceID, replicaSetID string, opts ...WaitOption) error {
	if err := checkReplicaSet(projectID, serviceID, replicaSetID); err != nil {
		return err
	}
	return poll(ctx, &WaitError{Resource: "replica set", ID: replicaSetID, Want: deletedWant}, opts,
		func(ctx context.Context) (string, bool, error) {
			got, err := r.find(ctx, projectID, serviceID, replicaSetID)
			if isNotFound(err) {
				return "", true, nil
			}
			if err != nil {
				return "", false, err
			}
			if got.Status == ReplicaSetError {
				return string(got.Status), false, ErrUnexpectedStatus
			}
			return string(got.Status), false, nil
		})
}

// find lists a service's sets and returns the one with id, or an error
// matching ErrNotFound when it is not there.
func (r *ReplicaSetsClient) find(ctx context.Context, projectID, serviceID, id string) (*ReadReplicaSet, error) {
	sets, err := r.List(ctx, projectID, serviceID)
	if err != nil {
		return nil, err
	}
	for i := range sets {
		if sets[i].ID == id {
			return &sets[i], nil
		}
	}
	return nil, fmt.Errorf("%w: replica set %s is not in the list of service %s", ErrNotFound, id, serviceID)
}

func isNotFound(err error) bool { return errors.Is(err, ErrNotFound) }

// isTerminal reports an error that more polling cannot outlast.
func isTerminal(err error) bool {
	if errors.Is(err, ErrUnexpectedStatus) || errors.Is(err, ErrNotFound) || errors.Is(err, ErrNoEndpoint) {
		return true
	}
	apiErr, ok := errors.AsType[*APIError](err)
	return ok && apiErr.StatusCode >= 400 && apiErr.StatusCode < 500 &&
		apiErr.StatusCode != http.StatusTooManyRequests
}

// poll runs check at once and then after each delay until it reports done,
// returns a terminal error, or ctx (bounded by WithWaitTimeout) ends. check
// returns the status it saw, if any.
func poll(ctx context.Context, w *WaitError, opts []WaitOption, check func(context.Context) (string, bool, error)) error {
	cfg := newWaitConfig(opts)
	if cfg.first <= 0 || cfg.longest < cfg.first {
		return invalid("WithPollInterval", "want 0 < first <= longest")
	}
	if cfg.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.timeout)
		defer cancel()
	}
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	// lastFailure is the newest poll failure of its own (not the context
	// ending), so that a wait cut short while polls fail says what failed.
	var lastFailure error
	for delay := cfg.first; ; delay = nextDelay(delay, cfg.longest) {
		status, done, err := check(ctx)
		if status != "" {
			w.LastStatus = status
			if cfg.progress != nil {
				cfg.progress(status)
			}
		}
		switch {
		case done:
			return nil
		case ctx.Err() != nil:
			w.Err = ctxError(ctx, lastFailure)
			return w
		case err != nil && isTerminal(err):
			w.Err = err
			return w
		}
		lastFailure = err
		if timer == nil {
			timer = time.NewTimer(delay)
		} else {
			timer.Reset(delay)
		}
		select {
		case <-ctx.Done():
			w.Err = ctxError(ctx, lastFailure)
			return w
		case <-timer.C:
		}
	}
}

// nextDelay grows a delay by a random factor in [1.5, 2), capped at longest: the
// polls of many waiting scripts spread out instead of arriving together, and
// the delay still reaches max in a bounded number of polls.
func nextDelay(prev, longest time.Duration) time.Duration {
	half := prev / 2
	return min(prev+half+rand.N(half+1), longest)
}

// ctxError is why a wait ended with its context, with the last poll
// failure, if the newest polls failed.
func ctxError(ctx context.Context, lastFailure error) error {
	if lastFailure == nil {
		return ctx.Err()
	}
	return fmt.Errorf("%w (last poll: %w)", ctx.Err(), lastFailure)
}
