package dbcloud

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// The repeatable requests on one resource, and how a retry's 404 or 409 is
// turned into the success it may be (see "Under faults" in the package
// documentation).

// command sends a repeatable request on the resource at names, whose
// answer, if any, carries nothing to return; see caller.command for
// confirmed, and request for tpl.
func (k *kind[T, W]) command(ctx context.Context, api *caller, op, method, tpl string, at ref, body any, confirmed confirmation) error {
	r := k.request(op, method, tpl, at)
	r.body = body
	return api.command(ctx, r, confirmed)
}

// switchPooler sends the switch of the resource's connection pooler on, or off:
// a retry's 409 is confirmed by reading whether it is.
func (k *kind[T, W]) switchPooler(ctx context.Context, api *caller, op, tpl string, at ref, on bool) error {
	return k.command(ctx, api, op, http.MethodPost, tpl, at, nil, k.confirmByRead(api, at, k.poolerIs(on)))
}

// confirmByRead returns a confirmation of a retry's 409: the resource is
// read, and the answer proves an earlier attempt worked when done holds for
// it.
func (k *kind[T, W]) confirmByRead(api *caller, at ref, done func(*T) bool) confirmation {
	return func(ctx context.Context, answer *APIError) (bool, error) {
		if answer.StatusCode != http.StatusConflict {
			return false, nil
		}
		v, err := k.read(ctx, api, at)
		if err != nil {
			return false, err
		}
		return done(v), nil
	}
}

// confirmDeleted is the confirmation of a delete: a retry's 404, or a 409
// while the resource is being deleted or is gone, proves an earlier attempt
// did the work.
func (k *kind[T, W]) confirmDeleted(api *caller, at ref) confirmation {
	return func(ctx context.Context, answer *APIError) (bool, error) {
		if answer.StatusCode == http.StatusNotFound {
			return true, nil
		}
		v, err := k.read(ctx, api, at)
		switch {
		case isNotFound(err):
			return true, nil
		case err != nil:
			return false, err
		}
		return k.deleting(v), nil
	}
}

// action sends a repeatable POST on the resource that answers with it, and
// turns a retry's 409 and a lost 2xx body into the resource as "Under
// faults" in the package documentation says: done tells, from a read of the
// resource, whether the action has taken effect. tpl is as for request.
func (k *kind[T, W]) action(ctx context.Context, api *caller, op, tpl string, at ref, body any, done func(*T) bool) (*T, error) {
	r := k.request(op, http.MethodPost, tpl, at)
	r.body = body
	ctx, c, err := api.begin(ctx, r)
	if err != nil {
		return nil, err
	}
	var w W
	o := api.send(ctx, r, &w)
	v, err := k.actionResult(ctx, api, r, at, &o, &w, done)
	return v, api.end(c, &o, err)
}

// actionResult decides what an action's outcome means.
func (k *kind[T, W]) actionResult(ctx context.Context, api *caller, r request, at ref, o *outcome, w *W, done func(*T) bool) (*T, error) {
	switch {
	case o.err == nil:
		return k.value(w), nil
	case o.answeredByEarlier() && o.lastErr.StatusCode == http.StatusConflict:
		v, err := k.read(ctx, api, at)
		switch {
		case err != nil:
			return nil, uncheckedAnswer(o.err, err)
		case done(v):
			api.reconciled(ctx, r, o)
			return v, nil
		}
	case errors.Is(o.err, ErrInvalidResponse):
		got, getErr := k.read(ctx, api, at)
		if getErr != nil {
			return nil, fmt.Errorf("%w; reading the %s instead failed: %v", o.err, k.kind, getErr)
		}
		return got, nil
	}
	return nil, o.err
}
