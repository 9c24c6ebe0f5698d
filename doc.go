// Package dbcloud is a typed client for the hosted database service
// management API: time-series, Postgres and vector database services, their
// lifecycle, sizing, high availability, pooling, VPC attachment, forks, logs
// and read replica sets.
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
// concurrent use; create one and share it.
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
//     (start, stop, resize, setHA, the pooler, VPC, password and environment
//     calls). Retried on network errors, on an attempt that timed out, and
//     on 429, 500, 502, 503 and 504; a GET whose 2xx body was lost, cut
//     off or malformed is read again.
//   - Creating: Services.Create, Services.Fork and ReplicaSets.Create.
//     Retried only on 429 and on connection errors from before the request
//     was sent, never once it may have acted (a 5xx, a timeout or a reset
//     after sending, a lost answer): a second create can make a second,
//     billed resource.
//
// How long one attempt may take. With a deadline on the context, an attempt
// of a safe request may use half of the time left, but at least 500 ms (all
// that is left, when less), and at most WithAttemptTimeout: a held
// connection costs one attempt, and the other half is there for a retry. A
// create's attempt is not cut short: its answer may still come, and cutting
// it would turn a sure answer into ErrMaybeCreated; it has the whole
// deadline. With WithCreateRecovery a create follows the rule of safe
// requests instead, since recovery needs the time kept back to find out
// what happened. Without a deadline, every attempt is bounded by
// WithAttemptTimeout (DefaultAttemptTimeout, 30 s). An attempt that its
// timeout ends fails with ErrAttemptTimeout.
//
// How many retries. Backoff is exponential with full jitter between the
// WithRetryWait bounds (by default 500 ms to 30 s); a Retry-After on 429 and
// 503 is honoured, and one longer than the longest wait is returned to the
// caller (APIError.RetryAfter) instead of slept. WithRetryMax(n) caps the
// retries of every request at n, with or without a deadline, and
// WithRetryMax(0) turns them off. Without it, a request with no deadline
// is retried at most DefaultRetryMax (4) times, and a request with a
// deadline while the deadline leaves time after the backoff (which is
// shortened to at most half of what is left), up to 100 times; a
// Retry-After, which cannot be shortened, is slept when at least 250 ms
// remain after it, else its 429 or 503 is returned at once.
//
// Every retry also draws on the Client's retry budget (WithRetryBudget), a
// token bucket shared by all goroutines of the Client that holds
// 100 retries: a retry costs one (two after a timeout),
// a call that succeeds at its first attempt earns a fifth of one back, and a
// call that succeeds after retries gives back what they cost. When it is
// empty, failures are returned without a retry: an outage costs the API one
// attempt per call, not five.
//
// A cancelled context stops at once, also during a backoff.
//
// # Under faults
//
// A failure never hides work that happened. A safe request whose earlier
// attempt may have acted, and whose retry is answered 404 or 409 because
// that attempt did the work (a service already DELETING, already RESUMING,
// a pooler already on...), succeeds; a first attempt's own 404 or 409 is
// returned as it is. A 2xx to start, stop, resize or setHA whose body was lost
// proved the request took effect: the service is read with a GET and
// returned.
//
// A create that failed after its request may have reached the API returns an
// error matching ErrMaybeCreated: the resource may exist. Any other failed
// create made nothing (ErrRateLimited included), and creating again is safe.
// With WithCreateRecovery the SDK resolves ambiguous creates itself: it lists
// before sending and after the failure, returns the one new resource with the
// requested name (with a new password, since the answer carrying the initial
// one was lost), or sends the create again once the settle period
// (WithCreateSettle) has passed with nothing new, or reports several
// candidates. Its rounds have their own bounds, apart from WithRetryMax
// (which bounds the retries of each list and each send): a create is sent
// at most 5 times, and a failing list is tried 5 times. What recovery met
// when it could not resolve a create (a list that failed, say) is in the
// *MaybeCreatedError's Recovery field and message, never in its chain:
// errors.Is and errors.As reach the create's own cause only. Recovery
// finishes the user's create: on
// a WithReadOnlyProd client, setting the found service's new password is
// part of the create the guard let through, and is not refused.
//
// When the settle period cannot end before the context's deadline, recovery
// lists once and returns at once: the resource it found, or the
// *MaybeCreatedError.
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
// (ErrNotFound, ErrUnexpectedStatus, a 4xx other than 429). A wait given
// WithCreated (the resource a create returned) polls through a 404 in its
// first 30 s, and a service wait returns the create's InitialPassword,
// which reads never carry. WithProgress reports each poll, naming the
// resource. ServicesClient.WaitForAll waits for many services and says
// which reached the status, which failed and why, and which were still
// pending.
//
// # Polling
//
// Concurrent waits of one Client share their reads: the waits on services
// of one project share a poller, and so do the waits on the replica sets of
// one service. One wait alone reads its service with a GET; two or more
// read the project with one List per tick and each takes its service from
// it. Each wait keeps its own delays: WithPollInterval's, or else the
// client's (WithDefaultPollInterval, by default DefaultPollMin to
// DefaultPollMax). The first is first, each next one grows by a random
// factor between 1.5 and 2, up to longest, and each is jittered, the first
// one too: below a quarter of the first interval, 250 ms and a tenth of the
// wait's timeout. The poller reads when the earliest wait is due and hands
// the read to every wait, so the tick is the shortest interval among the
// waits. A wait's first read comes after its jitter, as it would alone,
// whatever the poller read just before; only a read still in flight when
// the wait is due holds it, until that read ends. After that, a wait's
// delays run from the end of the read it handled, so once every wait has
// had its first read, a read starts no sooner than the shortest first
// interval after the previous one ended.
// A wait is handed only reads sent after it joined. A 429 or 503 with
// Retry-After holds every wait of the poller until it has passed. A wait
// that joins late or leaves (done, cancelled, timed out) changes nothing
// for the others; the poller's goroutine ends with its last wait, and the
// pollers belong to their Client: nothing is shared between Clients.
//
// A wait alone reads under its own context: the values the caller put in
// it (a trace span, say) reach each read, and the reads are children of
// the caller's span. A read shared by several waits runs under the
// poller's own context, with the earliest deadline of the waits it serves,
// so that the attempt rule (see Retries) cuts a held read with time left
// for a retry; a wait's context ends that wait at once. The Observer is
// told, for each shared read, the context of every wait it serves
// (CallInfo.Serves).
//
// # Logs
//
// Four methods read a service's log, all with LogOptions: ListLogs reads one
// page (at most MaxLogPage, 500 entries, newest first) and its cursor;
// AllLogs yields every entry, newest first, fetching pages lazily; TailLogs
// returns the newest n, oldest first, and the LogPosition just after them;
// FollowLogs yields new entries oldest first as they are written, like
// tail -f, from now, from Since, or just after a position (After), also one
// stored by an earlier run. Each field of LogOptions says which of them use
// it; a field set for a method that does not use it is a *ValidationError,
// never ignored.
//
// Filters. The API document says: search takes full-text terms, one query
// parameter per term; severities the levels to keep, one parameter per
// level; node a node of a multi-node service; since and until bound the
// time. It does not say whether a term matches regardless of case, as a
// word or as any part of the text, or whether an entry must match every
// term or one of them; nor whether since includes its own instant (the SDK
// is right either way). dbcloudtest keeps an entry that contains every
// term, regardless of case. Code that depends on exact matching should
// check the entries it gets (strings.Contains on Message). MinSeverity is
// sent as the levels from it up, in upper case (see Severity).
//
// One read, one window. A cursor is valid only within the window it was
// issued for, and the live service positions it relative to the window's
// newest entry. A read of several pages with neither Until nor a Cursor
// therefore fixes until after its first page, just after that page's oldest
// entry, on the server's clock: entries written during the read are not in
// it, and none comes twice. The second page reads the first page's entries
// at that instant again and drops them (so an entry written at that
// instant meanwhile is not lost).
//
// Cost. ListLogs: one request. AllLogs and TailLogs: one request a page;
// the newest n entries cost one request for n ≤ 500, and ceil((n+k)/500)
// above, where k is the number of the first page's entries at its oldest
// instant (1 unless entries share a timestamp): at most ceil(n/500)+1 (n =
// 501: 2; 1,000: 3; 2,000: 5). A break out of AllLogs after the first entry
// costs one request. FollowLogs: one request a poll while a poll finds at
// most a page of new entries; a poll that finds k ≥ 2 pages walks back to
// the last entry yielded, then reads the pages between the newest and the
// oldest again to yield them oldest first: 2k-2 requests (1,234 new lines:
// 4). Every page is a GET, retried like any other.
//
// Bounds, whatever the server sends. A page of more than 500 entries is a
// malformed answer (ErrInvalidResponse), refused before its entries are
// decoded. ListLogs holds one page. AllLogs holds one page, the request it
// sends next, a hash of each of the first page's entries at its oldest
// instant and two hashes to tell a cycle, however long the history;
// TailLogs holds that and the n entries it returns; FollowLogs
// holds two pages, its position (a hash per distinct line at the newest
// instant) and, during a poll that walks back, the cursor of each page
// walked: at most 10,000 pages and 4 MiB of cursor text,
// beyond which the follow ends with ErrFollowBacklog.
//
// Cycles. A request is its cursor and its window: the same cursor text in
// another window is another request. A read or a follow whose requests
// repeat (a server that cycles) ends with ErrRepeatedCursor: at once when
// the server hands back the cursor it was given, and in any case before it
// has sent three times as many requests as distinct ones. Telling a cycle
// keeps two hashes, not the cursors.
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
// (StartCall, EndCall: the operation, such as "Services.Create", the method,
// the path template with ids as placeholders, the ids apart) and each of its
// attempts (StartAttempt, EndAttempt: status, request id, duration, whether
// a retry follows and why). The contexts StartCall and StartAttempt return
// are the call's and the attempt's, so a span started there is the parent of
// what the request does. The methods run on the calling goroutine, must be
// safe for concurrent use and should return quickly. Operation and path
// templates never hold an id, so they suit metric attributes. Without an
// observer nothing is measured and nothing is spent. The reads of waits
// are calls too: a lone wait's under its caller's context, a read shared
// by several waits under the poller's own, with the contexts of the waits
// it serves in CallInfo.Serves (see Polling). The deploy package reports
// its runs and steps to the Client's Observer as calls that send nothing
// themselves (CallInfo), so that its calls are inside them. The module
// github.com/dbcloud/dbcloud-go/otel implements Observer with OpenTelemetry
// traces and metrics; the root module does not depend on OpenTelemetry.
//
// # Testing
//
// The package dbcloudtest runs a model of the API inside a test, the way
// net/http/httptest runs a server: every endpoint, statuses that move
// through the real states, the API's validation, 409s and 404s, logs with
// cursors, and endpoints that answer like PostgreSQL. Its Server.Client is
// a *Client of the server with short retry waits and polls; its clock moves
// only when the test moves it, so a test does not depend on the machine's
// speed, and it injects faults (statuses, resets before and after the
// server acted, cut-off bodies, delays) to test the error paths. Code that
// builds its own client with NewClientFromEnv reaches it after
// Server.Setenv. dbcloudtest.CheckGoroutines fails a test that leaves a
// wait or a follow running. The package's documentation is the guide.
//
// # Secrets
//
// Credentials are sent only in the Authorization header, and only to the
// API's host. No key, secret or token ever appears in an error, a log record
// or the fmt output of any value of this package.
// Passwords are Secret values, which print, log and encode as "[redacted]".
package dbcloud
