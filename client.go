package dbcloud

import (
	"math"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Version is the SDK's version, sent in the User-Agent header.
const Version = "0.1.0"

// Client is the entry point of the SDK. It is safe for concurrent use by many
// goroutines; create one and share it.
type Client struct {
	// Services manages database services.
	Services *ServicesClient
	// ReplicaSets manages the read replica sets of a service.
	ReplicaSets *ReplicaSetsClient

	api *caller
}

// ServicesClient manages database services. Get it from Client.Services.
type ServicesClient struct{ api *caller }

// ReplicaSetsClient manages read replica sets. Get it from Client.ReplicaSets.
type ReplicaSetsClient struct{ api *caller }

// NewClient returns a client that authenticates with apiKey, sent as
// "Authorization: Bearer <apiKey>". WithBaseURL is required. NewClient never
// reads the environment; see NewClientFromEnv. For the other kinds of
// credentials, see NewClientWithCredentials.
func NewClient(apiKey string, opts ...Option) (*Client, error) {
	return NewClientWithCredentials(APIKey(apiKey), opts...)
}

// newClient builds a Client of checked credentials.
func newClient(cred credential, opts []Option) (*Client, error) {
	cfg := defaultConfig()
	for _, opt := range opts {
		opt(&cfg)
	}
	base, err := parseBaseURL(cfg.baseURL)
	if err != nil {
		return nil, err
	}
	if cfg.retryMax < 0 {
		return nil, invalid("retryMax", "must be 0 or more")
	}
	if cfg.settle < 0 {
		return nil, invalid("createSettle", "must not be negative")
	}
	if cfg.retryWaitMin < 0 || cfg.retryWaitMax < cfg.retryWaitMin {
		return nil, invalid("retryWait", "want 0 <= min <= max")
	}
	if err := checkPollInterval("defaultPollInterval", cfg.pollFirst, cfg.pollLongest); err != nil {
		return nil, err
	}
	if cfg.attempt < 0 {
		return nil, invalid("attemptTimeout", "must not be negative")
	}
	if cfg.budget < 0 {
		return nil, invalid("retryBudget", "must be 0 (off) or more")
	}
	ua := "dbcloud-go/" + Version
	if cfg.userAgent != "" {
		if strings.ContainsFunc(cfg.userAgent, isControl) {
			return nil, invalid("userAgent", "contains control characters")
		}
		ua = cfg.userAgent + " " + ua
	}

	bu, _ := url.Parse(base) // parseBaseURL checked it
	at := &attemptTransport{scheme: bu.Scheme, host: bu.Host, cred: cred, userAgent: []string{ua}}
	hc := newHTTPClient(cfg.httpClient, at)
	api := &caller{
		base:         base,
		key:          cred,
		roundTripper: at.rt,
		retryMax:     cfg.retryMax,
		waitMin:      cfg.retryWaitMin,
		waitMax:      cfg.retryWaitMax,
		attemptMax:   cfg.attempt,
		pollFirst:    cfg.pollFirst,
		pollLongest:  cfg.pollLongest,
		budget:       newRetryBudget(cfg.budget),
		recovery:     cfg.recovery,
		settle:       cfg.settle,
		logger:       cfg.logger,
		observer:     cfg.observer,
		now:          time.Now,
		projectID:    cfg.projectID,
		readOnly:     cfg.readOnly,
	}
	api.rc = &retryablehttp.Client{
		HTTPClient: hc,
		// checkRetry decides every retry, counts and deadlines included,
		// and sleeps the backoff itself: retryablehttp only runs attempts.
		RetryMax:     math.MaxInt32,
		CheckRetry:   api.checkRetry,
		Backoff:      func(time.Duration, time.Duration, int, *http.Response) time.Duration { return 0 },
		ErrorHandler: errorHandler,
		RequestLogHook: func(_ retryablehttp.Logger, req *http.Request, _ int) {
			api.startAttempt(req)
		},
		// Logger stays nil: retryablehttp's own logger prints full URLs to
		// stderr; attempts are logged through cfg.logger instead.
	}
	return &Client{Services: &ServicesClient{api}, ReplicaSets: &ReplicaSetsClient{api}, api: api}, nil
}

// CloseIdleConnections closes the client's idle keep-alive connections, for
// programs and tests that want no connection left open when they are done.
func (c *Client) CloseIdleConnections() {
	if ci, ok := c.api.roundTripper.(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections()
	}
}

// isControl reports a control character, which no header value may hold.
func isControl(r rune) bool { return r < ' ' || r == 0x7f }

// parseBaseURL checks the base URL and returns it without a trailing slash.
func parseBaseURL(raw string) (string, error) {
	if raw == "" {
		return "", invalid("baseURL", `not set: pass WithBaseURL("https://<api host>/v1") or set `+EnvBaseURL+" and use NewClientFromEnv")
	}
	// Errors never quote raw: it may hold credentials.
	u, err := url.Parse(raw)
	if err != nil {
		return "", invalid("baseURL", "not a URL")
	}
	switch {
	case u.Host == "":
		return "", invalid("baseURL", "no host")
	case u.Scheme != "https" && !(u.Scheme == "http" && isLoopback(u.Hostname())):
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

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
