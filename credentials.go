package dbcloud

import (
	"encoding/base64"
	"strings"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/pipeline"
)

// Credentials is how a Client proves who it is (APIKey,
// PersonalAccessToken or BearerTokens; see Credentials in the package
// documentation), for NewClientWithCredentials. Printing it (or a Client)
// with fmt, log/slog or encoding/json shows no secret.
type Credentials struct {
	// c is behind a function value: fmt prints a func as an address, so no
	// verb reaches the secret, even through reflection.
	c    credential
	err  error  // why the credentials are unusable; reported by NewClientWithCredentials
	kind string // what a printed Client says it authenticates with
}

// credential holds a Client's credentials behind a function value. fmt
// prints a function as an address, even through reflection and its
// bad-verb path (%s on a struct dereferences unexported pointers), so no
// verb on any value of this package can reach a secret.
type credential func() pipeline.Authorizer

// APIKey returns credentials that send "Authorization: Bearer <key>", the
// scheme of the API's document. NewClient(key) is
// NewClientWithCredentials(APIKey(key)).
func APIKey(key string) Credentials {
	switch {
	case key == "":
		return Credentials{err: invalid("apiKey", "empty: pass your API key, or set "+envAPIKey+" and use NewClientFromEnv")}
	case strings.ContainsFunc(key, func(r rune) bool { return r == ' ' || pipeline.IsControl(r) }):
		return Credentials{err: invalid("apiKey", "contains spaces or control characters")}
	}
	a := pipeline.Static("Bearer "+key, key)
	return Credentials{c: func() pipeline.Authorizer { return a }, kind: "API key"}
}

// PersonalAccessToken returns credentials that send a personal access token
// as HTTP Basic: "Authorization: Basic base64(<publicKey>:<secretKey>)", the
// scheme the live service's own CLI uses. NewClientFromEnv reads the two
// halves from DBCLOUD_PUBLIC_KEY and DBCLOUD_SECRET_KEY.
func PersonalAccessToken(publicKey, secretKey string) Credentials {
	switch {
	case publicKey == "":
		return Credentials{err: invalid("publicKey", "empty")}
	case strings.ContainsFunc(publicKey, func(r rune) bool { return r == ':' || pipeline.IsControl(r) }):
		// Basic authentication ends the user name at the first colon.
		return Credentials{err: invalid("publicKey", "contains a colon or control characters")}
	case secretKey == "":
		return Credentials{err: invalid("secretKey", "empty")}
	case strings.ContainsFunc(secretKey, pipeline.IsControl):
		return Credentials{err: invalid("secretKey", "contains control characters")}
	}
	encoded := base64.StdEncoding.EncodeToString([]byte(publicKey + ":" + secretKey))
	a := pipeline.Static("Basic "+encoded, secretKey, encoded)
	return Credentials{c: func() pipeline.Authorizer { return a }, kind: "personal access token"}
}

// BearerTokens returns credentials that send "Authorization: Bearer
// <token>" with short-lived tokens (JWTs, say) from src.
//
// The Client keeps the last token and asks src for a new one with less
// than 30 s left before Expiry (half the lifetime for a token issued for
// under 60 s; a zero Expiry never expires). A call gets its token before
// its first attempt, waiting no longer than its context and the attempt
// timeout allow; calls needing one at the same moment share one Token call.
// On a 401, src is asked once for a fresher token and, if different, the
// request is sent once more in the same attempt; otherwise the 401 is
// returned. A failure of src fails the call (wrapped) with nothing sent,
// so even a create may be called again.
func BearerTokens(src TokenSource) Credentials {
	if src == nil {
		return Credentials{err: invalid("tokenSource", "nil")}
	}
	t := pipeline.Tokens(func() (string, time.Time, error) {
		tok, err := src.Token()
		if err != nil || tok == nil {
			return "", time.Time{}, err
		}
		return string(tok.AccessToken), tok.Expiry, nil
	}, tokenRefreshMargin)
	return Credentials{c: func() pipeline.Authorizer { return t }, kind: "Bearer tokens"}
}

// TokenSource supplies Bearer tokens. It has the shape of
// golang.org/x/oauth2's TokenSource, which wraps in a few lines:
//
//	dbcloud.TokenSourceFunc(func() (*dbcloud.Token, error) {
//		t, err := ts.Token() // ts is an oauth2.TokenSource
//		if err != nil {
//			return nil, err
//		}
//		return &dbcloud.Token{AccessToken: dbcloud.Secret(t.AccessToken), Expiry: t.Expiry}, nil
//	})
//
// The Client caches tokens (see BearerTokens); a source that caches too
// (oauth2.ReuseTokenSource) may hand back the token just refused, and the
// 401 is then returned. Token may be called from several goroutines, never
// twice at once by one Client.
type TokenSource interface {
	Token() (*Token, error)
}

// TokenSourceFunc adapts a function to TokenSource.
type TokenSourceFunc func() (*Token, error)

// Token calls f.
func (f TokenSourceFunc) Token() (*Token, error) { return f() }

// Token is a Bearer token and the time it stops being accepted.
type Token struct {
	AccessToken Secret    // prints as "[redacted]"
	Expiry      time.Time // zero means never
}

// tokenRefreshMargin is how long before a token's Expiry the Client asks
// its TokenSource for a new one, so that a request is not sent with a token
// that expires on its way. A token issued for less than twice the margin is
// replaced at half its lifetime instead.
const tokenRefreshMargin = 30 * time.Second
