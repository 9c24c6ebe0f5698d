package dbcloud

import (
	"context"
	"time"
)

// Observer is told about every call a Client makes and about each attempt
// of it, for tracing and metrics. The module
// github.com/dbcloud/dbcloud-go/otel implements it with OpenTelemetry; the
// root module stays free of that dependency. Set it with WithObserver.
//
// The methods run on the calling goroutine, in this order for one call:
// StartCall, then StartAttempt and EndAttempt for each attempt, then
// EndCall. They must be safe for concurrent use, since a Client is, and
// they should return quickly: they run on the call's path.
type Observer interface {
	// StartCall is called once per call, before anything is sent. The
	// context it returns is the call's from then on (to carry a span, say);
	// return ctx to keep it.
	StartCall(ctx context.Context, call CallInfo) context.Context
	// StartAttempt is called before each attempt is sent, attempt counting
	// from 1. Its returned context is that attempt's.
	StartAttempt(ctx context.Context, call CallInfo, attempt int) context.Context
	// EndAttempt is called once the attempt's answer, or its failure, is
	// known, with the context StartAttempt returned.
	EndAttempt(ctx context.Context, call CallInfo, attempt AttemptInfo)
	// EndCall is called once per call, after its last attempt and whatever
	// the SDK did to settle its outcome (a reconciled retry, a create's
	// recovery), with the context StartCall returned. A deploy step that
	// creates its resource names the new id here only.
	EndCall(ctx context.Context, call CallInfo, result CallResult)
}

// CallInfo names one call. Operation, Method, Path and Kind are
// low-cardinality: they never hold an id or a name, so they suit metric
// attributes; the ids and the name are given apart.
//
// A call with an empty Method sends no request itself: it is a unit of
// work of the deploy package (a run, "deploy.Apply" or "deploy.Destroy",
// or one step of it, such as "deploy.update"), whose calls run inside it,
// under the context its StartCall returned. Its Kind, Name and ids name
// the resource the step works on.
type CallInfo struct {
	// Operation is the SDK method, such as "Services.Create" or
	// "ReplicaSets.Delete", or the deploy package's unit of work.
	Operation string
	// Method is the HTTP method; "" for a unit of work of the deploy
	// package.
	Method string
	// Path is the path template after the base URL, ids as placeholders:
	// "/projects/{project_id}/services/{service_id}/start"; "" for a unit
	// of work.
	Path string
	// Kind is the kind of resource the call is about: KindService for the
	// calls on a project's services (their metrics included),
	// KindReplicaSet for those on a service's replica sets, KindVPC and
	// KindPeering for a project's VPCs and their peerings, KindProject for
	// the identity and projects; a deploy step's resource (a fork is
	// KindFork there).
	Kind ResourceKind
	// Name is the name of a deploy step's resource; "" for API calls,
	// which name resources by id.
	Name string
	// The ids of the call's path, or of a step's resource; "" where there
	// is none.
	ProjectID, ServiceID, ReplicaSetID string
	VPCID, PeeringID                   string
	// Serves holds, for a read a poller shares among waits (see
	// "Polling" in the package documentation), the context of each wait
	// it serves: the read runs under the poller's context, so its span can
	// link to each caller's instead of having one as its parent.
	Serves []context.Context
}

// AttemptInfo is what one attempt got.
type AttemptInfo struct {
	// Attempt counts from 1.
	Attempt int
	// StatusCode is the answer's HTTP status; 0 when no answer came.
	StatusCode int
	// RequestID is the answer's X-Request-Id, if the server sent one.
	RequestID string
	// Duration is the attempt's own time, from sending to its answer or
	// failure.
	Duration time.Duration
	// Err is why the attempt failed (an *APIError, a network error, a
	// timeout of the attempt); nil for a usable 2xx.
	Err error
	// Retry reports that another attempt follows; RetryReason says why
	// ("status 503", "network error", "attempt timeout", ...).
	Retry       bool
	RetryReason string
}

// CallResult is how a call ended.
type CallResult struct {
	// Attempts is how many attempts were sent.
	Attempts int
	// StatusCode is the last answer's HTTP status; 0 when none came.
	StatusCode int
	// RequestID is the last answer's X-Request-Id, if any.
	RequestID string
	// Duration is the whole call's time.
	Duration time.Duration
	// Err is what the caller got; nil on success.
	Err error
}
