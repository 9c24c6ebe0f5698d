// Package httpapi is the fake's HTTP face of the model: it authenticates a
// request, routes it, reads and checks its body, answers the API's 400s,
// 401s, 404s and 405s in the order the package documentation of
// dbcloudtest gives, runs the operation on the model and encodes the
// answer. It does not serve connections, record requests or inject faults:
// the layer above (dbcloudtest) does, around Handle.
package httpapi

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

const (
	defaultAPIKey    = "fake-key-0123456789"
	defaultProjectID = "proj-fake"
	// MaxBodyBytes bounds what a request may make the fake hold in memory.
	MaxBodyBytes = 1 << 20
)

// Config is what the server's options set for the API, each field meaning
// what its option's doc says.
type Config struct {
	Model    model.Config // the model's, which New makes
	APIKey   string       // WithAPIKey; "" is the default key
	Projects []string     // WithProjects; empty is the default project alone

	PATPublic, PATSecret string        // WithPersonalAccessToken
	TokenLife            time.Duration // WithBearerTokens

	// SinceExclusive (WithExclusiveSince) makes the logs endpoint's since
	// bound exclusive (since < timestamp), the other reading of the API's
	// "after this time", so that clients are tested against both.
	SinceExclusive bool
	WindowCursors  bool // WithWindowCursors
}

// API answers the fake's HTTP requests from its model. It is safe for
// concurrent use.
type API struct {
	cfg       Config // with APIKey and Projects defaulted; only read
	model     *model.Model
	cursorKey []byte
	requests  atomic.Int64 // X-Request-Ids handed out
}

// New returns an API configured by cfg, over a new model made from
// cfg.Model.
func New(cfg Config) *API {
	cfg.Projects = slices.Clone(cfg.Projects)
	if cfg.APIKey == "" {
		cfg.APIKey = defaultAPIKey
	}
	if len(cfg.Projects) == 0 {
		cfg.Projects = []string{defaultProjectID}
	}
	a := &API{cfg: cfg, model: model.New(cfg.Model)}
	key := rand.New(rand.NewPCG(cfg.Model.Seed, 0x637572736f72))
	a.cursorKey = make([]byte, 32)
	for i := range a.cursorKey {
		a.cursorKey[i] = byte(key.Uint32())
	}
	return a
}

// Config is the API's configuration, with the defaults applied: the key it
// accepts and the projects it knows. Its Projects must not be changed.
func (a *API) Config() Config { return a.cfg }

// Model is the model the API serves, for the test helpers that reach it
// directly.
func (a *API) Model() *model.Model { return a.model }

// NextRequestID is the X-Request-Id of the next answer, which every answer
// carries: the API's own and those faults send in its place.
func (a *API) NextRequestID() string {
	return "req-" + strconv.FormatInt(a.requests.Add(1), 10)
}
