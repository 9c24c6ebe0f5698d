package dbcloud

import (
	"context"
	"log/slog"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
)

// logAttempt records one attempt of r at debug level, or at warn level
// when it failed and will be retried. It never records headers or bodies;
// err is the attempt's failure short of an error answer, scrubbed.
func (api *caller) logAttempt(ctx context.Context, r *request, rep pipeline.Report, err error) {
	level := slog.LevelDebug
	if rep.Retry {
		level = slog.LevelWarn
	}
	if api.logger == nil || !api.logger.Enabled(ctx, level) {
		return
	}
	attrs := make([]slog.Attr, 0, 8)
	attrs = append(attrs,
		slog.String("method", r.method),
		slog.String("path", r.path),
		slog.Int("attempt", rep.Number),
		slog.Duration("duration", rep.Duration),
	)
	if status := rep.Answer.Status; status != 0 {
		attrs = append(attrs, slog.Int("status", status))
		if id := rep.Answer.Header.Get("X-Request-Id"); id != "" {
			attrs = append(attrs, slog.String("request_id", api.serverText(id, r)))
		}
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", err.Error()))
	}
	attrs = append(attrs, slog.Bool("retry", rep.Retry))
	api.logger.LogAttrs(ctx, level, "dbcloud: http attempt", attrs...)
}

// logInfo records, at info level, a step that explains a call's outcome: a
// retry's error answer turned into success because an earlier attempt had
// done the work, or a create resolved by listing. Such steps are rare, so
// the attributes are built whether or not the level is enabled.
func (api *caller) logInfo(ctx context.Context, msg string, attrs ...slog.Attr) {
	if api.logger == nil || !api.logger.Enabled(ctx, slog.LevelInfo) {
		return
	}
	api.logger.LogAttrs(ctx, slog.LevelInfo, msg, attrs...)
}
