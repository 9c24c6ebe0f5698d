package dbcloudtest

import (
	"strconv"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/httpapi"
)

// Option configures a Server in NewServer or NewServerAt.
type Option func(*config)

// config is what the options set: the API's configuration, which holds
// the model's, and what only the request log reads. Each field means what
// its option's doc says.
type config struct {
	api   httpapi.Config
	noLog bool // WithRequestLog(false)
}

// WithStep sets how long each status of an asynchronous operation lasts on
// the server's clock. With 0, the default, an operation's own response shows
// its first status and the next read shows its last: a new service is
// QUEUED in the create's response and READY from then on. With d > 0 the
// statuses move only as Advance moves the clock, one per d. It panics if d
// is negative.
func WithStep(d time.Duration) Option {
	if d < 0 {
		panic("dbcloudtest: WithStep: negative duration " + d.String())
	}
	return func(c *config) { c.api.Model.Step = d }
}

// WithSeed sets the seed of the server's ids, passwords and generated logs.
// Servers with the same seed given the same requests make the same ones; the
// default seed is 0, so every test run is repeatable without it.
func WithSeed(seed uint64) Option {
	return func(c *config) { c.api.Model.Seed = seed }
}

// WithAPIKey sets the only API key the server accepts (in
// "Authorization: Bearer <key>"); any other gets 401 UNAUTHORIZED. The
// default is "fake-key-0123456789". It panics if key is empty.
func WithAPIKey(key string) Option {
	if key == "" {
		panic("dbcloudtest: WithAPIKey: empty key")
	}
	return func(c *config) { c.api.APIKey = key }
}

// WithProjects sets the projects the server knows, the first being
// Server.ProjectID; any other project id gets 404 NOT_FOUND. The API key's
// and the Bearer tokens' user belongs to all of them (GET /projects lists
// them), a personal access token to the first only. The default is one
// project, "proj-fake". It panics if an id is empty.
func WithProjects(ids ...string) Option {
	for _, id := range ids {
		if id == "" {
			panic("dbcloudtest: WithProjects: empty project id")
		}
	}
	ids = append([]string(nil), ids...)
	return func(c *config) { c.api.Projects = ids }
}

// WithStartTime sets where the server's clock starts. The default is the
// real time when NewServer runs (with WithRealTime, the clock then runs on
// from t); a fixed start makes the timestamps the
// server hands out (a service's Created, its log entries) the same on every
// run, for tests and examples that compare or print them.
func WithStartTime(t time.Time) Option {
	return func(c *config) { c.api.Model.Start = t }
}

// WithConnectDelay sets how long, on the server's clock, a database warms
// up: after a service becomes READY (after create, start, resize, setHA) or
// a replica set active, its endpoints answer "the database system is
// starting up" (SQLSTATE 57P03) for d before they accept connections, as
// the real database can. With the default, 0, an endpoint answers as soon as
// its resource is READY. Move through it with Advance to test code that
// waits with WaitForConnectable. It panics if d is negative.
func WithConnectDelay(d time.Duration) Option {
	if d < 0 {
		panic("dbcloudtest: WithConnectDelay: negative duration " + d.String())
	}
	return func(c *config) { c.api.Model.Connect = d }
}

// WithTickingClock makes the server's clock move forward by tick each time
// the server reads it, which it does once per request and once per
// connection to an endpoint, besides moving with Advance.
//
// It is for testing a whole program (a command's main, a controller) that
// polls the server by itself and that the test cannot reach into to call
// Advance: with WithStep(d) and a tick of d/2, every poll finds the next
// status, the same sequence on a fast machine and a loaded one, and nothing
// sleeps. The examples' own tests run each example this way, with
// WithTickingClock(30*time.Second), WithStep(time.Minute) and
// WithConnectDelay(time.Minute).
//
// It replaces WithRealTime; the last of the two given wins. It panics if
// tick is not positive.
func WithTickingClock(tick time.Duration) Option {
	if tick <= 0 {
		panic("dbcloudtest: WithTickingClock: tick must be positive, not " + tick.String())
	}
	return func(c *config) { c.api.Model.Tick, c.api.Model.RealTime = tick, false }
}

// WithRealTime makes the server's clock follow the machine's time (plus
// every Advance), as the real API's does: with WithStep(d), a new service is
// QUEUED for d of real time, then CONFIGURING for d, then READY.
//
// It is for a server that people watch or that runs outside a test, such as
// examples/quickstart, which shows the statuses go by, and
// examples/fakeserver. A test should keep the default clock, which moves
// only with Advance, or use WithTickingClock: with real time, what a test
// sees depends on how fast the machine is.
//
// It replaces WithTickingClock; the last of the two given wins.
func WithRealTime() Option {
	return func(c *config) { c.api.Model.RealTime, c.api.Model.Tick = true, 0 }
}

// WithLogInterval has every service write one generated PostgreSQL log line
// each d of the server's clock from its creation on, whatever its status: a
// feed of new lines for code that follows logs (FollowLogs) to read. The
// lines that are due are written, with the timestamps they were due at,
// when a request or a method of Server next reads the clock; nothing runs
// in the background. With the default, 0, a history grows only with
// lifecycle events, SeedLogs and AppendLogs. It panics if d is negative.
func WithLogInterval(d time.Duration) Option {
	if d < 0 {
		panic("dbcloudtest: WithLogInterval: negative duration " + d.String())
	}
	return func(c *config) { c.api.Model.LogEvery = d }
}

// WithLogRetention bounds each service's log history as the real service's
// retention does, so that a server that runs for long with WithLogInterval
// stays small: once a history holds more than 2n entries, all but the
// newest n are dropped, at the next request or method call. A cursor that
// pointed into the dropped entries then gives an empty page. With the
// default, 0, every entry is kept. It panics if n is negative.
func WithLogRetention(n int) Option {
	if n < 0 {
		panic("dbcloudtest: WithLogRetention: negative count " + strconv.Itoa(n))
	}
	return func(c *config) { c.api.Model.LogKeep = n }
}

// WithRequestLog(false) stops the server from keeping every request it sees
// for Requests, which then returns nothing, so that a server that runs for
// long (examples/fakeserver) does not grow with its traffic. Count still
// counts. The default, true, suits tests, which look at what was sent.
func WithRequestLog(keep bool) Option {
	return func(c *config) { c.noLog = !keep }
}

// WithWindowCursors makes the logs endpoint's cursors positions within the
// request's window, as the live service's are: an offset from the newest
// entry before until (from the newest entry of all without until). The same
// cursor text then comes back in another window at the same depth, and
// means another place there. The API calls a cursor opaque and valid only
// within the window it was issued for, so a client that reads many pages
// (and tells a server that cycles from one that does not) should be tested
// against such a server: with this option, a client that keys anything on
// the cursor's text alone sees a cycle where there is none.
func WithWindowCursors() Option {
	return func(c *config) { c.api.WindowCursors = true }
}
