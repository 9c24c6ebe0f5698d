package dbcloud

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
)

// The repeatable changes (commands, and the service actions that answer
// with the service), and how a retry's 404 or 409 is turned into the
// success it may be (see "Under faults" in the package documentation).

// confirmation says whether a retry's error answer (a 404 or 409 after an
// earlier attempt may have acted) means that attempt did the work; when it
// cannot tell, checkErr says why (the read it needed failed).
type confirmation func(ctx context.Context, answer *APIError) (ok bool, checkErr error)

// command runs a change whose answer carries nothing to return.
// confirmed, if not nil, is asked about a retry's 404 or 409 after an
// earlier attempt may have acted (outcome.answeredByEarlier): true means
// the earlier attempt did the work, and the call succeeds.
func (api *caller) command(ctx context.Context, r *request, confirmed confirmation) error {
	ctx, c, err := api.beginChange(ctx, r)
	if err != nil {
		return err
	}
	o := api.send(ctx, r, nil)
	err = r.failure(&o)
	if confirmed != nil && o.answeredByEarlier() {
		switch ok, checkErr := confirmed(ctx, o.lastErr); {
		case ok:
			api.reconciled(ctx, r, &o)
			err = nil
		case checkErr != nil:
			err = uncheckedAnswer(err, checkErr)
		}
	}
	return api.endCall(c, &o, err)
}

// confirmByRead returns the confirmation of a retry's 409: the resource is
// read, and the answer proves an earlier attempt worked when done holds
// for it.
func confirmByRead[T any](k kind[T], api *caller, at ref, done func(*T) bool) confirmation {
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
func confirmDeleted[T any](k kind[T], api *caller, at ref) confirmation {
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
		return gone(k.status(v)), nil
	}
}

// serviceAction sends a repeatable POST on a service that answers with
// it, and turns a retry's 409 and a lost 2xx body into the service as
// "Under faults" in the package documentation says: done tells, from a
// read of the service, whether the action has taken effect.
func serviceAction(ctx context.Context, api *caller, op, tpl string, at ref, body any, done func(*Service) bool) (*Service, error) {
	r := newRequest(op, http.MethodPost, tpl, at)
	r.body = body
	ctx, c, err := api.beginChange(ctx, &r)
	if err != nil {
		return nil, err
	}
	var w serviceJSON
	o := api.send(ctx, &r, &w)
	v, err := actionResult(ctx, api, &r, at, &o, &w, done)
	return v, api.endCall(c, &o, err)
}

// actionResult decides what an action's outcome means.
func actionResult(ctx context.Context, api *caller, r *request, at ref, o *outcome, w *serviceJSON, done func(*Service) bool) (*Service, error) {
	switch {
	case o.err == nil:
		return (*Service)(&w.serviceFields), nil
	case o.answeredByEarlier() && o.lastErr.StatusCode == http.StatusConflict:
		v, err := services{}.read(ctx, api, at)
		switch {
		case err != nil:
			return nil, uncheckedAnswer(o.err, err)
		case done(v):
			api.reconciled(ctx, r, o)
			return v, nil
		}
	case errors.Is(o.err, ErrInvalidResponse):
		got, getErr := services{}.read(ctx, api, at)
		if getErr != nil {
			return nil, fmt.Errorf("%w; reading the %s instead failed: %v", o.err, KindService, getErr)
		}
		return got, nil
	}
	return nil, o.err
}

// reconciled logs that a retry's error answer was turned into success
// because an earlier attempt had done the work.
func (api *caller) reconciled(ctx context.Context, r *request, o *outcome) {
	logInfo(ctx, api.logger, "dbcloud: an earlier attempt took effect",
		slog.String("method", r.method), slog.String("path", r.path),
		slog.Int("attempts", o.attempts), slog.Int("status", o.lastErr.StatusCode))
}

// uncheckedAnswer is the error of a retry's 409 or 404 that could not be
// checked: the answer stays reachable (errors.As, ErrConflict), and the
// text says that an earlier attempt may still have done the work, so the
// caller does not read the answer as a plain refusal.
func uncheckedAnswer(answer, checkErr error) error {
	return fmt.Errorf("%w; an earlier attempt may have done the work, and reading the resource to check failed: %w", answer, checkErr)
}
