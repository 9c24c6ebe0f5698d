// Package model is the fake's state machine: the services and read replica
// sets of every project, their statuses laid out on the clock, their
// database endpoints, their log histories, the ids and secrets it hands
// out, and the operations that change them, with the conflicts (409) and
// unknown ids (404) the API answers. It knows nothing of HTTP: the layer
// above reads requests, checks their bodies and calls these operations.
//
// What the model does is stated once, in the package documentation of
// dbcloudtest, under "What the model does" and "Endpoints"; this package
// implements that statement.
//
// Time. Nothing runs in the background but the listeners of live
// endpoints, which only answer: no timer. An asynchronous operation stores
// a plan of statuses, one Config.Step apart, and every read (a connection
// to a live endpoint too) computes the current status from the clock.
// SetStatus and SetReplicaSetStatus replace a plan by the status they
// force. Interval log lines are written when the clock is next read (see
// Update), and retention trims as entries are added.
//
// Concurrency. A Model is safe for concurrent use: the operations that
// read or change services run inside Update or Inspect, which hold its
// lock; the methods that take a service id take the lock themselves.
package model

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/clock"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/live"
)

// Config is what the server's options set for the model, each field meaning
// what its option's doc says.
type Config struct {
	Start    time.Time     // WithStartTime; zero is the machine's time
	Tick     time.Duration // WithTickingClock; 0: the clock is not ticking
	RealTime bool          // WithRealTime
	Step     time.Duration // WithStep
	Seed     uint64        // WithSeed
	Connect  time.Duration // WithConnectDelay
	LogEvery time.Duration // WithLogInterval
	LogKeep  int           // WithLogRetention
	// PeerAccept (WithPeerAcceptance), when set, is how long after its
	// create a peering connection is accepted by the peer's side by itself.
	PeerAccept *time.Duration
	// Live opens a loopback listener for every endpoint handed out, as a
	// server started by NewServerAt does. Without it no listener is
	// opened: a service's endpoint is
	// <service_id>.<project_id>.fake.dbcloud.test:5432, its pooler the same
	// host on 6432, its vpc_endpoint
	// <service_id>.<project_id>.vpc.fake.dbcloud.test:5432, and a replica
	// set's host <set id>.<service host>.
	Live bool
}

// Model is the state of the fake API. See the package documentation.
type Model struct {
	cfg     Config
	clock   *clock.Clock
	started time.Time // the clock's first reading: when the fake's credentials were made
	live    *live.Net // nil: endpoints are not live

	mu       sync.Mutex
	idRand   *rand.Rand // ids and secrets: kept apart from logRand so seeding logs never changes later ids
	logRand  *rand.Rand
	services []*Service // creation order, all projects
	byID     map[string]*Service
	vpcs     []*VPC               // creation order, all projects
	usedIDs  map[string]bool      // every id handed out: never reused
	goneAt   time.Time            // no deletion completes before; see sweep
	gone     bool                 // a deletion is planned
	logsDue  int64                // no interval line is due before, Unix nanoseconds
	tokens   map[string]time.Time // each issued token's expiry
}

// New returns an empty model configured by cfg, its clock made from cfg.
// A model with live endpoints must be closed.
func New(cfg Config) *Model {
	m := &Model{
		cfg:     cfg,
		clock:   clock.New(cfg.Start, cfg.Tick, cfg.RealTime),
		idRand:  rand.New(rand.NewPCG(cfg.Seed, 0x6462636c6f7564)),
		logRand: rand.New(rand.NewPCG(cfg.Seed, 0x6c6f6773)),
		byID:    make(map[string]*Service),
		usedIDs: make(map[string]bool),
	}
	m.started = m.clock.Peek()
	if cfg.Live {
		m.live = live.NewNet()
	}
	return m
}

// Clock is the model's clock, which the test moves.
func (m *Model) Clock() *clock.Clock { return m.clock }

// Started is the clock's reading when the model was made: the creation
// time of the credentials the fake accepts.
func (m *Model) Started() time.Time { return m.started }

// Close stops the live endpoints and returns once their goroutines have
// ended. Stop whatever serves requests first: after Close, an operation
// that needs a new endpoint fails with 503. Without live endpoints it does
// nothing. It is safe to call more than once.
func (m *Model) Close() {
	if m.live != nil {
		m.live.Close()
	}
}

// plan lays out statuses one step apart, starting now.
func (m *Model) plan(now time.Time, statuses ...string) schedule {
	s := make(schedule, len(statuses))
	for i, st := range statuses {
		s[i] = step{st, now.Add(time.Duration(i) * m.cfg.Step)}
	}
	return s
}
