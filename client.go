package dbcloud

import (
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
)

// Version is the SDK's version, sent in the User-Agent header.
const Version = "0.1.0"

// Client is the entry point of the SDK. It is safe for concurrent use by many
// goroutines; create one and share it.
type Client struct {
	Services    *ServicesClient
	ReplicaSets *ReplicaSetsClient // a service's read replica sets
	VPCs        *VPCsClient
	Peerings    *PeeringsClient // peerings of a project's VPCs
	Metrics     *MetricsClient  // a service's metric series (a preview)
	Projects    *ProjectsClient // the projects the credentials reach

	api     *caller
	project *projectCache // ResolveProjectID's
}

// ServicesClient manages database services. Get it from Client.Services.
type ServicesClient struct{ api *caller }

// ReplicaSetsClient manages read replica sets. Get it from Client.ReplicaSets.
type ReplicaSetsClient struct{ api *caller }

// VPCsClient manages a project's VPCs: the private networks that services
// attach to (ServicesClient.AttachToVPC) and that are peered with a VPC in
// the user's own cloud account (PeeringsClient). Get it from Client.VPCs.
type VPCsClient struct{ api *caller }

// PeeringsClient manages the peering connections of a project's VPCs with
// VPCs in other cloud accounts. Get it from Client.Peerings.
//
// A peering is requested here and accepted on the peer's side, in the
// peer's cloud account (by the cloud's own tools, with the peering's
// ProvisionedID), so it stays pending until someone acts there:
// WaitForActive waits for that.
type PeeringsClient struct{ api *caller }

// MetricsClient reads the metric series of a service. Get it from
// Client.Metrics.
//
// The API marks these endpoints as a preview that may change without
// notice. What it does today:
//
//   - Buckets. Without MetricsQuery.Bucket the server picks about 1 minute
//     for a window up to 1 hour, 1 hour up to 30 days, and 1 day beyond.
//     A bucket finer than the window's storage tier is refused (a 400
//     INVALID_REQUEST): a window of 2 hours in 1-minute buckets, say.
//   - Points. Every bucket of the window is in the answer, one point each,
//     a bucket without data included (a gap: MetricPoint.Valid is false).
//     A window of length W in buckets of B gives about W/B points: 60 for
//     an hour by default, 720 for 30 days, 90 for 90 days.
//   - Aggregations. The default is AggLast. The system series (CPU,
//     memory, disk and disk I/O, such as
//     timescale_cloud_system_cpu_usage_millicores) and
//     timescale_cloud_database_qps, _num_connections, _job_duration_usecs
//     and _job_success refuse any Aggregation (a 400 INVALID_REQUEST); the
//     percentiles work only on series stored as sketches.
//   - Roles. The usual filter is the label role, primary or replica;
//     without one, some series answer for the primary and others with one
//     series per role.
//
// The API refuses what breaks these rules; the SDK checks only what the
// request's shape needs (see MetricsQuery), so that a rule the preview
// changes is not refused here.
type MetricsClient struct{ api *caller }

// ProjectsClient reads the projects the credentials reach. Get it from
// Client.Projects.
type ProjectsClient struct{ api *caller }

// projectCache keeps the project ResolveProjectID found.
type projectCache struct {
	mu sync.Mutex
	id string
}

// NewClient returns a client that authenticates with apiKey, sent as
// "Authorization: Bearer <apiKey>". WithBaseURL is required. NewClient never
// reads the environment; see NewClientFromEnv. For the other kinds of
// credentials, see NewClientWithCredentials.
func NewClient(apiKey string, opts ...Option) (*Client, error) {
	return NewClientWithCredentials(APIKey(apiKey), opts...)
}

// newClient builds a Client of checked credentials.
func newClient(creds Credentials, opts []Option) (*Client, error) {
	cfg := defaultConfig()
	for _, opt := range opts {
		opt(&cfg)
	}
	base, err := parseBaseURL(cfg.baseURL)
	if err != nil {
		return nil, err
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	ua := "dbcloud-go/" + Version
	if cfg.userAgent != "" {
		ua = cfg.userAgent + " " + ua
	}
	bu, _ := url.Parse(base) // parseBaseURL checked it
	api := &caller{
		base: base,
		pipe: pipeline.New(pipeline.Config{
			HTTPClient: cfg.httpClient,
			Scheme:     bu.Scheme,
			Host:       bu.Host,
			Auth:       creds.c(),
			UserAgent:  ua,
			Policy: pipeline.Policy{
				RetryMax: cfg.retryMax, Explicit: cfg.retryMaxSet,
				WaitMin: cfg.retryWaitMin, WaitMax: cfg.retryWaitMax,
				AttemptMax: cfg.attempt, Recovery: cfg.recovery,
			},
			Budget:   pipeline.NewBudget(cfg.budget),
			TooLarge: ErrResponseTooLarge,
		}),
		credKind:    creds.kind,
		recovery:    cfg.recovery,
		settle:      cfg.settle,
		logger:      cfg.logger,
		observer:    cfg.observer,
		followWalk:  cfg.followWalk,
		projectID:   cfg.projectID,
		readOnly:    cfg.readOnly,
		pollFirst:   cfg.pollFirst,
		pollLongest: cfg.pollLongest,
		creds:       creds,
		opts:        opts,
	}
	return &Client{
		Services: &ServicesClient{api}, ReplicaSets: &ReplicaSetsClient{api},
		VPCs: &VPCsClient{api}, Peerings: &PeeringsClient{api}, Metrics: &MetricsClient{api}, Projects: &ProjectsClient{api},
		api: api, project: &projectCache{},
	}, nil
}

// NewClientWithCredentials returns a client that authenticates with creds.
// WithBaseURL is required. Like NewClient, it never reads the environment.
func NewClientWithCredentials(creds Credentials, opts ...Option) (*Client, error) {
	if creds.err != nil {
		return nil, creds.err
	}
	if creds.c == nil {
		return nil, invalid("credentials", "zero value: use APIKey, PersonalAccessToken or BearerTokens")
	}
	return newClient(creds, opts)
}

// With returns a new Client with c's credentials and options and, after
// them, opts, such as c.With(WithCreateRecovery()) for the creates of a
// program whose other calls keep c's rules. It has its own retry budget,
// pollers and (unless WithHTTPClient gave c one) connections.
func (c *Client) With(opts ...Option) (*Client, error) {
	return newClient(c.api.creds, append(slices.Clip(c.api.opts), opts...))
}

// ProjectID returns the project id set with WithProjectID or read from
// DBCLOUD_PROJECT_ID by NewClientFromEnv; "" when neither gave one. The
// SDK's methods take the project id as an argument: this is where a program
// configured from the environment finds the one to pass. ResolveProjectID
// also finds the project of credentials scoped to one.
func (c *Client) ProjectID() string { return c.api.projectID }

// Observer returns the Observer given WithObserver, or nil. The deploy
// package reports its runs and steps to it, so that one WithObserver
// traces a deploy's steps and the calls inside them alike.
func (c *Client) Observer() Observer { return c.api.observer }

// CloseIdleConnections closes the client's idle keep-alive connections, for
// programs and tests that want no connection left open when they are done.
func (c *Client) CloseIdleConnections() { c.api.pipe.CloseIdleConnections() }

// parseBaseURL checks the base URL and returns it without a trailing slash.
func parseBaseURL(raw string) (string, error) {
	if raw == "" {
		return "", invalid("baseURL", `not set: pass WithBaseURL("https://<api host>/v1") or set `+envBaseURL+" and use NewClientFromEnv")
	}
	// Errors never quote raw: it may hold credentials.
	u, err := url.Parse(raw)
	if err != nil {
		return "", invalid("baseURL", "not a URL")
	}
	switch {
	case u.Host == "":
		return "", invalid("baseURL", "no host")
	case u.Scheme != "https" && !(u.Scheme == "http" && pipeline.IsLoopback(u.Hostname())):
		return "", invalid("baseURL", "must be https:// (plain http:// only for a loopback host): the API key must not travel in clear")
	case u.User != nil:
		return "", invalid("baseURL", "must not carry credentials: the API key is sent as a bearer token")
	case u.RawQuery != "" || u.Fragment != "":
		return "", invalid("baseURL", "must not have a query or fragment")
	}
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	if !strings.HasSuffix(path, "/v1") {
		return "", invalid("baseURL", "must end in /v1, the API version, as in https://<api host>/v1")
	}
	return u.Scheme + "://" + u.Host + path, nil
}
