package dbcloudtest

import (
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// The server accepts one kind of credentials, as the live service's
// accounts do: the API key (the default), a personal access token sent as
// HTTP Basic (WithPersonalAccessToken), or short-lived Bearer tokens it
// issues itself (WithBearerTokens). Server.Client and Setenv send the kind
// the server accepts, so code under test that is handed either meets the
// server a real account of that kind would be.

// WithPersonalAccessToken makes the server accept only this personal access
// token, sent as the live service's CLI sends it: "Authorization: Basic
// base64(<publicKey>:<secretKey>)". The API key is then refused (401). As
// the live service's tokens are, it is scoped to one project, the first
// (Server.ProjectID): the only one GET /projects lists, and any other
// answers 404 (see "Identity and projects" in the package doc).
// Server.Client uses dbcloud.PersonalAccessToken, and Setenv sets
// DBCLOUD_PUBLIC_KEY and DBCLOUD_SECRET_KEY instead of DBCLOUD_API_KEY. It
// replaces WithBearerTokens; the last of the two given wins. It panics if a
// half is empty or the public half holds a colon.
func WithPersonalAccessToken(publicKey, secretKey string) Option {
	if publicKey == "" || secretKey == "" {
		panic("dbcloudtest: WithPersonalAccessToken: empty key")
	}
	for _, r := range publicKey {
		if r == ':' {
			panic("dbcloudtest: WithPersonalAccessToken: the public key holds a colon")
		}
	}
	return func(c *config) { c.api.PATPublic, c.api.PATSecret, c.api.TokenLife = publicKey, secretKey, 0 }
}

// WithBearerTokens makes the server accept only Bearer tokens it issued
// (IssueToken, TokenSource), each for lifetime on the server's clock: once
// Advance (or a ticking or real clock) takes Now past a token's expiry,
// the token gets 401, as an expired JWT does, and a client must fetch a
// new one. The API key is refused. Server.Client uses
// dbcloud.BearerTokens(srv.TokenSource()). It replaces
// WithPersonalAccessToken; the last of the two given wins. It panics if
// lifetime is not positive.
func WithBearerTokens(lifetime time.Duration) Option {
	if lifetime <= 0 {
		panic("dbcloudtest: WithBearerTokens: lifetime must be positive, not " + lifetime.String())
	}
	return func(c *config) { c.api.TokenLife, c.api.PATPublic, c.api.PATSecret = lifetime, "", "" }
}

// IssueToken issues a Bearer token that the server accepts until its
// Expiry, which is Now plus the lifetime of WithBearerTokens on the
// server's clock. Each call issues a new token; earlier ones stay valid
// until they expire. It panics on a server made without WithBearerTokens.
func (s *Server) IssueToken() dbcloud.Token {
	if s.cfg.TokenLife <= 0 {
		panic("dbcloudtest: tokens are issued only by a server made WithBearerTokens")
	}
	tok, exp := s.model.IssueToken(s.cfg.TokenLife)
	return dbcloud.Token{AccessToken: dbcloud.Secret(tok), Expiry: exp}
}

// TokenSource returns a dbcloud.TokenSource whose every Token call issues a
// new token (IssueToken), for dbcloud.BearerTokens. It panics on a server
// made without WithBearerTokens.
func (s *Server) TokenSource() dbcloud.TokenSource {
	s.IssueToken() // fail at once, not at the client's first call
	return dbcloud.TokenSourceFunc(func() (*dbcloud.Token, error) {
		t := s.IssueToken()
		return &t, nil
	})
}
