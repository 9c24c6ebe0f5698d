package dbcloud

import (
	"context"
	"fmt"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
)

// call is one operation in progress: what the observer was told at its
// start. Its zero value (no observer) costs nothing.
type call struct {
	info  CallInfo
	ctx   context.Context // what StartCall returned
	start time.Time
}

// begin starts an operation once its input is valid (r.err is nil): it
// tells the observer, then asks guard whether the client may make it, so
// that a refusal is seen as a call with no attempt (and the PROD guard's
// read as a call inside it). The returned context is the operation's from
// then on; a refusal has already been reported to the observer.
func (api *caller) begin(ctx context.Context, r request) (context.Context, call, error) {
	if r.err != nil {
		return ctx, call{}, r.err
	}
	var c call
	if api.observer != nil {
		c = call{info: r.info, start: time.Now()}
		c.info.Serves = r.serves
		c.ctx = api.observer.StartCall(ctx, c.info)
		ctx = c.ctx
	}
	if !r.partOf {
		if err := api.guard(ctx, r.info); err != nil {
			return ctx, c, api.end(c, nil, err)
		}
	}
	return ctx, c, nil
}

// end tells the observer how the operation ended, with the outcome of its
// main request (nil if none was sent), and returns err.
func (api *caller) end(c call, o *outcome, err error) error {
	if api.observer == nil {
		return err
	}
	r := CallResult{Duration: time.Since(c.start), Err: err}
	if o != nil {
		r.Attempts, r.StatusCode, r.RequestID = o.attempts, o.status, o.requestID
	}
	api.observer.EndCall(c.ctx, c.info, r)
	return err
}

// attempts tells the observer and the log of each attempt of one request:
// the pipeline's Observer, made only when someone listens.
type attempts struct {
	api                 *caller
	info                CallInfo
	method, path, scrub string
}

// StartAttempt tells the observer an attempt starts; its context is the
// attempt's.
func (a *attempts) StartAttempt(ctx context.Context, n int) context.Context {
	if a.api.observer == nil || a.info.Operation == "" {
		return ctx
	}
	return a.api.observer.StartAttempt(ctx, a.info, n)
}

// EndAttempt logs the attempt and tells the observer how it ended.
func (a *attempts) EndAttempt(ctx context.Context, rep pipeline.Report) {
	api := a.api
	r := &request{method: a.method, path: a.path, scrub: a.scrub}
	err := rep.Err
	if rep.Came == pipeline.TimedOut {
		err = ErrAttemptTimeout
	}
	if err != nil {
		err = api.scrubError(err, r) // a lower layer may have echoed a secret
	}
	api.logAttempt(ctx, r, rep, err)
	if api.observer == nil || a.info.Operation == "" {
		return
	}
	if rep.Came == pipeline.Answered {
		err = api.apiError(r, rep.Answer)
	}
	info := AttemptInfo{
		Attempt: rep.Number, StatusCode: rep.Answer.Status, Duration: rep.Duration,
		Err: err, Retry: rep.Retry, RetryReason: rep.Reason,
	}
	if rep.Answer.Status != 0 {
		info.RequestID = api.serverText(rep.Answer.Header.Get("X-Request-Id"), r)
	}
	api.observer.EndAttempt(ctx, a.info, info)
}

// confirmation says whether a retry's error answer (a 404 or 409 after an
// earlier attempt may have acted) means that attempt did the work; when it
// cannot tell, checkErr says why (the read it needed failed).
type confirmation func(ctx context.Context, answer *APIError) (ok bool, checkErr error)

// command runs an operation whose answer carries nothing to return.
// confirmed, if not nil, is asked about a retry's 404 or 409 after an
// earlier attempt may have acted (outcome.answeredByEarlier): true means
// the earlier attempt did the work, and the call succeeds.
func (api *caller) command(ctx context.Context, r request, confirmed confirmation) error {
	ctx, c, err := api.begin(ctx, r)
	if err != nil {
		return err
	}
	o := api.send(ctx, r, nil)
	err = api.failure(&r, &o)
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

// uncheckedAnswer is the error of a retry's 409 or 404 that could not be
// checked: the answer stays reachable (errors.As, ErrConflict), and the
// text says that an earlier attempt may still have done the work, so the
// caller does not read the answer as a plain refusal.
func uncheckedAnswer(answer, checkErr error) error {
	return fmt.Errorf("%w; an earlier attempt may have done the work, and reading the resource to check failed: %w", answer, checkErr)
}
