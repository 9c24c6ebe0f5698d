package dbcloudtest

import (
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/internal/fakeapi"
)

// Client's retry waits: a retried request in a test costs milliseconds.
const (
	clientRetryWaitMin = time.Millisecond
	clientRetryWaitMax = 5 * time.Millisecond
	// clientCreateSettle is short because a request this server has not
	// answered when its client gives up never lands: the server drops it.
	clientCreateSettle = 5 * time.Millisecond
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

	srv   *fakeapi.Server
	api   *fakeapi.API
	clock *fakeapi.ManualClock

	mu      sync.Mutex
	clients []*dbcloud.Client
	closing sync.Once
}

// NewServer starts a server on a free loopback port, configured by opts.
// The caller must Close it. Like httptest.NewServer, it panics if it cannot
// listen.
func NewServer(opts ...Option) *Server {
	var cfg config
	for _, opt := range opts {
		opt(&cfg)
	}
	if cfg.start.IsZero() {
		cfg.start = time.Now()
	}
	// UTC and no monotonic reading: the clock is a plain point in time that
	// only Advance moves.
	clock := fakeapi.NewManualClock(cfg.start.UTC().Round(0))
	srv, err := fakeapi.Start("", fakeapi.Options{
		APIKey:         cfg.apiKey,
		ProjectIDs:     cfg.projects,
		Step:           cfg.step,
		Clock:          clock,
		Seed:           cfg.seed,
		RecordRequests: true,
		ConnectDelay:   cfg.connect, // Start makes every endpoint live
	})
	if err != nil {
		panic("dbcloudtest: NewServer: " + err.Error())
	}
	return &Server{URL: srv.URL, APIKey: srv.APIKey, ProjectID: srv.ProjectID, srv: srv, api: srv.API, clock: clock}
}

// Close stops the server: it closes the listener and every connection, ends
// requests held by a Delay fault, waits for every handler to return, and
// closes the idle connections of the clients that Client made. Nothing of
// the server is left running afterwards. Close may be called more than once.
func (s *Server) Close() {
	s.closing.Do(func() {
		_ = s.srv.Close() // the only error is the listener's, closed either way
		s.mu.Lock()
		clients := s.clients
		s.mu.Unlock()
		for _, c := range clients {
			c.CloseIdleConnections()
		}
	})
}

// Client returns a new client of the server: base URL and API key set, and
// retry waits of 1 to 5 ms instead of 500 ms to 30 s, so that a retried
// request costs a test milliseconds. A Retry-After header (from a fault) is
// longer than those waits, so it is not slept: the *dbcloud.APIError comes
// back at once with RetryAfter set. opts are applied after these and win
// over them. Client panics if opts are invalid, as NewClient would refuse
// them.
func (s *Server) Client(opts ...dbcloud.Option) *dbcloud.Client {
	all := append([]dbcloud.Option{
		dbcloud.WithBaseURL(s.URL),
		dbcloud.WithRetryWait(clientRetryWaitMin, clientRetryWaitMax),
		dbcloud.WithCreateSettle(clientCreateSettle),
	}, opts...)
	c, err := dbcloud.NewClient(s.APIKey, all...)
	if err != nil {
		panic("dbcloudtest: Client: " + err.Error())
	}
	s.mu.Lock()
	s.clients = append(s.clients, c)
	s.mu.Unlock()
	return c
}

// userError rewords an error of the engine for users of this package, who
// call the methods by these names and know nothing of the engine.
func userError(err error) error {
	if err == nil {
		return nil
	}
	return errors.New("dbcloudtest: " + strings.TrimPrefix(err.Error(), "fakeapi: "))
}
