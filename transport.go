package dbcloud

import (
	"context"
	"net/http"
	"strings"
)

// attemptTransport is the RoundTripper of the attempts' http.Client, above
// the caller's transport (rt). It sends each request as one copy of it,
// which carries:
//   - the attempt's own context (see startAttempt), so that a held
//     connection costs one attempt, not the call;
//   - the SDK's headers, and the credential only when the request is for
//     the API's own scheme and host. The requests the http.Client is given
//     carry no header at all, and it builds a redirect's request from those,
//     so a redirect to another host can never carry the credential,
//     whatever its kind (see redirectPolicy for the rest of that rule).
//
// It answers a 401 once with a fresh token (see BearerTokens), and closes at
// once the body of a 101 Switching Protocols, which is the raw connection:
// no context reaches it, and reading it would wait for as long as the server
// holds the connection. It has no CloseIdleConnections: retryablehttp calls
// that after every failed call, which on a Client shared by many goroutines
// would drop the pooled connections of all of them because of one failure
// (Client.CloseIdleConnections reaches rt directly).
type attemptTransport struct {
	rt           http.RoundTripper
	scheme, host string // the API's
	cred         credential
	userAgent    []string
}

// headerJSON is shared by every request: net/http only reads header values.
var headerJSON = []string{"application/json"}

// RoundTrip sends r under its attempt's context, with the headers.
func (t *attemptTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	ctx := r.Context()
	if x, ok := ctx.(*exchange); ok && x.attemptCtx != nil {
		ctx = x.attemptCtx
	}
	var (
		a     authorizer
		value []string
	)
	ours := r.URL.Scheme == t.scheme && strings.EqualFold(r.URL.Host, t.host)
	if ours {
		a = t.cred()
		var err error
		if value, err = a.authorization(ctx); err != nil {
			if r.Body != nil {
				_ = r.Body.Close() // a RoundTripper closes the body, even on error
			}
			return nil, err
		}
	}
	resp, err := t.rt.RoundTrip(t.prepare(r, ctx, value))
	if ours && err == nil && resp.StatusCode == http.StatusUnauthorized {
		resp, err = t.refreshed(r, ctx, a, value, resp)
	}
	if err == nil && resp.StatusCode == http.StatusSwitchingProtocols {
		_ = resp.Body.Close()
		resp.Body = http.NoBody
	}
	return resp, err
}

// prepare returns the copy of r that is sent: under ctx, with the SDK's
// headers and, when not nil, the Authorization value. A RoundTripper must
// not change the request it was given.
func (t *attemptTransport) prepare(r *http.Request, ctx context.Context, authorization []string) *http.Request {
	c := r.WithContext(ctx)
	h := make(http.Header, len(r.Header)+4)
	for k, v := range r.Header {
		h[k] = v // a redirect's Referer, say
	}
	h["Accept"] = headerJSON
	h["User-Agent"] = t.userAgent
	if r.ContentLength != 0 || (r.Body != nil && r.Body != http.NoBody) {
		h["Content-Type"] = headerJSON
	}
	if authorization != nil {
		h["Authorization"] = authorization
	}
	c.Header = h
	return c
}
