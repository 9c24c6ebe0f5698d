package dbcloud

import (
	"context"
	"time"
)

// Observer is told about every call and attempt, for tracing and metrics
// (see Observers in the package documentation; module
// github.com/dbcloud/dbcloud-go/otel implements it). Set it with
// WithObserver. Its methods run on the call's goroutine and path, in the
// order StartCall, StartAttempt/EndAttempt per attempt, EndCall; they must
// be safe for concurrent use and return quickly.
type Observer interface {
	// StartCall runs before anything is sent; the call then uses the
	// context it returns (return ctx to keep it).
	StartCall(ctx context.Context, call CallInfo) context.Context
	// StartAttempt runs before each attempt (from 1); returns its context.
	StartAttempt(ctx context.Context, call CallInfo, attempt int) context.Context
	// EndAttempt runs once the attempt's outcome is known.
	EndAttempt(ctx context.Context, call CallInfo, attempt AttemptInfo)
	// EndCall runs after the last attempt and any settling of the outcome
	// (reconciled retry, create recovery). A deploy step that creates its
	// resource names the new id here only.
	EndCall(ctx context.Context, call CallInfo, result CallResult)
}

// CallInfo names one call. Operation, Method, Path and Kind never hold an
// id or a name, so they suit metric attributes.
type CallInfo struct {
	// Operation is the SDK method ("Services.Create") or deploy unit.
	Operation string
	// Unit reports a deploy run or step ("deploy.Apply", "deploy.update"),
	// not an API call: no Method or Path; its calls run under its context.
	Unit   bool
	Method string
	// Path is the template after the base URL, ids as placeholders:
	// "/projects/{project_id}/services/{service_id}/start".
	Path string
	// Kind is the resource the call is about (metrics: KindService;
	// identity and projects: KindProject; a deploy fork step: KindFork).
	Kind ResourceKind
	// Name is a deploy step's resource name; "" for API calls.
	Name string
	// The ids of the path or step's resource; "" where none.
	ProjectID, ServiceID, ReplicaSetID string
	VPCID, PeeringID                   string
	// Serves holds, for a poller's shared read (see Polling in the package
	// documentation), the context of each wait served, for span links.
	Serves []context.Context
}

// AttemptInfo is what one attempt (counted from 1) got. StatusCode is 0
// when no answer came; RequestID is the X-Request-Id, if sent; Duration is
// from sending to answer or failure; Err is nil for a usable 2xx.
type AttemptInfo struct {
	Attempt    int
	StatusCode int
	RequestID  string
	Duration   time.Duration
	Err        error
	// Retry reports another attempt follows; RetryReason says why
	// ("status 503", "network error", "attempt timeout", ...).
	Retry       bool
	RetryReason string
}

// CallResult is how a call ended: attempts sent, the last answer's status
// (0 if none) and X-Request-Id, the whole call's time, and the error the
// caller got (nil on success).
type CallResult struct {
	Attempts   int
	StatusCode int
	RequestID  string
	Duration   time.Duration
	Err        error
}
