package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// Authorizer is one kind of credentials. Header values are []string, the
// form of http.Header, built once and shared read-only by every request.
type Authorizer interface {
	// authorization returns the Authorization value of the next request.
	authorization(ctx context.Context) ([]string, error)
	// refresh returns a value to send instead of refused, which the API
	// answered with 401; ok is false when there is none (a static
	// credential, a source that failed or gave the same token again).
	refresh(ctx context.Context, refused []string) (value []string, ok bool)
	// Secrets lists what must never appear in an error or a log record.
	Secrets() []string
}

// Static is a credential sent as it is (an API key as a Bearer token, a
// personal access token as Basic): header is the Authorization value, and
// hide what must never be printed.
func Static(header string, hide ...string) Authorizer {
	return &staticAuth{header: []string{header}, hide: hide}
}

type staticAuth struct {
	header []string
	hide   []string
}

func (a *staticAuth) authorization(context.Context) ([]string, error) { return a.header, nil }

func (a *staticAuth) refresh(context.Context, []string) ([]string, bool) { return nil, false }

func (a *staticAuth) Secrets() []string { return a.hide }

// TokenSource fetches an access token and when it expires (zero: never).
type TokenSource func() (access string, expiry time.Time, err error)

// Tokens is a credential of expiring Bearer tokens from src, cached while
// more than margin (or half the token's lifetime, for a token issued for
// less than twice that) is left before it expires, and fetched again once
// after a 401.
func Tokens(src TokenSource, margin time.Duration) Authorizer {
	return &tokenAuth{src: src, margin: margin}
}

// tokenAuth caches the tokens of a TokenSource.
type tokenAuth struct {
	src    TokenSource
	margin time.Duration

	mu       sync.Mutex
	current  *issued // nil until the first fetch succeeds
	previous string  // the token current replaced, still scrubbed
	inflight *tokenFetch
}

// issued is a token as the client keeps it.
type issued struct {
	access  string
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
	tok, err := t.token(ctx, old)
	if err != nil || tok.access == old {
		return nil, false
	}
	return tok.header, true
}

// token returns the cached token while it is usable and is not refused,
// else the result of a fetch, started or joined.
func (t *tokenAuth) token(ctx context.Context, refused string) (*issued, error) {
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
		// A TokenError, like the source's own failure: nothing was sent, so
		// not even a create may have acted.
		return nil, &TokenError{fmt.Errorf("no token yet: %w", ctx.Err())}
	}
}

// usable reports whether c may still be sent: it never expires, or more
// than the refresh margin is left.
func (t *tokenAuth) usable(c *issued) bool {
	if c.expiry.IsZero() {
		return true
	}
	margin := min(t.margin, c.expiry.Sub(c.fetched)/2)
	return time.Now().Add(margin).Before(c.expiry)
}

func (t *tokenAuth) fetch(f *tokenFetch) {
	fetched := time.Now()
	access, expiry, err := t.src()
	var got *issued
	switch {
	case err != nil:
		err = &TokenError{err}
	case access == "":
		err = &TokenError{errors.New("it returned no token")}
	case strings.ContainsFunc(access, func(r rune) bool { return r == ' ' || IsControl(r) }):
		err = &TokenError{errors.New("its token contains spaces or control characters")}
	default:
		got = &issued{access: access, header: []string{"Bearer " + access}, expiry: expiry, fetched: fetched}
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

func (t *tokenAuth) Secrets() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := make([]string, 0, 2)
	if t.current != nil {
		s = append(s, t.current.access)
	}
	if t.previous != "" {
		s = append(s, t.previous)
	}
	return s
}

// TokenError is a token source's failure. The request was not sent.
type TokenError struct{ err error }

// Error says the token source failed, and why.
func (e *TokenError) Error() string { return "token source: " + e.err.Error() }

// Unwrap returns the source's error.
func (e *TokenError) Unwrap() error { return e.err }

// IsControl reports a control character, which no header value may hold.
func IsControl(r rune) bool { return r < ' ' || r == 0x7f }
