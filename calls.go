package dbcloud

import (
	"context"
	"fmt"
	"time"
)

// call is one operation in progress: what the observer was told at its
// start. Its zero value (no observer) costs nothing.
type call struct {
	info  CallInfo
	ctx   context.Context // what StartCall returned
	start time.Time
}

// begin starts an operation once its input is valid: it tells the
// observer, then asks guard whether the client may make it, so that a
// refusal is seen as a call with no attempt (and the PROD guard's read as a
// call inside it). The returned context is the operation's from then on; a
// refusal has already been reported to the observer.
func (api *caller) begin(ctx context.Context, info CallInfo) (context.Context, call, error) {
	var c call
	if api.observer != nil {
		c = call{info: info, start: api.now()}
		c.ctx = api.observer.StartCall(ctx, info)
		ctx = c.ctx
	}
	if err := api.guard(ctx, info); err != nil {
		return ctx, c, api.end(c, nil, err)
	}
	return ctx, c, nil
}

// end tells the observer how the operation ended, with the outcome of its
// main request (nil if none was sent), and returns err.
func (api *caller) end(c call, o *outcome, err error) error {
	if api.observer == nil {
		return err
	}
	r := CallResult{Duration: api.now().Sub(c.start), Err: err}
	if o != nil {
		r.Attempts, r.StatusCode, r.RequestID = o.attempts, o.status, o.requestID
	}
	api.observer.EndCall(c.ctx, c.info, r)
	return err
}

// run is the whole life of a plain operation: begin, send r, end. Its
// error is the caller's (see failure).
func (api *caller) run(ctx context.Context, r request, out any) error {
	ctx, c, err := api.begin(ctx, r.info)
	if err != nil {
		return err
	}
	o := api.send(ctx, r, out)
	return api.end(c, &o, api.failure(r, &o))
}

// endAttempt records one attempt's end in the log and for the observer.
// err is why the attempt failed short of an error answer, which is in
// x.lastErr.
func (api *caller) endAttempt(x *exchange, err error, retry bool, reason string) {
	api.logAttempt(x, x, err, retry)
	if !api.observed(x) {
		return
	}
	if err == nil && x.status != 0 && (x.status < 200 || x.status > 299) {
		err = x.lastErr
	} else if err != nil {
		err = api.scrubError(err, x) // a lower layer may have echoed a secret
	}
	ctx := x.observed
	if ctx == nil {
		ctx = x
	}
	api.observer.EndAttempt(ctx, x.info, AttemptInfo{
		Attempt:     x.attempts,
		StatusCode:  x.status,
		RequestID:   api.serverText(x.requestID, x),
		Duration:    api.now().Sub(x.start),
		Err:         err,
		Retry:       retry,
		RetryReason: reason,
	})
	x.observed = nil
}

// command runs an operation whose answer carries nothing to return.
// confirmed, if not nil, is asked about a retry's 404 or 409 after an
// earlier attempt may have acted (outcome.answeredByEarlier): true means
// the earlier attempt did the work, and the call succeeds.
func (api *caller) command(ctx context.Context, r request, confirmed confirmation) error {
	ctx, c, err := api.begin(ctx, r.info)
	if err != nil {
		return err
	}
	o := api.send(ctx, r, nil)
	err = api.failure(r, &o)
	if confirmed != nil && o.answeredByEarlier() {
		switch ok, checkErr := confirmed(ctx, o.lastErr); {
		case ok:
			api.reconciled(ctx, r, &o)
			err = nil
		case checkErr != nil:
			err = uncheckedAnswer(err, checkErr)
		}
	}
	return api.end(c, &o, err)
}

// confirmation says whether a retry's error answer (a 404 or 409 after an
// earlier attempt may have acted) means that attempt did the work; when it
// cannot tell, checkErr says why (the read it needed failed).
type confirmation func(ctx context.Context, answer *APIError) (ok bool, checkErr error)

// uncheckedAnswer is the error of a retry's 409 or 404 that could not be
// checked: the answer stays reachable (errors.As, ErrConflict), and the
// text says that an earlier attempt may still have done the work, so the
// caller does not read the answer as a plain refusal.
func uncheckedAnswer(answer, checkErr error) error {
	return fmt.Errorf("%w; an earlier attempt may have done the work, and reading the resource to check failed: %w", answer, checkErr)
}

// observed reports whether the observer hears of x's attempts. Every
// request carries its operation's CallInfo; an exchange built without one
// (a test's) is not reported without its call.
func (api *caller) observed(x *exchange) bool {
	return api.observer != nil && x.info.Operation != ""
}
