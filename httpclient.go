package dbcloud

import (
	"fmt"
	"net/http"
)

// maxRedirects matches net/http's own limit.
const maxRedirects = 10

// newHTTPClient returns the client used for each attempt: a shallow copy of
// the caller's (which stays untouched) or a default one, with the SDK's
// redirect policy and its transport wrapped in t, whose rt it sets. The default
// client has no Timeout: attempts are bounded by their own context (see
// attemptTimeout). An http.Client Timeout would also cancel each request
// just as its body is read to the end, which in net/http races with
// returning the connection to the pool and, under many goroutines, closes
// about half of them.
func newHTTPClient(user *http.Client, t *attemptTransport) *http.Client {
	if user == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		// net/http keeps 2 idle connections per host; a Client shared by many
		// goroutines would otherwise dial anew for most requests. All of
		// MaxIdleConns (100) may go to the API's one host.
		tr.MaxIdleConnsPerHost = tr.MaxIdleConns
		user = &http.Client{Transport: tr}
	}
	hc := *user
	rt := user.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	t.rt = rt
	hc.Transport = t
	hc.CheckRedirect = redirectPolicy(user.CheckRedirect)
	return &hc
}

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
// that would re-send the request's body (a 307 or 308 to a POST, such as
// UpdatePassword's password) is refused too: a body can hold a secret as
// much as a header can. The credential itself is not its concern:
// attemptTransport adds it only to requests for the API's own host, so a
// redirect elsewhere never carries it. The caller's own policy, if any,
// runs after it.
func redirectPolicy(next func(*http.Request, []*http.Request) error) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		first, prev := via[0], via[len(via)-1]
		switch to := req.URL; {
		case to.Scheme != "https" && to.Scheme != "http":
			return refuse("to scheme %q", to.Scheme)
		case prev.URL.Scheme == "https" && to.Scheme == "http":
			return refuse("from https to http://%s", to.Host)
		case to.Scheme == "http" && !isLoopback(to.Hostname()):
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
