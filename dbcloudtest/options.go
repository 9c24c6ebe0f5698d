package dbcloudtest

import "time"

// Option configures a Server in NewServer.
type Option func(*config)

type config struct {
	step     time.Duration
	seed     uint64
	apiKey   string
	projects []string
	start    time.Time
	connect  time.Duration // WithConnectDelay
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
	return func(c *config) { c.step = d }
}

// WithSeed sets the seed of the server's ids, passwords and generated logs.
// Servers with the same seed given the same requests make the same ones; the
// default seed is 0, so every test run is repeatable without it.
func WithSeed(seed uint64) Option {
	return func(c *config) { c.seed = seed }
}

// WithAPIKey sets the only API key the server accepts (in
// "Authorization: Bearer <key>"); any other gets 401 UNAUTHORIZED. The
// default is "fake-key-0123456789". It panics if key is empty.
func WithAPIKey(key string) Option {
	if key == "" {
		panic("dbcloudtest: WithAPIKey: empty key")
	}
	return func(c *config) { c.apiKey = key }
}

// WithProjects sets the projects the server knows, the first being
// Server.ProjectID; any other project id gets 404 NOT_FOUND. The default is
// one project, "proj-fake". It panics if an id is empty.
func WithProjects(ids ...string) Option {
	for _, id := range ids {
		if id == "" {
			panic("dbcloudtest: WithProjects: empty project id")
		}
	}
	ids = append([]string(nil), ids...)
	return func(c *config) { c.projects = ids }
}

// WithStartTime sets where the server's clock starts. The default is the
// real time when NewServer runs; a fixed start makes the timestamps the
// server hands out (a service's Created, its log entries) the same on every
// run, for tests and examples that compare or print them.
func WithStartTime(t time.Time) Option {
	return func(c *config) { c.start = t }
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
	return func(c *config) { c.connect = d }
}
