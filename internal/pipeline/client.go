package pipeline

import (
	"context"
	"math"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// Config is what New needs.
type Config struct {
	// HTTPClient is the user's client, which stays untouched, or nil for
	// one whose pool keeps up to maxIdleConns idle connections to the
	// API's host.
	HTTPClient *http.Client
	// Scheme and Host are the API's: the credential is sent only there.
	Scheme, Host string
	Auth         Authorizer
	UserAgent    string
	Policy       Policy
	Budget       *Budget // nil: no budget
	// TooLarge is wrapped by the failure of a success body over its bound,
	// so that callers can match it.
	TooLarge error
}

// Client sends requests for one SDK client. It is safe for concurrent use:
// after New, only the budget and a token's shared header change,
// atomically, and the watch, under its lock.
type Client struct {
	base      http.RoundTripper // the user's transport
	user      http.Client       // the user's client, with the SDK's redirect policy
	scheme    string
	host      string
	auth      Authorizer
	userAgent []string
	policy    Policy
	budget    *Budget
	tooLarge  error
	watch     watch // ends the attempts that outlive their timeout
	// calls holds the call values, whose hooks are bound once, not per
	// call. What it saves, on the paired loopback benchmarks (Get and
	// Create, 12 interleaved rounds, #44): without it a call makes 4 more
	// allocations (142 against 138 for a Get, 2.9% of them) and about 690
	// more bytes (6.6%); its time saving was within the noise of the
	// loaded 2-core machine (ratios ±10%).
	calls sync.Pool

	// static is the header of a static credential, which the Client holds
	// so that an attempt need not ask auth, as one of expiring tokens
	// must; nil for tokens.
	static *headerSet
	// sharesHeaders: the transport is net/http's own, which only reads a
	// request's header (see headerSet); tokenHeaders is the last one made
	// for a token.
	sharesHeaders bool
	tokenHeaders  atomic.Pointer[headerSet]
}

// maxIdleConns is how many idle connections the default transport keeps:
// more than a fleet script's goroutines, far fewer than a process's file
// descriptors.
const maxIdleConns = 1024

// New returns a Client of cfg.
func New(cfg Config) *Client {
	user := cfg.HTTPClient
	if user == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		// net/http keeps 2 idle connections per host, and 100 in all; a
		// Client shared by more goroutines would dial anew (a TCP and a TLS
		// handshake) for every request over the cap. The pool keeps what the
		// peak concurrency opened, up to maxIdleConns, for IdleConnTimeout
		// (90 s): every connection goes to the API's one host.
		tr.MaxIdleConns = maxIdleConns
		tr.MaxIdleConnsPerHost = maxIdleConns
		// No Timeout: attempts are bounded by their own context (see
		// Policy.AttemptTimeout). An http.Client Timeout would also cancel
		// each request just as its body is read to the end, which in
		// net/http races with returning the connection to the pool and,
		// under many goroutines, closes about half of them.
		user = &http.Client{Transport: tr}
	}
	c := &Client{
		base:      user.Transport,
		user:      *user,
		scheme:    cfg.Scheme,
		host:      cfg.Host,
		auth:      cfg.Auth,
		userAgent: []string{cfg.UserAgent},
		policy:    cfg.Policy,
		budget:    cfg.Budget,
		tooLarge:  cfg.TooLarge,
		watch:     watch{epoch: time.Now()},
	}
	if c.base == nil {
		c.base = http.DefaultTransport
	}
	_, c.sharesHeaders = c.base.(*http.Transport)
	if a, ok := cfg.Auth.(*staticAuth); ok {
		c.static = c.newHeaderSet(a.header)
	}
	if c.tooLarge == nil {
		c.tooLarge = ErrTooLarge
	}
	c.user.CheckRedirect = redirectPolicy(user.CheckRedirect)
	c.calls.New = func() any { return c.newCall() }
	return c
}

// newCall returns a call value with its hooks bound, once for all the
// calls that reuse it (see doc.go for what each relies on): retryablehttp
// runs the attempts, and every decision is a method of the call, which sees
// its deadline and what its attempts came to.
func (c *Client) newCall() *call {
	k := &call{c: c}
	k.hc = c.user
	// The call is the attempts' transport: it sends each attempt under the
	// attempt's context, with the credential. It has no
	// CloseIdleConnections, which retryablehttp calls after every failed
	// call: on a Client shared by many goroutines that would drop the
	// pooled connections of all of them because of one failure.
	k.hc.Transport = k
	k.rc = retryablehttp.Client{
		HTTPClient:     &k.hc,
		RequestLogHook: k.startAttempt,
		CheckRetry:     k.checkRetry,
		Backoff:        k.backoff,
		// The policy counts the retries (Policy.Decide).
		RetryMax: math.MaxInt,
		// Logger stays nil: retryablehttp's own logger prints full URLs to
		// stderr; attempts are reported through Request.Observe instead.
	}
	return k
}

// CloseIdleConnections closes the idle keep-alive connections of the
// transport.
func (c *Client) CloseIdleConnections() {
	if ci, ok := c.base.(interface{ CloseIdleConnections() }); ok {
		ci.CloseIdleConnections()
	}
}

// Secrets lists what the credentials hold, to keep out of errors and logs.
func (c *Client) Secrets() []string { return c.auth.Secrets() }

// Policy is the client's retry rule.
func (c *Client) Policy() Policy { return c.policy }

// Sleep waits for d, or returns the context's error when it ends first:
// the SDK's one sleep (create recovery's pauses, a follow's polls; the
// waits' schedule is internal/poll's).
func Sleep(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(max(d, 0))
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
