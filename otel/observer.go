// Package dbcloudotel traces and measures the calls of a dbcloud Client
// with OpenTelemetry. It lives in its own module, so that programs that do
// not use OpenTelemetry do not depend on it:
//
//	obs, err := dbcloudotel.New() // the global providers, or WithTracerProvider/WithMeterProvider
//	c, err := dbcloud.NewClientFromEnv(dbcloud.WithObserver(obs))
//
// # Spans
//
// Each call is a span named by its operation ("Services.Create"), of kind
// internal, with one child per attempt, of kind client, named by method and
// path template ("POST /projects/{project_id}/services"), as the HTTP
// semantic conventions name client spans. Spans carry the ids of the call
// (dbcloud.project_id, dbcloud.service_id, dbcloud.replica_set_id), the
// status, the request id when the server sent one, the retry reason, and
// error.type on failure. A call that succeeded although its last attempt
// did not (a retry whose 404 or 409 proved an earlier attempt took effect)
// has dbcloud.reconciled=true.
//
// A wait's polls are spans of their own. A wait alone polls under its
// caller's context, so its reads are children of the caller's span. Waits
// that share a poller share its reads, which run under the poller's own
// context: such a read's span has no parent, carries dbcloud.waits (how
// many waits it serves) and a link to the span of each waiting caller.
//
// # Metrics
//
// All in the meter "github.com/dbcloud/dbcloud-go/otel":
//
//	dbcloud.client.calls             counter        calls, by outcome
//	dbcloud.client.attempts          counter        attempts sent
//	dbcloud.client.retries           counter        attempts followed by a retry, by reason
//	dbcloud.client.call.duration     histogram (s)  whole calls, retries and backoff included
//	dbcloud.client.attempt.duration  histogram (s)  single attempts
//	dbcloud.client.calls.in_flight   up-down        calls started and not ended
//
// Their attributes are low-cardinality, never an id: dbcloud.operation,
// http.request.method, url.template, dbcloud.status_class ("2xx", "4xx",
// "5xx", "none" when no answer came), error.type on failures and
// dbcloud.retry_reason on retries.
package dbcloudotel

import (
	"context"
	"errors"
	"strconv"
	"sync"

	"github.com/dbcloud/dbcloud-go"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of the tracer and the meter.
const ScopeName = "github.com/dbcloud/dbcloud-go/otel"

// Option configures New.
type Option func(*config)

type config struct {
	tp trace.TracerProvider
	mp metric.MeterProvider
}

// WithTracerProvider sets where spans go; the default is the global
// provider (otel.GetTracerProvider).
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *config) { c.tp = tp }
}

// WithMeterProvider sets where metrics go; the default is the global
// provider (otel.GetMeterProvider).
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) { c.mp = mp }
}

// Observer implements dbcloud.Observer with OpenTelemetry. It is safe for
// concurrent use; one Observer may serve many Clients.
type Observer struct {
	tracer          trace.Tracer
	calls           metric.Int64Counter
	attempts        metric.Int64Counter
	retries         metric.Int64Counter
	callDuration    metric.Float64Histogram
	attemptDuration metric.Float64Histogram
	inFlight        metric.Int64UpDownCounter

	// sets caches the attribute sets of metrics by their values: an SDK
	// has a few dozen operations, and building a set per measurement would
	// cost an allocation and a sort each time.
	sets sync.Map // attrKey -> metric.MeasurementOption
}

var _ dbcloud.Observer = (*Observer)(nil)

// New returns an Observer that reports to the given providers.
func New(opts ...Option) (*Observer, error) {
	cfg := config{tp: otel.GetTracerProvider(), mp: otel.GetMeterProvider()}
	for _, opt := range opts {
		opt(&cfg)
	}
	o := &Observer{tracer: cfg.tp.Tracer(ScopeName, trace.WithInstrumentationVersion(dbcloud.Version))}
	m := cfg.mp.Meter(ScopeName, metric.WithInstrumentationVersion(dbcloud.Version))
	// Each kind of instrument has its own constructor and option type, so
	// one helper a kind; all errors are joined, not only the first.
	var err error
	counter := func(name, unit, desc string) metric.Int64Counter {
		c, e := m.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		err = errors.Join(err, e)
		return c
	}
	histogram := func(name, desc string) metric.Float64Histogram {
		h, e := m.Float64Histogram(name, metric.WithUnit("s"), metric.WithDescription(desc))
		err = errors.Join(err, e)
		return h
	}
	o.calls = counter("dbcloud.client.calls", "{call}", "Calls made by the SDK, by outcome.")
	o.attempts = counter("dbcloud.client.attempts", "{attempt}", "HTTP attempts sent by the SDK.")
	o.retries = counter("dbcloud.client.retries", "{retry}", "Attempts followed by a retry, by reason.")
	o.callDuration = histogram("dbcloud.client.call.duration", "Duration of whole calls, retries and backoff included.")
	o.attemptDuration = histogram("dbcloud.client.attempt.duration", "Duration of single HTTP attempts.")
	var e error
	o.inFlight, e = m.Int64UpDownCounter("dbcloud.client.calls.in_flight", metric.WithUnit("{call}"),
		metric.WithDescription("Calls started and not yet ended."))
	err = errors.Join(err, e)
	if err != nil {
		return nil, err
	}
	return o, nil
}

// Attribute keys.
const (
	keyOperation   = attribute.Key("dbcloud.operation")
	keyMethod      = attribute.Key("http.request.method")
	keyTemplate    = attribute.Key("url.template")
	keyStatusClass = attribute.Key("dbcloud.status_class")
	keyErrorType   = attribute.Key("error.type")
	keyRetryReason = attribute.Key("dbcloud.retry_reason")
	keyStatusCode  = attribute.Key("http.response.status_code")
	keyResendCount = attribute.Key("http.request.resend_count")
	keyRequestID   = attribute.Key("dbcloud.request_id")
	keyProjectID   = attribute.Key("dbcloud.project_id")
	keyServiceID   = attribute.Key("dbcloud.service_id")
	keyReplicaSet  = attribute.Key("dbcloud.replica_set_id")
	keyAttempts    = attribute.Key("dbcloud.attempts")
	keyReconciled  = attribute.Key("dbcloud.reconciled")
	keyWaits       = attribute.Key("dbcloud.waits")
)

// StartCall starts the call's span and counts it in flight.
func (o *Observer) StartCall(ctx context.Context, call dbcloud.CallInfo) context.Context {
	return o.startCall(ctx, call)
}

// StartSharedRead starts the span of a read that a poller shares among
// waits, linked to the span of each wait's caller (a shared read runs
// under the poller's context, so it has no caller's span as its parent),
// and counts it in flight.
func (o *Observer) StartSharedRead(ctx context.Context, call dbcloud.CallInfo, serves []context.Context) context.Context {
	links := make([]trace.Link, 0, len(serves))
	for _, waiting := range serves {
		if sc := trace.SpanContextFromContext(waiting); sc.IsValid() {
			links = append(links, trace.Link{SpanContext: sc})
		}
	}
	return o.startCall(ctx, call, trace.WithLinks(links...), trace.WithAttributes(keyWaits.Int(len(serves))))
}

// startCall starts a call's span, with the options of its kind of call.
func (o *Observer) startCall(ctx context.Context, call dbcloud.CallInfo, opts ...trace.SpanStartOption) context.Context {
	attrs := make([]attribute.KeyValue, 0, 6)
	attrs = append(attrs, keyOperation.String(call.Operation), keyMethod.String(call.Method), keyTemplate.String(call.Path))
	attrs = appendNonEmpty(attrs, keyProjectID.String(call.ProjectID), keyServiceID.String(call.ServiceID), keyReplicaSet.String(call.ReplicaSetID))
	opts = append(opts, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(attrs...))
	ctx, _ = o.tracer.Start(ctx, callName(call), opts...)
	o.inFlight.Add(ctx, 1, o.set(attrKey{call.Operation, call.Method, call.Path, "", "", ""}))
	return ctx
}

// StartAttempt starts the attempt's span, a child of the call's.
func (o *Observer) StartAttempt(ctx context.Context, call dbcloud.CallInfo, attempt int) context.Context {
	attrs := []attribute.KeyValue{keyMethod.String(call.Method), keyTemplate.String(call.Path)}
	if attempt > 1 {
		attrs = append(attrs, keyResendCount.Int(attempt-1))
	}
	ctx, _ = o.tracer.Start(ctx, call.Method+" "+call.Path, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return ctx
}

// EndAttempt ends the attempt's span and records the attempt.
func (o *Observer) EndAttempt(ctx context.Context, call dbcloud.CallInfo, a dbcloud.AttemptInfo) {
	span := trace.SpanFromContext(ctx)
	errType := errorType(a.Err, a.StatusCode)
	if span.IsRecording() {
		setAnswer(span, a.StatusCode, a.RequestID)
		if a.Retry {
			span.SetAttributes(keyRetryReason.String(a.RetryReason))
		}
		if a.Err != nil {
			span.SetAttributes(keyErrorType.String(errType))
			span.SetStatus(codes.Error, a.Err.Error())
		}
	}
	span.End()
	class := statusClass(a.StatusCode)
	measured := o.set(attrKey{call.Operation, call.Method, call.Path, class, errType, ""})
	o.attempts.Add(ctx, 1, measured)
	o.attemptDuration.Record(ctx, a.Duration.Seconds(), measured)
	if a.Retry {
		o.retries.Add(ctx, 1, o.set(attrKey{call.Operation, call.Method, call.Path, class, "", a.RetryReason}))
	}
}

// EndCall ends the call's span and records the call.
func (o *Observer) EndCall(ctx context.Context, call dbcloud.CallInfo, r dbcloud.CallResult) {
	span := trace.SpanFromContext(ctx)
	errType := errorType(r.Err, r.StatusCode)
	if span.IsRecording() {
		span.SetAttributes(keyAttempts.Int(r.Attempts))
		setAnswer(span, r.StatusCode, r.RequestID)
		switch {
		case r.Err != nil:
			span.SetAttributes(keyErrorType.String(errType))
			span.SetStatus(codes.Error, r.Err.Error())
		case r.StatusCode != 0 && (r.StatusCode < 200 || r.StatusCode > 299):
			span.SetAttributes(keyReconciled.Bool(true))
		}
	}
	span.End()
	measured := o.set(attrKey{call.Operation, call.Method, call.Path, statusClass(r.StatusCode), errType, ""})
	o.calls.Add(ctx, 1, measured)
	o.callDuration.Record(ctx, r.Duration.Seconds(), measured)
	o.inFlight.Add(ctx, -1, o.set(attrKey{call.Operation, call.Method, call.Path, "", "", ""}))
}

// setAnswer sets on span the status code and the request id of the
// answer, each when it came.
func setAnswer(span trace.Span, statusCode int, requestID string) {
	if statusCode != 0 {
		span.SetAttributes(keyStatusCode.Int(statusCode))
	}
	if requestID != "" {
		span.SetAttributes(keyRequestID.String(requestID))
	}
}

func callName(call dbcloud.CallInfo) string {
	if call.Operation != "" {
		return call.Operation
	}
	return call.Method + " " + call.Path
}

// attrKey is the values of one metric attribute set; "" leaves a key out.
type attrKey struct {
	operation, method, path, class, errType, retryReason string
}

// set returns the cached measurement option of k's attributes.
func (o *Observer) set(k attrKey) metric.MeasurementOption {
	if opt, ok := o.sets.Load(k); ok {
		return opt.(metric.MeasurementOption)
	}
	kv := make([]attribute.KeyValue, 0, 6)
	kv = append(kv, keyOperation.String(k.operation), keyMethod.String(k.method), keyTemplate.String(k.path))
	kv = appendNonEmpty(kv, keyStatusClass.String(k.class), keyErrorType.String(k.errType), keyRetryReason.String(k.retryReason))
	opt, _ := o.sets.LoadOrStore(k, metric.WithAttributeSet(attribute.NewSet(kv...)))
	return opt.(metric.MeasurementOption)
}

// appendNonEmpty appends to kv the string attributes of attrs whose value
// is not "": an unknown id or a class that does not apply is left out, not
// reported as empty.
func appendNonEmpty(kv []attribute.KeyValue, attrs ...attribute.KeyValue) []attribute.KeyValue {
	for _, a := range attrs {
		if a.Value.AsString() != "" {
			kv = append(kv, a)
		}
	}
	return kv
}

// statusClass is "2xx", "4xx"... or "none" when no answer came.
func statusClass(code int) string {
	if code < 100 || code > 599 {
		return "none"
	}
	return strconv.Itoa(code/100) + "xx"
}

// errorType names a failure by a bounded set of values, for error.type; it
// is "" when err is nil: no failure, no error.type.
func errorType(err error, status int) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, dbcloud.ErrMaybeCreated):
		return "maybe_created"
	case errors.Is(err, dbcloud.ErrReadOnly):
		return "read_only"
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	}
	if _, ok := errors.AsType[*dbcloud.APIError](err); ok && status != 0 {
		return strconv.Itoa(status)
	}
	if _, ok := errors.AsType[*dbcloud.ValidationError](err); ok {
		return "invalid"
	}
	return "_OTHER"
}
