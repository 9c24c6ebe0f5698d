// Package dbcloud is a typed client for the hosted database service
// management API: time-series, Postgres and vector database services, their
// lifecycle, sizing, high availability, pooling, VPC attachment, forks, logs
// and read replica sets; a project's VPCs and their peering connections; a
// service's metric series (a preview of the API); and who the credentials
// belong to.
//
// # Getting started
//
//	client, err := dbcloud.NewClient(apiKey, dbcloud.WithBaseURL("https://api.example.com/v1"))
//	if err != nil {
//		return err
//	}
//	svc, err := client.Services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{
//		Name:   "metrics",
//		Addons: []dbcloud.Addon{dbcloud.AddonTimeSeries},
//	})
//	if err != nil {
//		return err
//	}
//	password := string(svc.InitialPassword) // sent once: keep it
//
// NewClientFromEnv reads the credentials, DBCLOUD_BASE_URL and
// DBCLOUD_PROJECT_ID from the environment instead. A Client is safe for
// concurrent use; create one and share it. Methods take the project id as
// an argument: Client.ResolveProjectID finds the project of credentials
// scoped to one (a personal access token's) when none was configured.
//
// # Credentials
//
// NewClient sends an API key as a Bearer token. NewClientWithCredentials
// takes any of the three kinds: APIKey, PersonalAccessToken (HTTP Basic) and
// BearerTokens (expiring tokens from a TokenSource, refreshed before they
// expire and once after a 401). Whatever the kind, the Authorization header
// is added only to requests for the base URL's scheme and host.
//
// # Errors
//
// Every error a call returns is one of the kinds below, and keeps what the
// caller needs (status, code, message, request id). Branch with errors.Is
// on the sentinel, or read the value with errors.As.
//
//	error                      matches                          what to do
//	*ValidationError           (errors.As)                      fix the input: nothing was sent
//	*APIError, 400             ErrBadRequest                    fix the request; Code and Message say what
//	*APIError, 401             ErrUnauthorized                  check the credentials
//	*APIError, 403             ErrForbidden                     use a key allowed to do this
//	*APIError, 404             ErrNotFound                      the resource is gone: do not retry
//	*APIError, 409             ErrConflict                      read the resource: its state forbids the call now
//	*APIError, 429             ErrRateLimited                   retries did not ride it out: wait RetryAfter, then call again
//	*APIError, 5xx             ErrServer                        retries did not ride it out: call again later
//	*ResponseError             ErrInvalidResponse               a 2xx whose body was lost or unusable; for a
//	                           (ErrResponseTooLarge over 32 MiB) change, the API accepted it: read the resource
//	*MaybeCreatedError         ErrMaybeCreated                  a create may have made the resource: list before
//	                                                            creating again, or use WithCreateRecovery
//	attempt timed out          ErrAttemptTimeout, a net.Error   the server held the last attempt past its share
//	                           with Timeout() true              of the time: call again, or give it more time
//	context ended              context.Canceled,                the caller's own context: nothing to retry
//	                           context.DeadlineExceeded
//	network error              *net.OpError, *net.DNSError...   the host could not be reached: call again later
//	*ReadOnlyError             ErrReadOnly                      the client may not make this change
//	*WaitError                 its cause: ErrNotFound,          the wait ended without the wanted status; LastStatus
//	                           ErrUnexpectedStatus,              says what was seen, Err why
//	                           ErrStopStatus, ErrNoEndpoint,
//	                           context.DeadlineExceeded...
//
// A network error, a timed-out attempt or the context's end that follows
// an error answer (a 503 during the backoff, say) wraps that *APIError
// too ("last response"), so errors.As still reaches it. An error never
// holds a credential or a password: see Secrets.
//
// # Retries
//
// This is the retry rule; the rest of the documentation links here.
//
// Every request is one of two kinds:
//
//   - Safe to repeat: every GET and DELETE, and the POSTs that set state
//     (start, stop, resize, setHA, rename, the pooler, VPC, password and
//     environment calls) or read (Metrics.Query). Retried on network errors, on an attempt that timed out, and
//     on 429, 500, 502, 503 and 504; a GET (or Metrics.Query) whose 2xx
//     body was lost, cut off or malformed is read again.
//   - Creating: Services.Create, Services.Fork, ReplicaSets.Create,
//     VPCs.Create and Peerings.Create.
//     Retried only on 429 and on connection errors from before the request
//     was sent, never once it may have acted (a 5xx, a timeout or a reset
//     after sending, a lost answer): a second create can make a second,
//     billed resource.
//
// How long one attempt may take. With a deadline on the context, an attempt
// of a safe request may use half of the time left, but at least 500 ms (all
// that is left, when less), and at most WithAttemptTimeout: a held
// connection costs one attempt, and the other half is there for a retry. A
// create's attempt has the whole deadline (its answer may still come), or,
// with WithCreateRecovery, the rule of safe requests (recovery needs the
// time kept back). Without a deadline, every attempt is bounded by
// WithAttemptTimeout (DefaultAttemptTimeout, 30 s). An attempt that its
// timeout ends fails with ErrAttemptTimeout.
//
// How many retries. Backoff is exponential with full jitter between the
// WithRetryWait bounds (by default 500 ms to 30 s); a Retry-After on 429 and
// 503 is honoured, and one longer than the longest wait is returned to the
// caller (APIError.RetryAfter) instead of slept. WithRetryMax(n) caps the
// retries of every request at n; WithRetryMax(0) turns them off. Without
// it, a request with no deadline is retried at most DefaultRetryMax (4)
// times, and one with a deadline while the deadline leaves time after the
// backoff (shortened to at most half of what is left), up to 100 times; a
// Retry-After is slept when at least 250 ms remain after it, else its 429
// or 503 is returned at once. Every retry also draws on the Client's retry
// budget (WithRetryBudget), shared by all its goroutines, that holds 100
// retries: a retry costs one (two after a timeout), a first-attempt success
// earns a fifth of one back, a success after retries gives back what they
// cost. When it is empty, failures are returned without a retry: an outage
// costs the API one attempt per call, not five. A cancelled context stops
// at once, also during a backoff.
//
// # Under faults
//
// A failure never hides work that happened. A safe request whose earlier
// attempt may have acted, and whose retry is answered 404 or 409 because
// that attempt did the work (a service already DELETING, already RESUMING,
// a pooler already on...), succeeds; a first attempt's own 404 or 409 is
// returned as it is. A 2xx to start, stop, resize or setHA whose body was
// lost proved the request took effect: the service is read and returned.
//
// A create that failed after its request may have reached the API returns an
// error matching ErrMaybeCreated: the resource may exist. Any other failed
// create made nothing (ErrRateLimited included), and creating again is safe.
// With WithCreateRecovery the SDK resolves ambiguous creates itself: it lists
// before sending and after the failure, and returns the one new resource
// with the requested name (a VPC: name, CIDR and region; a peering: its
// peer's account, region and VPC; a service: with a new password, since
// the answer carrying the initial one was lost), or sends the create again once the settle
// period (WithCreateSettle) has passed with nothing new (5 sends at most),
// or reports several candidates. A failing list is tried 5 times, each
// with its own retries. When the settle period cannot end before the
// context's deadline, recovery lists once and returns at once. What
// recovery met when it could not resolve a create is in the
// *MaybeCreatedError's Recovery field and message, never in its chain:
// errors.Is and errors.As reach the create's own cause only. On a
// WithReadOnlyProd client, setting the found service's new password is part
// of the create the guard let through, and is not refused.
//
// # Waiting
//
// WaitForReady polls until the control plane reports READY; the database
// can refuse connections for a moment after that. WaitForConnectable waits
// past it, until the database answers the first steps of the PostgreSQL
// protocol (no password is sent): use it before connecting, WaitForReady
// before the next API operation.
//
// Every wait ends, at the latest, at its timeout: WithWaitTimeout, else the
// context's deadline, else DefaultWaitTimeout (an hour). It ends at once,
// with a *WaitError naming the resource (its kind, id and name), on a
// status named by WithStopOn (ErrStopStatus), on an error of a
// WithCondition, and on what cannot lead to the wanted status
// (ErrNotFound, ErrUnexpectedStatus, a 4xx other than 429); network errors,
// 5xx and 429 are polled through. A wait given WithCreated (the resource a
// create returned) polls through a 404 in its first 30 s, and a service
// wait returns the create's InitialPassword, which reads never carry.
// WithProgress reports each poll, naming the resource.
// ServicesClient.WaitForAll waits for many services and says which reached
// the status, which failed and why, and which were still pending.
//
// # Polling
//
// Concurrent waits of one Client share their reads: the waits on the
// services of one project share a poller, and so do the waits on the
// replica sets of one service. One wait alone reads its service with a GET,
// under its own context (its trace span is the parent of its reads); two or
// more read the project with one List per tick, under the poller's own
// context with the earliest deadline of the waits it serves (the observer
// is told their contexts: CallInfo.Serves), and each takes its resource
// from it. The waits on the peerings of one VPC share a poller the same
// way. A wait is handed only reads sent after it joined. Each wait
// keeps its own delays (WithPollInterval's, else the client's
// WithDefaultPollInterval, by default DefaultPollMin to DefaultPollMax):
// the first after a jitter below a quarter of the first interval (at most
// 250 ms and a tenth of the wait's timeout), each next one growing by a
// random factor between 1.5 and 2 up to the longest. The poller reads when
// the earliest wait is due, so the tick is the shortest interval among the
// waits; a wait is never read less often than it would be alone. A 429 or
// 503 with Retry-After holds every wait of the poller until it has passed.
// A wait that joins or leaves changes nothing for the others; the poller's
// goroutine ends with its last wait; nothing is shared between Clients.
//
// # Logs
//
// Four methods read a service's log, all with LogOptions: ListLogs reads one
// page (at most MaxLogPage, 500 entries, newest first) and its cursor;
// AllLogs yields every entry, newest first, fetching pages lazily; TailLogs
// returns the newest n, oldest first, and the LogPosition just after them;
// FollowLogs yields new entries oldest first as they are written, like
// tail -f, from now, from Since, or just after a position (After), also one
// stored by an earlier run. A LogOptions field set for a method that does
// not use it is a *ValidationError, never ignored. Every page is a GET,
// retried like any other.
//
// Filters. Search takes full-text terms, Severities the levels to keep
// (MinSeverity: the levels from it up), Node a node of a multi-node
// service, Since and Until bound the time. The API does not say whether a
// term matches regardless of case, as a word or as part of the text, or
// whether an entry must match every term; dbcloudtest keeps an entry that
// contains every term, in any case. Code that depends on exact matching
// should check the entries it gets.
//
// One read, one window. A cursor is valid only within the window it was
// issued for. A read of several pages with neither Until nor a Cursor
// fixes until after its first page, on the server's clock: entries written
// during the read are not in it, and none comes twice. Whether since
// includes its own instant is not documented: the SDK is right either way.
// The requests of a read, page by page, are in the repository's
// docs/wire.md.
//
// Cost. ListLogs: one request. AllLogs and TailLogs: one request a page;
// the newest n entries cost one request for n ≤ 500 and at most
// ceil(n/500)+1 above (n = 501: 2; 1,000: 3; 2,000: 5); a break out of
// AllLogs after the first entry costs one. FollowLogs: one request a poll
// while a poll finds at most a page of new entries; a poll that finds
// k ≥ 2 pages walks back to the last entry yielded and costs 2k-2 requests
// (1,234 new lines: 4).
//
// Bounds, whatever the server sends. A page of more than 500 entries is a
// malformed answer (ErrInvalidResponse), refused before it is decoded.
// ListLogs and AllLogs hold one page, however long the history; TailLogs
// that and the n entries it returns; FollowLogs two pages, its position and,
// during a poll that walks back, the cursor of each page walked: at most
// 10,000 pages and 4 MiB of cursor text, beyond which the follow ends with
// ErrFollowBacklog. A read or follow whose requests repeat (the same cursor
// in the same window: a server that cycles) ends with ErrRepeatedCursor,
// at the latest before it has sent three times as many requests as
// distinct ones.
//
// # Read-only clients
//
// WithReadOnly refuses every change before sending it, with an error
// matching ErrReadOnly; WithReadOnlyProd refuses changes to services tagged
// PROD. Reads, logs and waits work as before.
//
// # Deploying a desired state
//
// The package github.com/dbcloud/dbcloud-go/deploy brings a project to a
// desired state (a service, its replica sets and forks) with this
// package's operations: a plan says what a run would change, applying it
// makes those changes and no others, a run cut short is finished by the
// next, and a destroy plan takes it all down. It is the one place where
// the SDK converges on a state; this package's operations each do one
// thing, as the API does.
//
// # Observers
//
// WithObserver gives the Client an Observer, told about every call
// (StartCall, EndCall) and each of its attempts (StartAttempt, EndAttempt),
// on the calling goroutine; the contexts StartCall and StartAttempt return
// are the call's and the attempt's, so a span started there is the parent
// of what the request does. Without an observer nothing is measured and
// nothing is spent. The reads of waits are calls too (see Polling), and the
// deploy package reports its runs and steps as calls that send nothing
// themselves, so that its calls are inside them. The module
// github.com/dbcloud/dbcloud-go/otel implements Observer with OpenTelemetry
// traces and metrics; the root module does not depend on OpenTelemetry.
//
// # Testing
//
// The package dbcloudtest runs a model of the API inside a test, the way
// net/http/httptest runs a server: every endpoint, statuses that move
// through the real states, the API's validation, 409s and 404s, logs with
// cursors, endpoints that answer like PostgreSQL, a clock that moves only
// when the test moves it, and injected faults. Its documentation is the
// guide.
//
// # Secrets
//
// Credentials are sent only in the Authorization header, and only to the
// API's host. No key, secret or token ever appears in an error, a log record
// or the fmt output of any value of this package.
// Passwords are Secret values, which print, log and encode as "[redacted]".
package dbcloud
