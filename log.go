package dbcloud

import (
	"context"
	"log/slog"
)

// logAttempt records one attempt at debug level, or at warn level when it
// failed and will be retried. It never records headers or bodies.
func (api *caller) logAttempt(ctx context.Context, x *exchange, err error, retry bool) {
	level := slog.LevelDebug
	if retry {
		level = slog.LevelWarn
	}
	if api.logger == nil || !api.logger.Enabled(ctx, level) {
		return
	}
	attrs := make([]slog.Attr, 0, 8)
	attrs = append(attrs,
		slog.String("method", x.method),
		slog.String("path", x.path),
		slog.Int("attempt", x.attempts),
		slog.Duration("duration", api.now().Sub(x.start)),
	)
	if x.status != 0 {
		attrs = append(attrs, slog.Int("status", x.status))
		if x.requestID != "" {
			attrs = append(attrs, slog.String("request_id", api.serverText(x.requestID, x)))
		}
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", api.scrubError(err, x).Error()))
	}
	attrs = append(attrs, slog.Bool("retry", retry))
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
