package dbcloud

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
)

// What a failed outcome means to the caller (see "Under faults" in the
// package documentation): settleFailure is the one place that decides it, and
// tookEffect the one rule by which a change's resource is read again.

// tookEffect is the one re-read rule of a repeatable change on the
// resource of kind k that at names. After a retry's 409 (an earlier
// attempt may have acted), the change took effect when done holds for
// the resource read. A nil done is a delete's: a retry's 404, a read that
// finds nothing, or a resource being deleted or gone is done. When into is
// not nil (an action, which answers with the resource), the resource read
// is left there: the caller's answer.
func tookEffect[T any](k kind[T], api *caller, at ref, done func(*T) bool, into *T) effect {
	return func(ctx context.Context, status int) (bool, error) {
		deletes := done == nil
		if status == http.StatusNotFound {
			return deletes, nil
		}
		v, err := k.read(ctx, api, at)
		switch {
		case deletes && isNotFound(err):
			return true, nil
		case err != nil:
			return false, err
		case deletes:
			return gone(k.status(v)), nil
		}
		if into != nil {
			*into = *v
		}
		return done(v), nil
	}
}

// settleFailure is what the failed outcome o of r comes to for the caller:
//   - a change whose 2xx answer was lost (ErrInvalidResponse) took effect:
//     with an effect, the resource is read instead, into the answer;
//   - a retry's 404 or 409 after an earlier attempt may have acted
//     (outcome.answeredByEarlier) is a success when r's effect says the
//     change took effect, and says so when the read failed;
//   - any other failure is r's failure, ErrMaybeCreated for a create that
//     may have acted.
func (api *caller) settleFailure(ctx context.Context, r *request, o *outcome) error {
	err := r.failure(o)
	switch {
	case r.effect == nil:
	case errors.Is(o.err, ErrInvalidResponse):
		if _, readErr := r.effect(ctx, o.last.Status); readErr != nil {
			return fmt.Errorf("%w; reading the %s instead failed: %v", o.err, r.kind, readErr)
		}
		return nil
	case o.answeredByEarlier():
		switch ok, readErr := r.effect(ctx, o.lastErr.StatusCode); {
		case ok:
			logInfo(ctx, api.logger, "dbcloud: an earlier attempt took effect",
				slog.String("method", r.method), slog.String("path", r.path),
				slog.Int("attempts", o.attempts), slog.Int("status", o.lastErr.StatusCode))
			return nil
		case readErr != nil:
			return uncheckedAnswer(err, readErr)
		}
	}
	return err
}

// uncheckedAnswer is the error of a retry's 409 or 404 that could not be
// checked: the answer stays reachable (errors.As, ErrConflict), and the
// text says that an earlier attempt may still have done the work, so the
// caller does not read the answer as a plain refusal.
func uncheckedAnswer(answer, checkErr error) error {
	return fmt.Errorf("%w; an earlier attempt may have done the work, and reading the resource to check failed: %w", answer, checkErr)
}
