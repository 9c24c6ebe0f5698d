package dbcloud

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// credential holds a Client's credentials behind a function value. fmt
// prints a function as an address, even through reflection and its
// bad-verb path (%s on a struct dereferences unexported pointers), so no
// verb on any value of this package can reach a secret.
type credential func() authorizer

// newCredential returns the credential of an API key: a static Bearer.
func newCredential(key string) credential {
	a := &staticAuth{header: []string{"Bearer " + key}, hide: []string{key}}
	return func() authorizer { return a }
}

// authorizer is one kind of credentials. Header values are []string, the
// form of http.Header, built once and shared read-only by every request.
type authorizer interface {
	// authorization returns the Authorization value of the next request.
	authorization(ctx context.Context) ([]string, error)
	// refresh returns a value to send instead of refused, which the API
	// answered with 401; ok is false when there is none (a static
	// credential, a source that failed or gave the same token again).
	refresh(ctx context.Context, refused []string) (value []string, ok bool)
	// secrets lists what must never appear in an error or a log record.
	secrets() []string
}

// staticAuth is an API key or a personal access token.
type staticAuth struct {
	header []string
	hide   []string
}

func (a *staticAuth) authorization(context.Context) ([]string, error) { return a.header, nil }

func (a *staticAuth) refresh(context.Context, []string) ([]string, bool) { return nil, false }

func (a *staticAuth) secrets() []string { return a.hide }

// tokenAuth caches the tokens of a TokenSource (see BearerTokens).
type tokenAuth struct {
	src TokenSource
	now func() time.Time

	mu       sync.Mutex
	current  *issued // nil until the first fetch succeeds
	previous Secret  // the token current replaced, still scrubbed
	inflight *tokenFetch
}

// issued is a token as the client keeps it.
type issued struct {
	access  Secret
	header  []string // "Bearer <access>"
	expiry  time.Time
	fetched time.Time
}

// tokenFetch is one call of the source, shared by every request that
// needs a new token while it runs.
type tokenFetch struct {
	done chan struct{}
	tok  *issued
	err  error
}

func (t *tokenAuth) authorization(ctx context.Context) ([]string, error) {
	tok, err := t.token(ctx, "")
	if err != nil {
		return nil, err
	}
	return tok.header, nil
}

func (t *tokenAuth) refresh(ctx context.Context, refused []string) ([]string, bool) {
	old := strings.TrimPrefix(refused[0], "Bearer ")
	tok, err := t.token(ctx, Secret(old))
	if err != nil || string(tok.access) == old {
		return nil, false
	}
	return tok.header, true
}

// token returns the cached token while it is usable and is not refused,
// else the result of a fetch, started or joined.
func (t *tokenAuth) token(ctx context.Context, refused Secret) (*issued, error) {
	t.mu.Lock()
	if c := t.current; c != nil && c.access != refused && t.usable(c) {
		t.mu.Unlock()
		return c, nil
	}
	f := t.inflight
	if f == nil {
		f = &tokenFetch{done: make(chan struct{})}
		t.inflight = f
		// The source takes no context: it runs on its own goroutine so that
		// a slow one holds no call past its context.
		go t.fetch(f)
	}
	t.mu.Unlock()
	select {
	case <-f.done:
		return f.tok, f.err
	case <-ctx.Done():
		// A tokenError, like the source's own failure: nothing was sent, so
		// not even a create may have acted.
		return nil, &tokenError{fmt.Errorf("no token yet: %w", ctx.Err())}
	}
}

// usable reports whether c may still be sent: it never expires, or more
// than the refresh margin is left. The margin is TokenRefreshMargin, or half
// the token's lifetime for a token issued for less than twice that, so that
// a short-lived token is not fetched anew for every request.
func (t *tokenAuth) usable(c *issued) bool {
	if c.expiry.IsZero() {
		return true
	}
	margin := min(TokenRefreshMargin, c.expiry.Sub(c.fetched)/2)
	return t.now().Add(margin).Before(c.expiry)
}

func (t *tokenAuth) fetch(f *tokenFetch) {
	fetched := t.now()
	tok, err := t.src.Token()
	var got *issued
	switch {
	case err != nil:
		err = &tokenError{err}
	case tok == nil || tok.AccessToken == "":
		err = &tokenError{errors.New("it returned no token")}
	case strings.ContainsFunc(string(tok.AccessToken), func(r rune) bool { return r == ' ' || isControl(r) }):
		err = &tokenError{errors.New("its token contains spaces or control characters")}
	default:
		got = &issued{access: tok.AccessToken, header: []string{"Bearer " + string(tok.AccessToken)},
			expiry: tok.Expiry, fetched: fetched}
	}
	t.mu.Lock()
	if got != nil {
		if t.current != nil {
			t.previous = t.current.access
		}
		t.current = got
	}
	t.inflight = nil
	t.mu.Unlock()
	f.tok, f.err = got, err
	close(f.done)
}

func (t *tokenAuth) secrets() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := make([]string, 0, 2)
	if t.current != nil {
		s = append(s, string(t.current.access))
	}
	if t.previous != "" {
		s = append(s, string(t.previous))
	}
	return s
}

// tokenFirst gets a call's token before its first attempt, waiting no
// longer than the caller's context and the attempt timeout allow. A token
// source's failure or delay is then the call's error before anything is
// sent: inside an attempt, net/http would rewrite an error that comes after
// its Client.Timeout into text, and the SDK could no longer tell that the
// request never left. Static credentials have nothing to fetch.
func (api *caller) tokenFirst(x *exchange) error {
	a, ok := api.key().(*tokenAuth)
	if !ok {
		return nil
	}
	ctx := context.Context(x)
	d := api.attemptTimeout(x)
	if t := api.rc.HTTPClient.Timeout; t > 0 && (d == 0 || t < d) {
		d = t
	}
	if d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	_, err := a.authorization(ctx)
	return err
}

// tokenError is a TokenSource's failure. The request was not sent (see
// notSent).
type tokenError struct{ err error }

// Error says the token source failed, and why.
func (e *tokenError) Error() string { return "token source: " + e.err.Error() }

// Unwrap returns the source's error.
func (e *tokenError) Unwrap() error { return e.err }

// refreshed answers a 401 to the credential value refused: with a fresh
// token from a, r is sent once more and that answer replaces the 401; when
// there is none (a static credential, a source that failed or gave the same
// token again) or the body cannot be sent again, the 401 is the answer.
// Never more than once: a second 401 is the caller's.
func (t *attemptTransport) refreshed(r *http.Request, ctx context.Context, a authorizer, refused []string, resp *http.Response) (*http.Response, error) {
	fresh, ok := a.refresh(ctx, refused)
	if !ok || (r.Body != nil && r.Body != http.NoBody && r.GetBody == nil) {
		return resp, nil
	}
	again := t.prepare(r, ctx, fresh)
	if r.GetBody != nil {
		body, err := r.GetBody()
		if err != nil {
			return resp, nil
		}
		again.Body = body
	}
	// The 401's body is dropped: the answer to the fresh token replaces it.
	_, _ = io.CopyN(io.Discard, resp.Body, 4<<10)
	_ = resp.Body.Close()
	return t.rt.RoundTrip(again)
}
