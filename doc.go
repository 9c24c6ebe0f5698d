// Package dbcloud is a typed client for the hosted database service
// management API: services (time-series, Postgres, vector), read replica
// sets, VPCs, peerings, metric series (a preview) and identity. Each
// operation does one thing; the package github.com/dbcloud/dbcloud-go/deploy converges on a desired state.
//
// # Getting started
//
// NewClient(apiKey, WithBaseURL(url)) makes a Client; NewClientFromEnv reads
// the credentials, DBCLOUD_BASE_URL and DBCLOUD_PROJECT_ID from the
// environment. A Client is safe for concurrent use: create one and share it.
// A created service's InitialPassword is sent once: keep it.
// Client.ResolveProjectID finds a project-scoped credential's project.
//
// # Credentials
//
// NewClient sends an API key as a Bearer token. NewClientWithCredentials
// takes an APIKey, a PersonalAccessToken (HTTP Basic) or BearerTokens (from a
// TokenSource, refreshed before they expire and once after a 401).
//
// # Errors
//
// A call's error is one of these kinds and keeps status, code, message and
// request id; a failure after an error answer (a timeout after a 503) wraps
// that *APIError too. Branch with errors.Is on the sentinel, or errors.As.
//
//	error               matches                             what to do
//	*ValidationError    (errors.As)                         fix the input: nothing was sent
//	*APIError, 400      ErrBadRequest                       fix the request (Code, Message)
//	*APIError, 401/403  ErrUnauthorized/ErrForbidden        check the credentials and their rights
//	*APIError, 404      ErrNotFound                         the resource is gone: do not retry
//	*APIError, 409      ErrConflict                         read the resource: its state forbids the call
//	*APIError, 429      ErrRateLimited                      retries failed: wait RetryAfter, call again
//	*APIError, 5xx      ErrServer                           retries failed: call again later
//	*ResponseError      ErrInvalidResponse                  a 2xx body lost or unusable: for a change,
//	                    (ErrResponseTooLarge: > 32 MiB)     read the resource
//	*MaybeCreatedError  ErrMaybeCreated                     list before creating again (WithCreateRecovery)
//	attempt timed out   ErrAttemptTimeout (a net.Error)     the server held the last attempt: call again
//	context ended       context.Canceled, DeadlineExceeded  the caller's own context: nothing to retry
//	network error       *net.OpError, *net.DNSError...      the host could not be reached: call again later
//	*ReadOnlyError      ErrReadOnly                         the client may not make this change
//	*WaitError          its Err (ErrStopStatus, ...)        the wanted status was not reached: see LastStatus
//
// # Retries
//
// Every request but a create (Services.Create, Services.Fork,
// ReplicaSets.Create, VPCs.Create, Peerings.Create) is safe to repeat, and is
// retried on network errors, timed-out attempts, 429, 500, 502, 503 and 504;
// a read's (a GET's, Metrics.Query's) lost or malformed 2xx body is read
// again. A create is retried only on 429 and on connection errors from before
// it was sent: once it may have acted, a second create can make a second,
// billed resource.
//
// A safe request's attempt may use half of the context's time left (at least
// 500 ms, at most WithAttemptTimeout); a create's has the whole deadline,
// unless WithCreateRecovery needs the rest. Without a deadline every attempt
// has WithAttemptTimeout (30 s). One so ended fails with ErrAttemptTimeout.
//
// Backoff is exponential with full jitter within WithRetryWait (500 ms to
// 30 s), at most half of the time left. A Retry-After (429, 503) is slept,
// unless it exceeds the longest wait or leaves under 250 ms: then it is
// returned (APIError.RetryAfter). WithRetryMax(n) caps retries at n (0:
// none); by default, DefaultRetryMax (4) without a deadline, up to 100 while
// the deadline leaves time. Retries draw on the Client's budget
// (WithRetryBudget, 100; a retry costs 1, 2 after a timeout; a first-try
// success earns a fifth back, a later one what its retries cost): when it is
// empty, failures are not retried. A cancelled context stops at once. Measured: https://github.com/dbcloud/dbcloud-go/blob/main/docs/faults.md
//
// # Under faults
//
// A failure never hides work that happened: a safe request's retry answered
// 404 or 409 because an earlier attempt did the work (a service already DELETING)
// succeeds, a first attempt's own 404 or 409 is returned; a lost 2xx body to
// start, stop, resize or setHA proves the change, and the service is read.
//
// A create that may have reached the API fails with ErrMaybeCreated; any
// other failed create made nothing. WithCreateRecovery lists before and
// after, and returns the one new resource with the name (a service with a new
// password), or, once the settle period (WithCreateSettle) passed with
// nothing new, sends again (5 sends at most), or reports the candidates
// (MaybeCreatedError.IDs); a failing list is tried again in up to 5 rounds
// (without a deadline; with one, its own retries use the time) or until the
// settle period is over. With no time to settle it lists once. See https://github.com/dbcloud/dbcloud-go/blob/main/docs/faults.md
//
// # Waiting
//
// WaitForReady polls until the API reports READY; WaitForConnectable, until
// the database answers too. A wait ends by its timeout (WithWaitTimeout, else
// the context's deadline, else an hour), and at once, with a *WaitError, on a
// WithStopOn status, a WithCondition error, or what cannot lead to the wanted
// status (ErrNotFound, ErrUnexpectedStatus, a 4xx but 429); network errors,
// 5xx and 429 are polled through. Give it WithCreated after a create;
// ServicesClient.WaitForAll waits for many.
//
// # Polling
//
// Concurrent waits of one Client on one project's services (one service's
// replica sets, one VPC's peerings) share one List per tick, under a context
// with their earliest deadline (CallInfo.Serves); a wait alone GETs. Each
// wait keeps its delays (WithPollInterval, else WithDefaultPollInterval): a
// jitter, then growing 1.5 to 2 times; none is read less often than alone
// or handed a read sent before it joined. A Retry-After holds them all; the
// poller's goroutine ends with its last wait. Measured:
// https://github.com/dbcloud/dbcloud-go/blob/main/docs/performance.md#waiting-on-many-services
//
// # Logs
//
// ListLogs reads a page (newest first) and its cursor, AllLogs every entry,
// TailLogs the newest n (oldest first) and the LogPosition after them;
// FollowLogs yields new entries, from now, Since or a position. A cursor
// holds only in its window; a read without Until or Cursor fixes Until after
// its first page, so none comes twice. The API leaves open how Search terms
// match.
//
// Cost: one request a page (the newest n: 1 up to 500, else ceil(n/500)+1 at
// most); a follow's poll one, 2k-2 when k ≥ 2 pages are new. Memory: a page
// (TailLogs also n entries; FollowLogs two pages, its walk back bounded by
// ErrFollowBacklog); a
// cycling server ends the read (ErrRepeatedCursor) within three times its
// distinct requests. See https://github.com/dbcloud/dbcloud-go/blob/main/docs/logs.md
//
// # Read-only clients
//
// WithReadOnly refuses every change, WithReadOnlyProd changes to services
// tagged PROD, before sending, with an error matching ErrReadOnly.
//
// # Observers
//
// WithObserver's Observer is told about every call and attempt, and the
// contexts it returns are theirs, so spans nest; waits' shared reads
// (CallInfo.Serves) and deploy's units (CallInfo.Unit) are calls too. The
// module github.com/dbcloud/dbcloud-go/otel implements it with OpenTelemetry.
//
// # Testing
//
// The package dbcloudtest runs a model of the API in a test, as httptest runs
// a server, with a clock the test moves and injected faults.
//
// # Secrets
//
// Credentials are sent only in the Authorization header, and only to the base
// URL's scheme and host. No key, secret or token appears in an error, a log
// record or fmt output; passwords are Secret values, printed as "[redacted]".
package dbcloud
