package chaos

import (
	"context"
	"net/http"
	"strconv"
	"time"
)

// callHeader carries, from the soak's client to the proxy, the number of the
// SDK call a request belongs to, so that the proxy's record of what it did
// to each request can be read per call when a workflow's failure is
// classified.
const callHeader = "X-Chaos-Call"

// Reach is whether a request the proxy took reached the server.
type Reach int

// Whether a request reached the server, as the proxy saw it.
const (
	ReachNo    Reach = iota // answered by the proxy alone, reset before forwarding, or held until the client left
	ReachYes                // forwarded and answered by the server before the proxy answered the client
	ReachLate               // forwarded after the proxy answered (a late 5xx)
	ReachMaybe              // the forward failed, almost always because the client left during it: it may have acted
)

// Attempt is the proxy's record of one request: which call sent it, what the
// proxy did to it and when, and whether it reached the server.
type Attempt struct {
	Call         int64 // the soak's number of the SDK call; 0 if untagged
	Method, Path string
	Kind         Kind
	Delay        time.Duration // Spike, Status5xxLate: how long it was to be held
	Start, End   time.Time     // when the proxy had read it, when its handler ended
	Reach        Reach
	// Abandoned: the client went away while the proxy held the request, so
	// the client never got an answer to it.
	Abandoned bool
}

// IsCreate reports whether the request creates a service, a fork or a
// replica set: the one kind of request that must not be sent again before
// the settle period when it may have reached the server.
func (a Attempt) IsCreate() bool {
	if a.Method != http.MethodPost {
		return false
	}
	return hasSuffix(a.Path, "/services") || hasSuffix(a.Path, "/replicaSets") || hasSuffix(a.Path, "/fork")
}

func hasSuffix(s, suffix string) bool {
	return len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix
}

// Attempts returns the proxy's records of the requests sent by call.
func (p *Proxy) Attempts(call int64) []Attempt {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Attempt(nil), p.attempts[call]...)
}

func (p *Proxy) note(a *Attempt) {
	a.End = time.Now()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.attempts == nil {
		p.attempts = map[int64][]Attempt{}
	}
	p.attempts[a.Call] = append(p.attempts[a.Call], *a)
}

// callKey is the context key of the soak's call number.
type callKey struct{}

// withCall returns ctx carrying the soak's call number id.
func withCall(ctx context.Context, id int64) context.Context {
	return context.WithValue(ctx, callKey{}, id)
}

// tagging adds the call number the request's context carries as callHeader.
// It is the soak's only change to the client's transport: the proxy strips
// nothing and the server ignores the header.
type tagging struct{ next http.RoundTripper }

// RoundTrip sends r, tagged with its call's number, through next.
func (t tagging) RoundTrip(r *http.Request) (*http.Response, error) {
	id, ok := r.Context().Value(callKey{}).(int64)
	if !ok {
		return t.next.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.Header.Set(callHeader, strconv.FormatInt(id, 10))
	return t.next.RoundTrip(r)
}

// CloseIdleConnections closes next's idle connections.
func (t tagging) CloseIdleConnections() {
	if c, ok := t.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
