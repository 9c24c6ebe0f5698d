package dbcloud

import (
	"context"
	"log/slog"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
)

// attempts tells the observer and the log of each attempt of one request:
// the pipeline's Observer, made only when someone listens.
type attempts struct {
	observer Observer     // nil: only the log listens
	logger   *slog.Logger // nil: only the observer listens
	pipe     *pipeline.Client
	info     CallInfo
	r        request
}

// StartAttempt tells the observer an attempt starts; its context is the
// attempt's.
func (a *attempts) StartAttempt(ctx context.Context, n int) context.Context {
	if a.observer == nil {
		return ctx
	}
	return a.observer.StartAttempt(ctx, a.info, n)
}

// EndAttempt logs the attempt and tells the observer how it ended.
func (a *attempts) EndAttempt(ctx context.Context, rep pipeline.Report) {
	secrets := a.pipe.Secrets() // a token's change over time: read at each attempt
	err := rep.Err
	if rep.Came == pipeline.TimedOut {
		err = ErrAttemptTimeout
	}
	if err != nil {
		err = scrubError(err, secrets, a.r.scrub) // a lower layer may have echoed a secret
	}
	a.log(ctx, rep, err, secrets)
	if a.observer == nil {
		return
	}
	if rep.Came == pipeline.Answered {
		err = a.r.apiError(rep.Answer, secrets)
	}
	info := AttemptInfo{
		Attempt: rep.Number, StatusCode: rep.Answer.Status, Duration: rep.Duration,
		Err: err, Retry: rep.Retry, RetryReason: rep.Reason,
	}
	if rep.Answer.Status != 0 {
		info.RequestID = serverText(rep.Answer.Header.Get("X-Request-Id"), secrets, a.r.scrub)
	}
	a.observer.EndAttempt(ctx, a.info, info)
}

// log records one attempt at debug level, or at warn level when it failed
// and will be retried. It never records headers or bodies; err is the
// attempt's failure short of an error answer, scrubbed.
func (a *attempts) log(ctx context.Context, rep pipeline.Report, err error, secrets []string) {
	level := slog.LevelDebug
	if rep.Retry {
		level = slog.LevelWarn
	}
	if a.logger == nil || !a.logger.Enabled(ctx, level) {
		return
	}
	attrs := make([]slog.Attr, 0, 8)
	attrs = append(attrs,
		slog.String("method", a.r.method),
		slog.String("path", a.r.path),
		slog.Int("attempt", rep.Number),
		slog.Duration("duration", rep.Duration),
	)
	if status := rep.Answer.Status; status != 0 {
		attrs = append(attrs, slog.Int("status", status))
		if id := rep.Answer.Header.Get("X-Request-Id"); id != "" {
			attrs = append(attrs, slog.String("request_id", serverText(id, secrets, a.r.scrub)))
		}
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	attrs = append(attrs, slog.Bool("retry", rep.Retry))
	a.logger.LogAttrs(ctx, level, "dbcloud: http attempt", attrs...)
}

// logInfo records, at info level, a step that explains a call's outcome: a
// retry's error answer turned into success because an earlier attempt had
// done the work, or a create resolved by listing. Such steps are rare, so
// the attributes are built whether or not the level is enabled.
func logInfo(ctx context.Context, logger *slog.Logger, msg string, attrs ...slog.Attr) {
	if logger == nil || !logger.Enabled(ctx, slog.LevelInfo) {
		return
	}
	logger.LogAttrs(ctx, slog.LevelInfo, msg, attrs...)
}
