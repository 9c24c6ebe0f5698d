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
// A non-2xx response is an *APIError with the status, the API's code,
// message and details, and the X-Request-Id to quote to support. Branch on it
// with errors.Is and the sentinels (ErrNotFound, ErrConflict, ...) or read it
// with errors.As. Invalid input is a *ValidationError returned before anything
// is sent. A 2xx response that cannot be decoded is a *ResponseError.
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
//     on 429, 500, 502, 503 and 504; a GET whose 2xx body was lost is read
//     again.
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
// WithAttemptTimeout (DefaultAttemptTimeout, 30 s).
//
// How many retries. Backoff is exponential with full jitter between the
// WithRetryWait bounds (by default 500 ms to 30 s); a Retry-After on 429 and
// 503 is honoured, and one longer than the longest wait is returned to the
// caller (APIError.RetryAfter) instead of slept. Without a deadline a request
// is retried at most WithRetryMax times (DefaultRetryMax, 4). With a
// deadline the time decides instead of the count: a request is retried
// while the deadline leaves time after the backoff, which is shortened to at
// most half of what is left; a Retry-After, which cannot be shortened, is
// slept when at least 250 ms remain after it, else its 429 or 503 is
// returned at once. WithRetryMax(0) still turns retries off.
//
// Every retry also draws on the Client's retry budget (WithRetryBudget), a
// token bucket shared by all goroutines of the Client that holds
// DefaultRetryBudget (100) retries: a retry costs one (two after a timeout),
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
// candidates.
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
// with a *WaitError, on a status named by WithStopStatuses (ErrStopStatus),
// on an error of a WithServiceCondition or WithReplicaSetCondition, and on
// what cannot lead to the wanted status (ErrNotFound, ErrUnexpectedStatus, a
// 4xx other than 429). A 404 in the first DefaultCreatedGrace of a wait
// given WithJustCreated or WithCreated is polled through. A wait returns a
// fresh read, which never carries InitialPassword: WithCreated(svc) keeps
// the one Create returned. ServicesClient.WaitForAll waits for many
// services and says which reached the status, which failed and why, and
// which were still pending.
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
// waits, and a read starts no sooner than the shortest first interval
// after the previous one ended.
// A wait is handed only reads sent after it joined. A 429 or 503 with
// Retry-After holds every wait of the poller until it has passed. A wait
// that joins late or leaves (done, cancelled, timed out) changes nothing
// for the others; the poller's goroutine ends with its last wait.
// WithoutSharedPolling makes a wait read alone. The reads are sent with
// the poller's own context, with the earliest deadline of the waits they
// serve, so that the attempt rule (see Retries) cuts a held read with time
// left for a retry: a wait's context ends that wait at once, but its values
// (a trace span) do not reach the reads.
//
// # Read-only clients
//
// WithReadOnly refuses every change before sending it, with an error
// matching ErrReadOnly; WithReadOnlyProd refuses changes to services tagged
// PROD. Reads, logs and waits work as before.
//
// # Ensure steps
//
// A deploy that can run again and again is made of steps that read first
// and change only what differs. ServicesClient.CreateUnlessExists returns
// the project's live service with the requested name, or creates it, and
// says which (created); a found service carries no InitialPassword, which
// only the create that made it returned. EnsurePooler, EnsureVPC,
// EnsureEnvironment, EnsureHA and EnsureSize (and the ReplicaSetsClient's
// CreateUnlessExists, EnsurePooler, EnsureEnvironment and EnsureSize) read
// the resource and send a change only when it is not already as asked, and
// report whether they sent one (changed): a second run of a deploy sends
// only reads. Sizes and HA are applied asynchronously: wait for READY (or
// active) before the next step.
//
// Two deployers may run at once: a step whose change is answered 409
// because the other deployer's change landed first reads again and reports
// no change and no error when the resource is now as asked. Names are not
// unique and the API has no idempotency key, so two deployers can both
// create a service with one name; a later CreateUnlessExists then returns a
// *DuplicateNameError (ErrDuplicateName) naming both rather than picking
// one. Run the deploys of one project one at a time.
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
// observer nothing is measured and nothing is spent. The module
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
