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

// How a wait polls (see "Waiting" and "Polling" in the package
// documentation): the one wait loop, what it is told of the wait, its
// timeout, and how the client's pollers read a scope. The schedule and
// the sharing of reads are internal/poll's.

// waitSpec is what one wait adds to the core: the resource waited for,
// and when it is done.
type waitSpec[T any] struct {
	kind kind[T]
	w    *WaitError
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

// newWaitSpec is the spec of a wait for want on the resource id of kind k,
// done when judge says so.
func newWaitSpec[T any](k kind[T], id, want string, judge func(*T) (bool, error)) waitSpec[T] {
	return waitSpec[T]{kind: k, w: &WaitError{Resource: string(k.resource()), ID: id, Want: want}, judge: judge}
}

// wait runs a wait on the resource id, which at names (the ids of its
// path: inService, inReplicaSet, inPeering), with cfg and the caller's
// conditions of its kind: it joins the client's poller of scope, which
// reads with reads, and runs the wait loop.
func wait[T any](ctx context.Context, api *caller, cfg *waitConfig, ids int, at ref, id string, scope any, reads poll.Reader[T], sp waitSpec[T]) (*T, error) {
	if err := at.check(ids); err != nil {
		return nil, err
	}
	if err := cfg.pickCreated(sp.kind.resource(), id); err != nil {
		return nil, err
	}
	sp.cond = conditionOf[T](cfg)
	cfg.setTimes(ctx)
	return runWait(ctx, api, cfg, scope, reads, id, sp)
}

// runWait is the one wait loop: it takes each read p hands it, reports its
// status, and ends on success, a stop status, a failed condition, a
// terminal error, or the context, which it ends at cfg.end (setTimes). It
// returns the last resource read with the error, for callers that return it.
func runWait[T any](ctx context.Context, api *caller, cfg *waitConfig, scope any, reads poll.Reader[T], id string, sp waitSpec[T]) (*T, error) {
	if dl, ok := ctx.Deadline(); !ok || cfg.end.Before(dl) {
		// The wait's own end: a context ending at the same instant would
		// race with ctx, and the caller could not tell its deadline.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, cfg.end)
		defer cancel()
	}
	p, w := poll.Join(&api.pollers, scope, reads, ctx, id, poll.Schedule{First: cfg.first, Longest: cfg.longest, Jitter: cfg.jitter, End: cfg.end})
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
			status := sp.kind.status(o.Res)
			// The server's texts: clipped, no credentials.
			secrets := api.pipe.Secrets()
			sp.w.LastStatus = serverText(status.waitStatus(), secrets, "")
			sp.w.Name = serverText(sp.kind.name(o.Res), secrets, "")
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

// setTimes sets when the wait ends, the one place that decides it:
// WithWaitTimeout's timeout, or ctx's deadline when it comes first; with
// neither that option nor a deadline, DefaultWaitTimeout. runWait ends the
// wait's context then. It sets too the bound of the random delay of its
// first poll: below a quarter of its first interval, 250 ms and a tenth of the
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

// ctxError is why a wait ended with its context, with the last poll
// failure, if the newest polls failed.
func ctxError(ctx context.Context, lastFailure error) error {
	if lastFailure == nil {
		return ctx.Err()
	}
	return fmt.Errorf("%w (last poll: %w)", ctx.Err(), lastFailure)
}

// The scopes of a client's pollers: a project's services, a service's
// replica sets.
type (
	serviceScope    struct{ projectID string }
	replicaSetScope struct{ projectID, serviceID string }
)

// scopeReads is how the waits on one scope read it: the resources of kind
// that the parent at lists. It reads a wait alone with the list too.
type scopeReads[T any] struct {
	api  *caller
	kind kind[T]
	at   ref
}

// All lists the scope; the waits whose contexts are serves share the read.
func (s scopeReads[T]) All(ctx context.Context, serves []context.Context) ([]T, error) {
	return s.kind.list(ctx, s.api, s.at, serves)
}

// ID names a resource of the list.
func (s scopeReads[T]) ID(v *T) string { return s.kind.id(v) }

// Missing is the error of a resource the list lacks.
func (s scopeReads[T]) Missing(id string) error { return notListed(s.kind.resource(), id, s.at) }

// HoldFor is how long a failed read holds every wait of the poller.
func (scopeReads[T]) HoldFor(err error) time.Duration { return retryAfter(err) }

// serviceReads is how the waits on a project's services read them: a wait
// alone reads its service with a GET.
type serviceReads struct{ scopeReads[Service] }

// One reads the service id.
func (s serviceReads) One(ctx context.Context, id string) (*Service, error) {
	return services{}.read(ctx, s.api, ref{projectID: s.at.projectID, serviceID: id})
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
