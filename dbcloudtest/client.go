package dbcloudtest

import (
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

// Client returns a new client of the server: base URL, credentials (the
// API key, or those of WithPersonalAccessToken or WithBearerTokens) and
// project (Client.ProjectID is the server's ProjectID) set, and three of
// the SDK's defaults shortened, so that what takes seconds against the
// real API takes milliseconds in a test:
//
//   - retry waits of 1 to 5 ms (dbcloud.WithRetryWait) instead of 500 ms to
//     30 s. A Retry-After header (from a fault) is longer than those waits,
//     so it is not slept: the *dbcloud.APIError comes back at once with
//     RetryAfter set;
//   - a create settle period of 5 ms (dbcloud.WithCreateSettle) instead of
//     dbcloud.DefaultCreateSettle's 5 s: create recovery waits that long
//     for a lost create to land, and a request this server did not answer
//     before its client gave up never lands, since the server drops it;
//   - unless the server runs in real time (WithRealTime), waits that poll
//     every 1 ms growing to 10 ms (dbcloud.WithDefaultPollInterval)
//     instead of 1 s to 10 s, so a wait returns as soon as the clock lets
//     it: a deploy tested on the default server takes milliseconds.
//
// opts are applied after these and win over them. Client panics if opts
// are invalid, as NewClient would refuse them.
func (s *Server) Client(opts ...dbcloud.Option) *dbcloud.Client {
	all := []dbcloud.Option{
		dbcloud.WithBaseURL(s.URL),
		dbcloud.WithProjectID(s.ProjectID),
		dbcloud.WithRetryWait(clientRetryWaitMin, clientRetryWaitMax),
		dbcloud.WithCreateSettle(clientCreateSettle),
	}
	if !s.cfg.Model.RealTime { // WithRealTime: Client keeps the SDK's wait polling
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
	if s.cfg.PATPublic != "" {
		set = map[string]string{"DBCLOUD_PUBLIC_KEY": s.cfg.PATPublic, "DBCLOUD_SECRET_KEY": s.cfg.PATSecret}
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

// credentials are the ones Client uses: those the server accepts.
func (s *Server) credentials() dbcloud.Credentials {
	switch {
	case s.cfg.PATPublic != "":
		return dbcloud.PersonalAccessToken(s.cfg.PATPublic, s.cfg.PATSecret)
	case s.cfg.TokenLife > 0:
		return dbcloud.BearerTokens(s.TokenSource())
	}
	return dbcloud.APIKey(s.APIKey)
}
