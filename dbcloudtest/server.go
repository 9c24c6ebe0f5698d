package dbcloudtest

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// Client's retry waits: a retried request in a test costs milliseconds.
const (
	clientRetryWaitMin = time.Millisecond
	clientRetryWaitMax = 5 * time.Millisecond
	// clientCreateSettle is short because a request this server has not
	// answered when its client gives up never lands: the server drops it.
	clientCreateSettle = 5 * time.Millisecond
	// Client's wait polling, unless the clock is real time: the statuses
	// move only when a test moves the clock (or, ticking, with each read),
	// so a wait has no reason to sleep the SDK's 1 s between checks, nor up
	// to 250 ms before its first.
	clientPollFirst   = time.Millisecond
	clientPollLongest = 10 * time.Millisecond
)

// Server is a fake of the dbcloud API serving on a loopback port. Its
// methods are safe for concurrent use, also while clients send requests.
type Server struct {
	// URL is the base URL to pass to dbcloud.WithBaseURL, ending in /v1:
	// http://127.0.0.1:43121/v1.
	URL string
	// APIKey is the key the server accepts.
	APIKey string
	// ProjectID is the first project the server knows.
	ProjectID string

	srv *engineServer
	api *engine

	mu      sync.Mutex
	clients []*dbcloud.Client
	closing sync.Once
}

// NewServer starts a server on a free loopback port, configured by opts.
// The caller must Close it. Like httptest.NewServer, it panics if it cannot
// listen.
func NewServer(opts ...Option) *Server {
	s, err := NewServerAt("", opts...)
	if err != nil {
		panic("dbcloudtest: NewServer: " + strings.TrimPrefix(err.Error(), "dbcloudtest: "))
	}
	return s
}

// NewServerAt starts a server listening on addr, a host:port such as
// "127.0.0.1:8080" ("" is a free loopback port, as for NewServer), and
// returns an error, rather than panicking, when it cannot listen there: it
// is for a program that serves the fake on an address its user chose
// (examples/fakeserver), where a port in use is an answer, not a bug. URL
// names a loopback host when addr is a wildcard (":8080"), so that it can be
// dialled. The database endpoints the server hands out are loopback ports
// whatever addr is. The caller must Close the server.
func NewServerAt(addr string, opts ...Option) (*Server, error) {
	var cfg config
	for _, opt := range opts {
		opt(&cfg)
	}
	srv, err := startEngine(addr, cfg)
	if err != nil {
		return nil, fmt.Errorf("dbcloudtest: %w", err) // on Unix, errors.Is(err, syscall.EADDRINUSE) holds
	}
	s := &Server{URL: srv.url, APIKey: srv.api.apiKey, ProjectID: srv.api.projects[0], srv: srv, api: srv.api}
	return s, nil
}

// Close stops the server: it closes the listener and every connection, ends
// requests held by a Delay fault (those served through Handler too), waits
// for every handler to return, and
// closes the idle connections of the clients that Client made. Nothing of
// the server is left running afterwards. Close may be called more than once.
func (s *Server) Close() {
	s.closing.Do(func() {
		_ = s.srv.close() // the only error is the listener's, closed either way
		s.mu.Lock()
		clients := s.clients
		s.mu.Unlock()
		for _, c := range clients {
			c.CloseIdleConnections()
		}
	})
}

// Client returns a new client of the server: base URL, credentials (the
// API key, or those of WithPersonalAccessToken or WithBearerTokens) and
// project (Client.ProjectID is the server's ProjectID) set, and retry waits of 1 to
// 5 ms instead of 500 ms to 30 s, so that a retried request costs a test
// milliseconds. A Retry-After header (from a fault) is longer than those
// waits, so it is not slept: the *dbcloud.APIError comes back at once with
// RetryAfter set. Unless the server runs in real time (WithRealTime), its
// waits poll every 1 ms growing to 10 ms (dbcloud.WithDefaultPollInterval)
// instead of 1 s to 10 s, so a wait returns as soon as the clock lets it:
// a deploy tested on the default server takes milliseconds. opts are
// applied after these and win over them. Client panics if opts are
// invalid, as NewClient would refuse them.
func (s *Server) Client(opts ...dbcloud.Option) *dbcloud.Client {
	all := []dbcloud.Option{
		dbcloud.WithBaseURL(s.URL),
		dbcloud.WithProjectID(s.ProjectID),
		dbcloud.WithRetryWait(clientRetryWaitMin, clientRetryWaitMax),
		dbcloud.WithCreateSettle(clientCreateSettle),
	}
	if !s.api.clock.real { // WithRealTime: Client keeps the SDK's wait polling
		all = append(all, dbcloud.WithDefaultPollInterval(clientPollFirst, clientPollLongest))
	}
	all = append(all, opts...)
	c, err := dbcloud.NewClientWithCredentials(s.credentials(), all...)
	if err != nil {
		panic("dbcloudtest: Client: " + err.Error())
	}
	s.mu.Lock()
	s.clients = append(s.clients, c)
	s.mu.Unlock()
	return c
}

// Setenv points the environment at the server for the rest of the test,
// with t.Setenv: DBCLOUD_API_KEY, DBCLOUD_BASE_URL and DBCLOUD_PROJECT_ID
// name the server, and the variables of other credentials
// (DBCLOUD_PUBLIC_KEY, DBCLOUD_SECRET_KEY and the _FILE forms) are emptied,
// so that code under test that calls dbcloud.NewClientFromEnv, a whole
// command's main say, reaches the server whatever the developer's shell has
// set. With WithPersonalAccessToken, DBCLOUD_PUBLIC_KEY and
// DBCLOUD_SECRET_KEY hold the token and DBCLOUD_API_KEY is emptied instead
// (the environment cannot carry a TokenSource: with WithBearerTokens, hand
// the code under test a client). Like t.Setenv, it cannot be used in
// parallel tests.
func (s *Server) Setenv(t testing.TB) {
	t.Helper()
	t.Setenv("DBCLOUD_BASE_URL", s.URL)
	t.Setenv("DBCLOUD_PROJECT_ID", s.ProjectID)
	set := map[string]string{"DBCLOUD_API_KEY": s.APIKey}
	if s.api.patPublic != "" {
		set = map[string]string{"DBCLOUD_PUBLIC_KEY": s.api.patPublic, "DBCLOUD_SECRET_KEY": s.api.patSecret}
	}
	for _, name := range []string{
		"DBCLOUD_API_KEY",
		"DBCLOUD_API_KEY_FILE",
		"DBCLOUD_PUBLIC_KEY",
		"DBCLOUD_SECRET_KEY",
		"DBCLOUD_SECRET_KEY_FILE",
	} {
		t.Setenv(name, set[name])
	}
}
