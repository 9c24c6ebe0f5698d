package dbcloud

import (
	"context"
	"log/slog"
	"net/http"
)

// logAttempt records one attempt at debug level, or at warn level when it
// failed and will be retried. It never records headers or bodies.
func (api *caller) logAttempt(ctx context.Context, x *exchange, resp *http.Response, err error, retry bool) {
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
	if resp != nil {
		attrs = append(attrs, slog.Int("status", resp.StatusCode))
		if id := resp.Header.Get("X-Request-Id"); id != "" {
			attrs = append(attrs, slog.String("request_id", api.scrub(id, x)))
		}
	}
	if err != nil {
		attrs = append(attrs, slog.String("error", api.scrubError(err, x).Error()))
	}
	attrs = append(attrs, slog.Bool("retry", retry))
	api.logger.LogAttrs(ctx, level, "dbcloud: http attempt", attrs...)
}

// logReconciled records, at info level, a call whose retry was answered 404
// or 409 because an earlier attempt had already done the work: an operator
// reading the log sees why the call succeeded after an error answer.
func (api *caller) logReconciled(ctx context.Context, x *exchange) {
	if api.logger == nil || !api.logger.Enabled(ctx, slog.LevelInfo) {
		return
	}
	api.logger.LogAttrs(ctx, slog.LevelInfo, "dbcloud: an earlier attempt took effect",
		slog.String("method", x.method),
		slog.String("path", x.path),
		slog.Int("attempts", x.attempts),
		slog.Int("status", x.lastErr.StatusCode),
	)
}

// logRecovery records a step of create recovery at info level.
func (api *caller) logRecovery(ctx context.Context, msg, noun string, sends int, attrs ...slog.Attr) {
	if api.logger == nil || !api.logger.Enabled(ctx, slog.LevelInfo) {
		return
	}
	api.logger.LogAttrs(ctx, slog.LevelInfo, msg, append([]slog.Attr{slog.String("resource", noun), slog.Int("sends", sends)}, attrs...)...)
}
