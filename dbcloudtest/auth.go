package dbcloudtest

import (
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
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
// base64(<publicKey>:<secretKey>)". The API key is then refused (401).
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
	return func(c *config) { c.patPublic, c.patSecret, c.tokenLife = publicKey, secretKey, 0 }
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
	return func(c *config) { c.tokenLife, c.patPublic, c.patSecret = lifetime, "", "" }
}

// IssueToken issues a Bearer token that the server accepts until its
// Expiry, which is Now plus the lifetime of WithBearerTokens on the
// server's clock. Each call issues a new token; earlier ones stay valid
// until they expire. It panics on a server made without WithBearerTokens.
func (s *Server) IssueToken() dbcloud.Token {
	return s.api.issueToken()
}

// TokenSource returns a dbcloud.TokenSource whose every Token call issues a
// new token (IssueToken), for dbcloud.BearerTokens. It panics on a server
// made without WithBearerTokens.
func (s *Server) TokenSource() dbcloud.TokenSource {
	s.api.issueToken() // fail at once, not at the client's first call
	return dbcloud.TokenSourceFunc(func() (*dbcloud.Token, error) {
		t := s.api.issueToken()
		return &t, nil
	})
}

// credentials are the ones Client uses: those the server accepts.
func (s *Server) credentials() dbcloud.Credentials {
	switch {
	case s.api.patPublic != "":
		return dbcloud.PersonalAccessToken(s.api.patPublic, s.api.patSecret)
	case s.api.tokenLife > 0:
		return dbcloud.BearerTokens(s.TokenSource())
	}
	return dbcloud.APIKey(s.APIKey)
}

func (a *engine) issueToken() dbcloud.Token {
	if a.tokenLife <= 0 {
		panic("dbcloudtest: tokens are issued only by a server made WithBearerTokens")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.tokens == nil {
		a.tokens = make(map[string]time.Time)
	}
	tok := "fake-token-" + strconv.Itoa(len(a.tokens)+1) + "-" + a.randString(16, lowerAlnum)
	exp := a.clock.peek().Add(a.tokenLife)
	a.tokens[tok] = exp
	return dbcloud.Token{AccessToken: dbcloud.Secret(tok), Expiry: exp}
}

// authorized checks the request's one Authorization header against the
// credentials the server accepts; the error is the 401 to answer.
func (a *engine) authorized(r *http.Request) error {
	got := r.Header.Values("Authorization")
	h := ""
	if len(got) == 1 {
		h = got[0]
	}
	switch {
	case a.patPublic != "":
		want := "Basic " + base64.StdEncoding.EncodeToString([]byte(a.patPublic+":"+a.patSecret))
		if subtle.ConstantTimeCompare([]byte(h), []byte(want)) == 1 {
			return nil
		}
		return &apiError{http.StatusUnauthorized, "UNAUTHORIZED", "missing or invalid personal access token",
			`send the header "Authorization: Basic base64(<public key>:<secret key>)"`}
	case a.tokenLife > 0:
		tok, ok := strings.CutPrefix(h, "Bearer ")
		if ok && a.tokenValid(tok) {
			return nil
		}
		return &apiError{http.StatusUnauthorized, "UNAUTHORIZED", "missing, unknown or expired token",
			`send the header "Authorization: Bearer <token>" with a token that has not expired`}
	case h == "Bearer "+a.apiKey:
		return nil
	}
	return &apiError{http.StatusUnauthorized, "UNAUTHORIZED", "missing or invalid API key",
		`send the header "Authorization: Bearer <API key>"`}
}

// tokenValid reports whether tok was issued and has not expired on the
// server's clock.
func (a *engine) tokenValid(tok string) bool {
	a.mu.Lock()
	exp, ok := a.tokens[tok]
	a.mu.Unlock()
	return ok && a.clock.peek().Before(exp)
}
