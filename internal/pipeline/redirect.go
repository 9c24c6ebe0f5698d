package pipeline

import (
	"fmt"
	"net"
	"net/http"
	"strings"
)

// maxRedirects matches net/http's own limit.
const maxRedirects = 10

// redirectError is a redirect the SDK refused. It is never retried.
type redirectError struct{ err error }

// Error says the redirect was refused, and why.
func (e *redirectError) Error() string { return "redirect refused: " + e.err.Error() }

// Unwrap returns the reason, possibly the caller's CheckRedirect error.
func (e *redirectError) Unwrap() error { return e.err }

func refuse(format string, args ...any) error {
	return &redirectError{fmt.Errorf(format, args...)}
}

// redirectPolicy refuses a redirect to another scheme, a downgrade from
// https, and plain http to a non-loopback host. A redirect to another host
// that would re-send the request's body (a 307 or 308 to a POST, such as a
// password's) is refused too: a body can hold a secret as much as a header
// can. The credential itself is not its concern: the call's RoundTrip adds
// it only to requests for the API's own host, so a redirect elsewhere never
// carries it. The caller's own policy, if any, runs after it.
func redirectPolicy(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		first, prev := via[0], via[len(via)-1]
		switch to := req.URL; {
		case to.Scheme != "https" && to.Scheme != "http":
			return refuse("to scheme %q", to.Scheme)
		case prev.URL.Scheme == "https" && to.Scheme == "http":
			return refuse("from https to http://%s", to.Host)
		case to.Scheme == "http" && !IsLoopback(to.Hostname()):
			return refuse("to plain http://%s", to.Host)
		}
		if req.URL.Host != first.URL.Host &&
			(req.ContentLength != 0 || (req.Body != nil && req.Body != http.NoBody)) {
			return refuse("to %s: the request body is not sent to another host", req.URL.Host)
		}
		if next == nil {
			if len(via) >= maxRedirects {
				return refuse("stopped after %d redirects", maxRedirects)
			}
			return nil
		}
		err := next(req, via)
		if err == nil || err == http.ErrUseLastResponse {
			return err
		}
		return &redirectError{err}
	}
}

// IsLoopback reports a host name or address of this machine, the only
// hosts that plain http may reach.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
