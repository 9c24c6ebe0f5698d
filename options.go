package dbcloud

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
)

// readOnlyMode is what a read-only client refuses.
type readOnlyMode int

const (
	readWrite    readOnlyMode = iota
	readOnlyAll               // WithReadOnly
	readOnlyProd              // WithReadOnlyProd
)

// Environment variables read by NewClientFromEnv (its documentation names
// them for users). Each secret may instead be read from a file named by
// the variable with _FILE appended (such as
// DBCLOUD_API_KEY_FILE=/run/secrets/dbcloud), for secrets mounted as files;
// setting both a variable and its _FILE form is an error.
const (
	envAPIKey    = "DBCLOUD_API_KEY"    // an API key, sent as Bearer
	envPublicKey = "DBCLOUD_PUBLIC_KEY" // a personal access token's public half
	envSecretKey = "DBCLOUD_SECRET_KEY" // a personal access token's secret half
	envBaseURL   = "DBCLOUD_BASE_URL"   // the API's base URL, ending in /v1
	envProjectID = "DBCLOUD_PROJECT_ID" // the project, returned by Client.ProjectID

	// envFileSuffix turns a secret's variable into the one naming a file
	// that holds it: DBCLOUD_API_KEY_FILE, DBCLOUD_SECRET_KEY_FILE.
	envFileSuffix = "_FILE"
)

// Option configures a Client in NewClient or NewClientFromEnv.
type Option func(*clientConfig)

type clientConfig struct {
	baseURL      string
	httpClient   *http.Client
	userAgent    string
	retryMax     int
	retryMaxSet  bool // WithRetryMax was given: its count bounds every call
	retryWaitMin time.Duration
	retryWaitMax time.Duration
	logger       *slog.Logger
	recovery     bool
	settle       time.Duration
	observer     Observer
	attempt      time.Duration // WithAttemptTimeout
	budget       int           // WithRetryBudget
	projectID    string
	readOnly     readOnlyMode
	pollFirst    time.Duration // WithDefaultPollInterval
	pollLongest  time.Duration
	followWalk   int // 0: maxFollowWalk; set only by this package's tests
}

// Defaults of the retry policy: up to 4 retries, waits from 500 ms to 30 s;
// see "Retries" in the package documentation.
const (
	DefaultRetryMax     = 4
	DefaultRetryWaitMin = 500 * time.Millisecond
	DefaultRetryWaitMax = 30 * time.Second
)

// check refuses options that cannot work, before anything is sent.
func (c *clientConfig) check() error {
	switch {
	case c.retryMax < 0:
		return invalid("retryMax", "must be 0 or more")
	case c.settle < 0:
		return invalid("createSettle", "must not be negative")
	case c.retryWaitMin < 0 || c.retryWaitMax < c.retryWaitMin:
		return invalid("retryWait", "want 0 <= min <= max")
	case c.attempt < 0:
		return invalid("attemptTimeout", "must not be negative")
	case c.budget < 0:
		return invalid("retryBudget", "must be 0 (off) or more")
	case strings.ContainsFunc(c.userAgent, pipeline.IsControl):
		return invalid("userAgent", "contains control characters")
	}
	return checkPollInterval("defaultPollInterval", c.pollFirst, c.pollLongest)
}

// DefaultPollMin and DefaultPollMax are a client's delays between the polls
// of its waits unless WithDefaultPollInterval sets others; see "Polling" in
// the package documentation.
const (
	DefaultPollMin = time.Second
	DefaultPollMax = 10 * time.Second
)

func defaultConfig() clientConfig {
	return clientConfig{
		retryMax:     DefaultRetryMax,
		retryWaitMin: DefaultRetryWaitMin,
		retryWaitMax: DefaultRetryWaitMax,
		settle:       DefaultCreateSettle,
		attempt:      DefaultAttemptTimeout,
		pollFirst:    DefaultPollMin,
		pollLongest:  DefaultPollMax,
		budget:       defaultRetryBudget,
	}
}

// WithBaseURL sets the API's base URL, ending in /v1, such as
// "https://api.example.com/v1". There is no default: the SDK never guesses
// where to send a key. Plain http:// is accepted only for loopback hosts.
func WithBaseURL(baseURL string) Option {
	return func(c *clientConfig) { c.baseURL = baseURL }
}

// WithHTTPClient sets the http.Client used for each attempt. The SDK does not
// modify it: it adds its redirect policy (no Authorization to another host,
// no downgrade to http) to a shallow copy. The default client keeps up to
// 1,024 idle connections to the API's host (net/http's: 2), for goroutines
// sharing a Client; attempts are bounded by WithAttemptTimeout, not by an
// http.Client Timeout.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *clientConfig) { c.httpClient = hc }
}

// WithUserAgent prepends product (such as "my-deployer/1.2") to the
// User-Agent "dbcloud-go/<version>".
func WithUserAgent(product string) Option {
	return func(c *clientConfig) { c.userAgent = product }
}

// WithRetryMax caps how many times a failed request is retried after the
// first attempt, whether or not its context has a deadline; 0 disables
// retries. Without it, a request is retried at most DefaultRetryMax times
// when its context has no deadline, and while the deadline leaves time when
// it has one. It bounds the retries of each request, not the rounds of
// create recovery (see "Under faults"). See "Retries" in the package
// documentation for the whole rule.
func WithRetryMax(n int) Option {
	return func(c *clientConfig) { c.retryMax, c.retryMaxSet = n, true }
}

// WithRetryWait sets the bounds of the exponential backoff between retries:
// the first wait is at least shortest, and no wait is longer than longest. A
// Retry-After longer than longest is not slept: the *APIError is returned with
// RetryAfter set.
func WithRetryWait(shortest, longest time.Duration) Option {
	return func(c *clientConfig) { c.retryWaitMin, c.retryWaitMax = shortest, longest }
}

// WithLogger sets the logger for request attempts (method, path, status,
// attempt, duration, at debug level). Headers and bodies are never logged.
// A nil logger, like no option, means silence.
func WithLogger(l *slog.Logger) Option {
	return func(c *clientConfig) { c.logger = l }
}

// DefaultCreateSettle is how long, by default, create recovery lets an
// ambiguous create's request land before it concludes that the request was
// lost and sends it again.
const DefaultCreateSettle = 5 * time.Second

// WithCreateRecovery makes Services.Create, Services.Fork,
// ReplicaSets.Create, VPCs.Create and Peerings.Create resolve a failure after which the resource may exist
// (ErrMaybeCreated) instead of returning it, by listing before and after,
// as "Under faults" in the package documentation says; a recovered service
// comes back with a new InitialPassword. Without it nothing is listed and
// the error is returned.
func WithCreateRecovery() Option {
	return func(c *clientConfig) { c.recovery = true }
}

// WithCreateSettle sets the settle period of WithCreateRecovery: how long
// after an ambiguous create's request was sent it may still land on the
// server (held by a proxy or a queue). Until then, a list without the new
// resource proves nothing. The default is DefaultCreateSettle; the caller's
// context bounds it in any case.
func WithCreateSettle(d time.Duration) Option {
	return func(c *clientConfig) { c.settle = d }
}

// DefaultAttemptTimeout bounds one attempt of a call whose context has no
// deadline. Every API operation answers in well under a second, a create in
// a few; 30 s leaves room for a slow link and a loaded server while keeping
// an unattended script from hanging on a held connection.
const DefaultAttemptTimeout = 30 * time.Second

// WithAttemptTimeout sets how long one attempt may take when the call's
// context has no deadline (DefaultAttemptTimeout by default); 0 leaves such
// attempts unbounded. With a deadline, the rule of "Retries" in the package
// documentation applies, and d caps it.
func WithAttemptTimeout(d time.Duration) Option {
	return func(c *clientConfig) { c.attempt = d }
}

// defaultRetryBudget is the number of retries a Client allows in a row
// when every attempt fails, the same as the AWS SDK v2's default retry quota.
const defaultRetryBudget = 100

// WithRetryBudget sets the client-wide retry budget: how many retries all
// goroutines of the Client together may send while every attempt fails
// (100 by default); successes earn it back. It keeps an
// outage from turning into a retry storm. 0 turns the budget off. See
// "Retries" in the package documentation.
func WithRetryBudget(retries int) Option {
	return func(c *clientConfig) { c.budget = retries }
}

// WithDefaultPollInterval sets the delays between the polls of every wait of
// the client that is not given WithPollInterval (see "Polling" in the
// package documentation); the default is DefaultPollMin to DefaultPollMax.
// Short delays also make a wait's first check prompt (its jitter is below
// a quarter of first), as a client of a test server wants.
func WithDefaultPollInterval(first, longest time.Duration) Option {
	return func(c *clientConfig) { c.pollFirst, c.pollLongest = first, longest }
}

// WithObserver sets an Observer told about every call and attempt. nil, like
// no option, observes nothing and costs nothing.
func WithObserver(o Observer) Option {
	return func(c *clientConfig) { c.observer = o }
}

// WithReadOnly makes a client that cannot change anything: every call that
// would (every create, delete, rename, start, stop, resize, fork, password,
// environment, HA, pooler and VPC call, of services, replica sets, VPCs
// and peerings) fails with a *ReadOnlyError matching ErrReadOnly before anything is sent.
// Reads, logs and waits work as before. For programs that only look, such
// as dashboards, or automation and AI agents that must not act.
func WithReadOnly() Option {
	return func(c *clientConfig) { c.readOnly = readOnlyAll }
}

// WithReadOnlyProd makes a client that cannot change a service tagged
// PROD. Before each change to an existing service, it reads the service
// (one GET of its own) and refuses, with a *ReadOnlyError and nothing sent,
// when the tag is PROD or cannot be read: a guard that cannot tell refuses.
// Guarded: every change of the service (retagging it DEV too, attaching or
// detaching a VPC), every call on its replica sets (creates included: the
// service's tag rules), and forks of it (they copy PROD data out). Allowed:
// VPC and peering calls (no tag), Services.Create even with the PROD tag,
// reads, logs and waits. The tag is read at call time: another program may
// change it before the change lands.
func WithReadOnlyProd() Option {
	return func(c *clientConfig) { c.readOnly = readOnlyProd }
}

// checkPollInterval checks the delays of WithPollInterval or
// WithDefaultPollInterval, named by field.
func checkPollInterval(field string, first, longest time.Duration) error {
	if first <= 0 || longest < first {
		return invalid(field, "want 0 < first <= longest")
	}
	return nil
}

// WithProjectID records the project the program works on, returned by
// Client.ProjectID and Client.ResolveProjectID. It changes no request:
// methods take their project id as an argument.
func WithProjectID(id string) Option {
	return func(c *clientConfig) { c.projectID = id }
}
