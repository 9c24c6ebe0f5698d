package dbcloud

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/poll"
)

// waitSpec is what one kind of wait adds to the core: how to read a
// resource's status and when it is done.
type waitSpec[T any] struct {
	w      *WaitError
	status func(*T) WaitStatus
	name   func(*T) string // for WaitError.Name and WithProgress
	// judge applies the built-in rules to a resource read: done, or an
	// error that ends the wait (ErrUnexpectedStatus).
	judge func(*T) (bool, error)
	// goneIsDone: a missing resource is success (the delete waits).
	goneIsDone bool
	// cond is the caller's conditions of this kind of resource, checked
	// once judge says done; nil when there are none.
	cond func(*T) (bool, error)
	// finish runs once the resource is done and its conditions hold (the
	// probes of WaitForConnectable); an error other than a terminal one means
	// not yet.
	finish func(context.Context, *T) error
}

// spec is the spec of a wait for want on the resource id of kind k, done
// when judge says so.
func (k *kind[T, W]) spec(id, want string, judge func(*T) (bool, error)) waitSpec[T] {
	return waitSpec[T]{
		w:      &WaitError{Resource: string(k.kind), ID: id, Want: want},
		status: k.status,
		name:   k.name,
		judge:  judge,
	}
}

// runWait is the one wait loop: it takes each read p hands it, reports its
// status, and ends on success, a stop status, a failed condition, a
// terminal error, or the context (bounded by the wait's timeout). It
// returns the last resource read with the error, for callers that return it.
func runWait[T any](ctx context.Context, api *caller, cfg *waitConfig, join func(context.Context) (*poll.Poller[T], *poll.Waiter[T]), sp waitSpec[T]) (*T, error) {
	ctx, cancel := cfg.bound(ctx)
	defer cancel()
	p, w := join(ctx)
	defer p.Leave(w)
	start := time.Now()
	var (
		last *T
		// lastFailure is the newest poll failure of its own (not the
		// context ending), so that a wait cut short says what failed.
		lastFailure error
		probing     bool
	)
	fail := func(err error) (*T, error) {
		sp.w.Err = err
		return last, sp.w
	}
	for {
		var o poll.Observation[T]
		select {
		case <-ctx.Done():
			return fail(ctxError(ctx, lastFailure))
		case o = <-w.C:
		}
		err, restart := o.Err, false
		if o.Res != nil {
			last = o.Res
			var done bool
			var condErr error // a failed condition of the caller ends the wait
			if done, err = sp.judge(o.Res); done && sp.cond != nil {
				done, condErr = sp.cond(o.Res)
			}
			if done && sp.finish != nil {
				if err = sp.finish(ctx, o.Res); err != nil && !probing {
					// The database usually answers a moment after the status:
					// the delays start over.
					probing, restart = true, true
				}
				done = err == nil
			}
			// Progress comes after the poll's probe, if any: a callback that
			// moves a test server's clock moves it between polls.
			status := sp.status(o.Res)
			// The server's texts: clipped, no credentials.
			sp.w.LastStatus = api.serverText(status.waitStatus(), nil)
			sp.w.Name = api.serverText(sp.name(o.Res), nil)
			cfg.report(sp.w, status)
			switch {
			case done:
				return last, nil
			case condErr != nil:
				return fail(condErr)
			case err == nil && slices.Contains(cfg.stop, status.waitStatus()):
				return fail(fmt.Errorf("%w: %s", ErrStopStatus, status))
			}
		}
		switch {
		case err != nil && sp.goneIsDone && isNotFound(err):
			return nil, nil
		case ctx.Err() != nil:
			return fail(ctxError(ctx, lastFailure))
		case err != nil && isNotFound(err) && time.Since(start) < cfg.grace():
			// read-after-create lag: the resource is not visible yet
		case err != nil && isTerminal(err):
			return fail(err)
		}
		// A read cut short by the wait's own end (its deadline, which the
		// poller gives the read) is not a failure of its own: the wait's
		// context ends at that instant too, with the failure before it.
		if !errors.Is(err, context.DeadlineExceeded) || time.Now().Before(cfg.end) {
			lastFailure = err
		}
		p.Next(w, restart)
	}
}

// firstJitterMax bounds the jitter of a wait's first poll.
const firstJitterMax = 250 * time.Millisecond

// setTimes sets when the wait ends (its timeout, or what is left of ctx,
// as bound applies them) and the bound of the random delay of its first
// poll: below a quarter of its first interval, 250 ms and a tenth of the
// time the wait has, so that waits started together do not read together,
// while the first check stays prompt and a short wait still gets its
// first read.
func (c *waitConfig) setTimes(ctx context.Context) {
	now := time.Now()
	d := c.timeout
	if d <= 0 {
		d = DefaultWaitTimeout
	}
	c.end = now.Add(d)
	if dl, ok := ctx.Deadline(); ok && (c.timeout <= 0 || dl.Before(c.end)) {
		c.end = dl
	}
	c.jitter = max(0, min(c.first/4, firstJitterMax, c.end.Sub(now)/10))
}

// bound applies the wait's timeout to ctx: WithWaitTimeout's, or, when
// neither that option nor ctx sets a deadline, DefaultWaitTimeout.
func (c *waitConfig) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	d := c.timeout
	if d <= 0 {
		if _, ok := ctx.Deadline(); ok {
			return ctx, func() {}
		}
		d = DefaultWaitTimeout
	}
	return context.WithTimeout(ctx, d)
}

// ctxError is why a wait ended with its context, with the last poll
// failure, if the newest polls failed.
func ctxError(ctx context.Context, lastFailure error) error {
	if lastFailure == nil {
		return ctx.Err()
	}
	return fmt.Errorf("%w (last poll: %w)", ctx.Err(), lastFailure)
}

// servicePoller returns how a wait on the service joins the poller of its
// project's service waits, shared by the waits of this client on that
// project. The poller reads with the
// SDK's own reads, never the public methods.
func (api *caller) servicePoller(projectID, serviceID string, cfg *waitConfig) func(context.Context) (*poll.Poller[Service], *poll.Waiter[Service]) {
	at := ref{projectID: projectID}
	mk := func() *poll.Poller[Service] {
		return &poll.Poller[Service]{
			One: func(ctx context.Context, id string) (*Service, error) {
				return readService(ctx, api, ref{projectID: projectID, serviceID: id})
			},
			All: func(ctx context.Context, serves []context.Context) ([]Service, error) {
				return listServices(ctx, api, at, serves)
			},
			ID: serviceKind.id,
			Missing: func(id string) error {
				return fmt.Errorf("%w: service %s is not in the list of project %s", ErrNotFound, id, projectID)
			},
			HoldFor: retryAfter,
		}
	}
	return joiner(api, serviceScope{projectID}, mk, serviceID, cfg)
}

// replicaSetPoller is servicePoller for the waits on the replica sets of a
// service, which are always read with a list.
func (api *caller) replicaSetPoller(projectID, serviceID, replicaSetID string, cfg *waitConfig) func(context.Context) (*poll.Poller[ReadReplicaSet], *poll.Waiter[ReadReplicaSet]) {
	at := ref{projectID: projectID, serviceID: serviceID}
	mk := func() *poll.Poller[ReadReplicaSet] {
		return &poll.Poller[ReadReplicaSet]{
			All: func(ctx context.Context, serves []context.Context) ([]ReadReplicaSet, error) {
				return listReplicaSets(ctx, api, at, serves)
			},
			ID:      replicaSetKind.id,
			Missing: func(id string) error { return missingSet(id, serviceID) },
			HoldFor: retryAfter,
		}
	}
	return joiner(api, replicaSetScope{projectID, serviceID}, mk, replicaSetID, cfg)
}

// The scopes of a client's pollers: a project's services, a service's
// replica sets.
type (
	serviceScope    struct{ projectID string }
	replicaSetScope struct{ projectID, serviceID string }
)

// joiner returns how the wait for id joins the client's poller of key,
// made by mk when there is none.
func joiner[T any](api *caller, key any, mk func() *poll.Poller[T], id string, cfg *waitConfig) func(context.Context) (*poll.Poller[T], *poll.Waiter[T]) {
	s := poll.Schedule{First: cfg.first, Longest: cfg.longest, Jitter: cfg.jitter, End: cfg.end}
	return func(ctx context.Context) (*poll.Poller[T], *poll.Waiter[T]) {
		return poll.Join(&api.pollers, key, mk, ctx, id, s)
	}
}

// retryAfter is how long a failed read holds every wait of its poller: the
// Retry-After of a 429 or 503.
func retryAfter(err error) time.Duration {
	if apiErr, ok := errors.AsType[*APIError](err); ok &&
		(apiErr.StatusCode == http.StatusTooManyRequests || apiErr.StatusCode == http.StatusServiceUnavailable) {
		return apiErr.RetryAfter
	}
	return 0
}
