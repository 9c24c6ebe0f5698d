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
// semantic conventions name client spans.
//
// A wait's polls are spans of their own. A wait alone polls under its
// caller's context, so its reads are children of the caller's span. Waits
// that share a poller share its reads, which run under the poller's own
// context: such a read's span has no parent, carries dbcloud.waits and a
// link to the span of each waiting caller.
//
// A deploy (package github.com/dbcloud/dbcloud-go/deploy, on a Client with
// this Observer) is a span named by its run ("deploy.Apply",
// "deploy.Destroy") with a child span for each service's changes
// ("deploy.service", or "deploy.fork", "deploy.vpc", "deploy.peering" for
// a fork's, a VPC's, a peering's), and under it a span
// for each step, named by the step; each carries its resource's
// dbcloud.resource.kind, dbcloud.resource.name and ids (a create's, the id
// the create gave it). Each step's calls, its waits' polls included, are
// children of the step's span, and each call's attempts are children of
// the call's. The run's span is a child of the span in the context given
// to the run. These spans are not counted by the metrics, which count the
// API's calls.
//
// The spans' attributes, each set only when its value is known (an id, an
// answer's status code) or applies (error.type on a failure):
//
//	attribute                  spans                  value
//	dbcloud.operation          call, deploy           "Services.Create", "deploy.Apply", a step's name
//	http.request.method        call, attempt          "GET", "POST", ...
//	url.template               call, attempt          "/projects/{project_id}/services"
//	dbcloud.project_id         call, deploy           the ids the call or step names
//	dbcloud.service_id         call, deploy
//	dbcloud.replica_set_id     call, deploy
//	dbcloud.vpc_id             call, deploy
//	dbcloud.peering_id         call, deploy
//	dbcloud.resource.kind      deploy                 "service", "replica set", "fork", "VPC", "VPC peering"
//	dbcloud.resource.name      deploy                 the resource's name
//	dbcloud.waits              shared read            how many waits the read serves
//	dbcloud.attempts           call                   attempts sent
//	http.request.resend_count  attempt                attempts before this one, from the second on
//	http.response.status_code  call, attempt          the answer's status
//	dbcloud.request_id         call, attempt          the answer's X-Request-Id
//	dbcloud.retry_reason       attempt                why a retry follows: "status 503", "network error", ...
//	dbcloud.reconciled         call                   true: a retry's 404 or 409 proved an earlier attempt took effect
//	error.type                 call, attempt, deploy  "timeout", "canceled", "maybe_created", "read_only", "invalid", the status ("404"), or "_OTHER"
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
	attemptCount    metric.Int64Counter
	retries         metric.Int64Counter
	callDuration    metric.Float64Histogram
	attemptDuration metric.Float64Histogram
	inFlight        metric.Int64UpDownCounter

	// mu guards sets and attempts, caches of what a measurement or an
	// attempt's span needs that depends only on values of few kinds (an SDK
	// has a few dozen operations): building them per call would cost
	// allocations and a sort each time. Maps under a read lock, not
	// sync.Map, whose any keys would box a key at every lookup.
	mu       sync.RWMutex
	sets     map[attrKey]*measure
	attempts map[[2]string]*attemptShape
}

// measure is the options of a measurement with one attribute set, as
// slices, so that passing them to Add or Record allocates no variadic
// slice.
type measure struct {
	add    []metric.AddOption
	record []metric.RecordOption
}

// attemptShape is what the span of a first attempt of a method and a path
// template needs: its name and its start options.
type attemptShape struct {
	name string
	opts []trace.SpanStartOption
}

// The span kinds as options, made once: each option is an interface value
// that would cost an allocation per span.
var (
	internalKind = trace.WithSpanKind(trace.SpanKindInternal)
	clientKind   = trace.WithSpanKind(trace.SpanKindClient)
)

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
	o.attemptCount = counter("dbcloud.client.attempts", "{attempt}", "HTTP attempts sent by the SDK.")
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
	keyVPCID       = attribute.Key("dbcloud.vpc_id")
	keyPeeringID   = attribute.Key("dbcloud.peering_id")
	keyAttempts    = attribute.Key("dbcloud.attempts")
	keyReconciled  = attribute.Key("dbcloud.reconciled")
	keyWaits       = attribute.Key("dbcloud.waits")
	keyKind        = attribute.Key("dbcloud.resource.kind")
	keyName        = attribute.Key("dbcloud.resource.name")
)

// StartCall starts the call's span and counts it in flight. The span of a
// read that a poller shares among waits (call.Serves) is linked to the
// span of each wait's caller: a shared read runs under the poller's
// context, so it has no caller's span as its parent.
func (o *Observer) StartCall(ctx context.Context, call dbcloud.CallInfo) context.Context {
	if call.Unit {
		return o.startUnit(ctx, call)
	}
	if len(call.Serves) == 0 {
		return o.startCall(ctx, call)
	}
	links := make([]trace.Link, 0, len(call.Serves))
	for _, waiting := range call.Serves {
		if sc := trace.SpanContextFromContext(waiting); sc.IsValid() {
			links = append(links, trace.Link{SpanContext: sc})
		}
	}
	return o.startCall(ctx, call, trace.WithLinks(links...), trace.WithAttributes(keyWaits.Int(len(call.Serves))))
}

// startCall starts a call's span, with the options of its kind of call.
func (o *Observer) startCall(ctx context.Context, call dbcloud.CallInfo, opts ...trace.SpanStartOption) context.Context {
	attrs := make([]attribute.KeyValue, 0, 6)
	attrs = append(attrs, keyOperation.String(call.Operation), keyMethod.String(call.Method), keyTemplate.String(call.Path))
	attrs = appendIDs(appendNonEmpty(attrs, keyProjectID.String(call.ProjectID)), call)
	opts = append(opts, internalKind, trace.WithAttributes(attrs...))
	ctx, _ = o.tracer.Start(ctx, call.Operation, opts...)
	o.inFlight.Add(ctx, 1, o.set(attrKey{call.Operation, call.Method, call.Path, "", "", ""}).add...)
	return ctx
}

// appendIDs appends the ids below the project that call names: the one
// list of them, for a call's span, a unit's start and a unit's end.
func appendIDs(kv []attribute.KeyValue, call dbcloud.CallInfo) []attribute.KeyValue {
	return appendNonEmpty(kv, keyServiceID.String(call.ServiceID), keyReplicaSet.String(call.ReplicaSetID),
		keyVPCID.String(call.VPCID), keyPeeringID.String(call.PeeringID))
}

// startUnit starts the span of a unit of work that sends nothing itself (a
// deploy run or step), whose calls are its children: a span, no metric,
// since the metrics count the API's calls.
func (o *Observer) startUnit(ctx context.Context, call dbcloud.CallInfo) context.Context {
	attrs := make([]attribute.KeyValue, 0, 6)
	attrs = append(attrs, keyOperation.String(call.Operation))
	attrs = appendNonEmpty(attrs, keyKind.String(string(call.Kind)), keyName.String(call.Name), keyProjectID.String(call.ProjectID))
	attrs = appendIDs(attrs, call)
	ctx, _ = o.tracer.Start(ctx, call.Operation, internalKind, trace.WithAttributes(attrs...))
	return ctx
}

// StartAttempt starts the attempt's span, a child of the call's.
func (o *Observer) StartAttempt(ctx context.Context, call dbcloud.CallInfo, attempt int) context.Context {
	shape := o.attemptShape(call.Method, call.Path)
	opts := shape.opts
	if attempt > 1 {
		opts = append(opts[:len(opts):len(opts)], trace.WithAttributes(keyResendCount.Int(attempt-1)))
	}
	ctx, _ = o.tracer.Start(ctx, shape.name, opts...)
	return ctx
}

// attemptShape returns the cached name and start options of the span of a
// first attempt of method and path.
func (o *Observer) attemptShape(method, path string) *attemptShape {
	k := [2]string{method, path}
	o.mu.RLock()
	a, ok := o.attempts[k]
	o.mu.RUnlock()
	if ok {
		return a
	}
	a = &attemptShape{name: method + " " + path, opts: []trace.SpanStartOption{
		clientKind, trace.WithAttributes(keyMethod.String(method), keyTemplate.String(path)),
	}}
	o.mu.Lock()
	defer o.mu.Unlock()
	if cached, ok := o.attempts[k]; ok {
		return cached
	}
	if o.attempts == nil {
		o.attempts = map[[2]string]*attemptShape{}
	}
	o.attempts[k] = a
	return a
}

// EndAttempt ends the attempt's span and records the attempt.
func (o *Observer) EndAttempt(ctx context.Context, call dbcloud.CallInfo, a dbcloud.AttemptInfo) {
	span := trace.SpanFromContext(ctx)
	errType := errorType(a.Err, a.StatusCode)
	if span.IsRecording() {
		// One SetAttributes: each call would cost a slice and a growth of
		// the span's attributes.
		var buf [4]attribute.KeyValue
		kv := appendAnswer(buf[:0], a.StatusCode, a.RequestID)
		if a.Retry {
			kv = append(kv, keyRetryReason.String(a.RetryReason))
		}
		if a.Err != nil {
			kv = append(kv, keyErrorType.String(errType))
			span.SetStatus(codes.Error, a.Err.Error())
		}
		span.SetAttributes(kv...)
	}
	span.End()
	class := statusClass(a.StatusCode)
	measured := o.set(attrKey{call.Operation, call.Method, call.Path, class, errType, ""})
	o.attemptCount.Add(ctx, 1, measured.add...)
	o.attemptDuration.Record(ctx, a.Duration.Seconds(), measured.record...)
	if a.Retry {
		o.retries.Add(ctx, 1, o.set(attrKey{call.Operation, call.Method, call.Path, class, "", a.RetryReason}).add...)
	}
}

// EndCall ends the call's span and records the call. The span of a
// deploy's run, chain or step (a CallInfo with Unit set), which no metric
// counts, is ended with its error, if any, and the ids its end names.
func (o *Observer) EndCall(ctx context.Context, call dbcloud.CallInfo, r dbcloud.CallResult) {
	span := trace.SpanFromContext(ctx)
	errType := errorType(r.Err, r.StatusCode)
	if call.Unit {
		// The ids as of the unit's end: a step that created its resource
		// learnt the id only from the create.
		var buf [5]attribute.KeyValue
		kv := appendIDs(buf[:0], call)
		if r.Err != nil {
			kv = append(kv, keyErrorType.String(errType))
			span.SetStatus(codes.Error, r.Err.Error())
		}
		span.SetAttributes(kv...)
		span.End()
		return
	}
	if span.IsRecording() {
		var buf [4]attribute.KeyValue
		kv := append(buf[:0], keyAttempts.Int(r.Attempts))
		kv = appendAnswer(kv, r.StatusCode, r.RequestID)
		switch {
		case r.Err != nil:
			kv = append(kv, keyErrorType.String(errType))
			span.SetStatus(codes.Error, r.Err.Error())
		case r.StatusCode != 0 && (r.StatusCode < 200 || r.StatusCode > 299):
			kv = append(kv, keyReconciled.Bool(true))
		}
		span.SetAttributes(kv...)
	}
	span.End()
	measured := o.set(attrKey{call.Operation, call.Method, call.Path, statusClass(r.StatusCode), errType, ""})
	o.calls.Add(ctx, 1, measured.add...)
	o.callDuration.Record(ctx, r.Duration.Seconds(), measured.record...)
	o.inFlight.Add(ctx, -1, o.set(attrKey{call.Operation, call.Method, call.Path, "", "", ""}).add...)
}

// appendAnswer appends to kv the status code and the request id of the
// answer, each when it came.
func appendAnswer(kv []attribute.KeyValue, statusCode int, requestID string) []attribute.KeyValue {
	if statusCode != 0 {
		kv = append(kv, keyStatusCode.Int(statusCode))
	}
	if requestID != "" {
		kv = append(kv, keyRequestID.String(requestID))
	}
	return kv
}

// attrKey is the values of one metric attribute set; "" leaves a key out.
type attrKey struct {
	operation, method, path, class, errType, retryReason string
}

// set returns the cached measurement options of k's attributes.
func (o *Observer) set(k attrKey) *measure {
	o.mu.RLock()
	m, ok := o.sets[k]
	o.mu.RUnlock()
	if ok {
		return m
	}
	kv := make([]attribute.KeyValue, 0, 6)
	kv = append(kv, keyOperation.String(k.operation), keyMethod.String(k.method), keyTemplate.String(k.path))
	kv = appendNonEmpty(kv, keyStatusClass.String(k.class), keyErrorType.String(k.errType), keyRetryReason.String(k.retryReason))
	opt := metric.WithAttributeSet(attribute.NewSet(kv...))
	m = &measure{add: []metric.AddOption{opt}, record: []metric.RecordOption{opt}}
	o.mu.Lock()
	defer o.mu.Unlock()
	if cached, ok := o.sets[k]; ok {
		return cached
	}
	if o.sets == nil {
		o.sets = map[attrKey]*measure{}
	}
	o.sets[k] = m
	return m
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
	return statusClasses[code/100-1]
}

// statusClasses are statusClass's answers, made once.
var statusClasses = [...]string{"1xx", "2xx", "3xx", "4xx", "5xx"}

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
