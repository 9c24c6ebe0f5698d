package dbcloudtest

import (
	"fmt"
	"strings"
	"sync"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/httpapi"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
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

	cfg   httpapi.Config // the API's, with its defaults: the credentials Client sends
	model *model.Model   // the state the helpers read and force
	front *front         // what counts, records and faults requests
	ln    *listener      // what serves front on URL

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
	ln, err := listen(addr, cfg)
	if err != nil {
		return nil, fmt.Errorf("dbcloudtest: %w", err) // on Unix, errors.Is(err, syscall.EADDRINUSE) holds
	}
	api := ln.front.api
	c := api.Config()
	return &Server{URL: ln.url, APIKey: c.APIKey, ProjectID: c.Projects[0], cfg: c, model: api.Model(), front: ln.front, ln: ln}, nil
}

// Close stops the server: it closes the listener and every connection, ends
// requests held by a Delay fault (those served through Handler too), waits
// for every handler to return, and
// closes the idle connections of the clients that Client made. Nothing of
// the server is left running afterwards. Close may be called more than once.
func (s *Server) Close() {
	s.closing.Do(func() {
		_ = s.ln.close() // the only error is the listener's, closed either way
		s.mu.Lock()
		clients := s.clients
		s.mu.Unlock()
		for _, c := range clients {
			c.CloseIdleConnections()
		}
	})
}
