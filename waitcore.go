package dbcloud

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"time"
)

// waitSpec is what one kind of wait adds to the core: how to read a
// resource's status and when it is done.
type waitSpec[T any] struct {
	w      *WaitError
	status func(*T) string
	name   func(*T) string // for WithWaitProgress
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
		w:      &WaitError{Resource: k.noun, ID: id, Want: want},
		status: k.status,
		name:   k.name,
		judge:  judge,
	}
}

// runWait is the one wait loop: it takes each read p hands it, reports its
// status, and ends on success, a stop status, a failed condition, a
// terminal error, or the context (bounded by the wait's timeout). It
// returns the last resource read with the error, for callers that return it.
func runWait[T any](ctx context.Context, api *caller, cfg *waitConfig, p *poller[T], w *waiter[T], sp waitSpec[T]) (*T, error) {
	defer p.leave(w)
	ctx, cancel := cfg.bound(ctx)
	defer cancel()
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
		var o observation[T]
		select {
		case <-ctx.Done():
			return fail(ctxError(ctx, lastFailure))
		case o = <-w.ch:
		}
		err, restart := o.err, false
		if o.res != nil {
			last = o.res
			var done bool
			var condErr error // a failed condition of the caller ends the wait
			if done, err = sp.judge(o.res); done && sp.cond != nil {
				done, condErr = sp.cond(o.res)
			}
			if done && sp.finish != nil {
				if err = sp.finish(ctx, o.res); err != nil && !probing {
					// The database usually answers a moment after the status:
					// the delays start over.
					probing, restart = true, true
				}
				done = err == nil
			}
			// Progress comes after the poll's probe, if any: a callback that
			// moves a test server's clock moves it between polls.
			status := sp.status(o.res)
			sp.w.LastStatus = api.serverText(status, nil) // the server's text: clipped, no credentials
			cfg.report(sp.w, sp.name(o.res), status)
			switch {
			case done:
				return last, nil
			case condErr != nil:
				return fail(condErr)
			case err == nil && slices.Contains(cfg.stop, status):
				return fail(fmt.Errorf("%w: %s", ErrStopStatus, status))
			}
		}
		switch {
		case err != nil && sp.goneIsDone && isNotFound(err):
			return nil, nil
		case ctx.Err() != nil:
			return fail(ctxError(ctx, lastFailure))
		case err != nil && isNotFound(err) && cfg.createdGrace > 0 && time.Since(start) < cfg.createdGrace:
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
		p.next(w, restart)
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

// servicePoller joins the poller of the project's service waits: shared by
// the waits of this client on that project, or private with
// WithoutSharedPolling.
func (s *ServicesClient) servicePoller(projectID, serviceID string, cfg *waitConfig) (*poller[Service], *waiter[Service]) {
	mk := func() *poller[Service] {
		p := newPoller[Service]()
		p.one = func(ctx context.Context, id string) (*Service, error) { return s.Get(ctx, projectID, id) }
		p.all = func(ctx context.Context) ([]Service, error) { return s.List(ctx, projectID) }
		p.idOf = serviceKind.id
		p.notFound = func(id string) error {
			return fmt.Errorf("%w: service %s is not in the list of project %s", ErrNotFound, id, projectID)
		}
		return p
	}
	return joinPoller(pollerKey{client: s, project: projectID}, mk, serviceID, cfg)
}

// replicaSetPoller joins the poller of the service's replica set waits.
func (r *ReplicaSetsClient) replicaSetPoller(projectID, serviceID, replicaSetID string, cfg *waitConfig) (*poller[ReadReplicaSet], *waiter[ReadReplicaSet]) {
	mk := func() *poller[ReadReplicaSet] {
		p := newPoller[ReadReplicaSet]()
		p.all = func(ctx context.Context) ([]ReadReplicaSet, error) { return r.List(ctx, projectID, serviceID) }
		p.idOf = replicaSetKind.id
		p.notFound = func(id string) error { return missingSet(id, serviceID) }
		return p
	}
	return joinPoller(pollerKey{client: r, project: projectID, service: serviceID}, mk, replicaSetID, cfg)
}

// joinPoller adds the wait for id to the poller of key, shared by the waits
// of that scope and made by mk when there is none, or to a private one that
// mk makes when cfg asks for WithoutSharedPolling.
func joinPoller[T any](key pollerKey, mk func() *poller[T], id string, cfg *waitConfig) (*poller[T], *waiter[T]) {
	if cfg.private {
		p := mk()
		return p, p.join(id, cfg.first, cfg.longest, cfg.jitter, cfg.end)
	}
	return join(key, mk, id, cfg.first, cfg.longest, cfg.jitter, cfg.end)
}
