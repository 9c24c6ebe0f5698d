package chaos

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// maxProxiedBody bounds what the proxy holds of a request or an answer; the
// API's largest answers (a logs page, a list) are far smaller.
const maxProxiedBody = 8 << 20

// malformedBody replaces a forwarded answer's body: it starts like JSON and
// never ends.
const malformedBody = `{"chaos": "malformed body", "service_id": `

// hopHeaders are not forwarded: they describe one connection, not the
// request. Accept-Encoding goes too, so that the proxy's own transport
// negotiates compression and hands on plain bodies.
var hopHeaders = []string{
	"Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization",
	"Te", "Trailer", "Transfer-Encoding", "Upgrade", "Accept-Encoding",
}

// Proxy is a reverse proxy on a loopback socket that faults requests as its
// fault source decides. It speaks HTTP/1.1, so it can reset a connection
// (SO_LINGER 0, a real TCP RST) or cut an answer off mid-body.
type Proxy struct {
	// URL is the base URL to give a client: the target's path on the
	// proxy's address, such as http://127.0.0.1:41234/v1.
	URL string

	target     string // scheme://host of the server
	next       func() Fault
	retryAfter time.Duration
	upstream   *http.Client
	srv        *server
	ctx        context.Context // ends with Close
	cancel     context.CancelFunc
	// handlers counts the handlers running and the late forwards not
	// landed yet: each late forward is counted by its handler, before the
	// handler ends.
	handlers sync.WaitGroup
	closing  sync.Once

	requests     atomic.Int64
	faults       [numKinds]atomic.Int64
	inert        atomic.Int64
	upstreamErrs atomic.Int64
	ids          atomic.Int64

	mu        sync.Mutex
	passwords []string            // given with updatePassword
	attempts  map[int64][]Attempt // by call number: what the proxy did to each request
}

// ProxyCounts is what a proxy saw and did.
type ProxyCounts struct {
	Requests int64
	Faults   [numKinds]int64 // by kind; None counts the requests passed through untouched
	// Inert counts faults that could not act: a cut-off of an empty body, a
	// malformed body on a status that has none (204). Those answers arrived
	// whole.
	Inert int64
	// UpstreamErrors counts forwards that failed between proxy and server,
	// almost always because the client gave up first (its deadline).
	UpstreamErrors int64
}

// StartProxy serves a proxy to targetURL (a base URL such as the fake's,
// ending in /v1) on a free loopback port. next decides each request's fault;
// retryAfter is the Retry-After of the RateLimited answers, in whole seconds.
func StartProxy(targetURL string, next func() Fault, retryAfter time.Duration) (*Proxy, error) {
	u, err := url.Parse(targetURL)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &Proxy{
		URL:        "http://" + ln.Addr().String() + u.Path,
		target:     u.Scheme + "://" + u.Host,
		next:       next,
		retryAfter: retryAfter,
		upstream: &http.Client{Transport: &http.Transport{
			Proxy:               nil, // the server is on loopback: never through an environment proxy
			MaxIdleConnsPerHost: 128,
		}},
		ctx:    ctx,
		cancel: cancel,
	}
	p.srv = serve(ln, &http.Server{
		Handler: p,
		// Cancelled by Close: spikes and forwards in flight end at once.
		BaseContext: func(net.Listener) context.Context { return ctx },
	})
	return p, nil
}

// Counts returns what the proxy has seen so far.
func (p *Proxy) Counts() ProxyCounts {
	c := ProxyCounts{Requests: p.requests.Load(), Inert: p.inert.Load(), UpstreamErrors: p.upstreamErrs.Load()}
	for k := range c.Faults {
		c.Faults[k] = p.faults[k].Load()
	}
	return c
}

// Passwords returns every password a client sent with updatePassword through
// the proxy, faulted or not: a request answered by the proxy alone never
// reaches the server, yet its password is the client's secret. Look for
// them, never print them.
func (p *Proxy) Passwords() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.passwords...)
}

// Drain stops the proxy taking requests and waits, without cancelling
// anything, until every request it took has ended and every late forward
// has landed (each within its Delay), so that checks made after it see all
// the server was sent. It gives up when ctx ends first. Close is still
// needed after it.
func (p *Proxy) Drain(ctx context.Context) error {
	// Shutdown closes the listener and returns once no connection is
	// serving a request: from then on no handler starts, and the count
	// is only waited out.
	if err := p.srv.Shutdown(ctx); err != nil {
		return fmt.Errorf("chaos: draining the proxy: %w", err)
	}
	done := make(chan struct{})
	go func() {
		p.handlers.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("chaos: draining the proxy: handlers or late forwards still running: %w", ctx.Err())
	}
}

// Close stops the proxy and returns once every handler has ended. Spikes,
// late forwards and forwards still in flight are cancelled. It is safe to
// call more than once, and after Drain.
func (p *Proxy) Close() {
	p.closing.Do(func() {
		p.cancel()
		p.srv.stop()
		// stop does not wait for handlers that hijacked their
		// connection; no handler can start any more.
		p.handlers.Wait()
		p.upstream.CloseIdleConnections()
	})
}

// answer is a server's response, read whole so that it can be cut or
// replaced.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// ServeHTTP reads the request, draws its fault and acts on it.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.handlers.Add(1)
	defer p.handlers.Done()
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxProxiedBody))
	if err != nil {
		panic(http.ErrAbortHandler) // the client went away mid-request
	}
	p.requests.Add(1)
	p.notePassword(r, body)
	f := p.next()
	p.faults[f.Kind].Add(1)
	call, _ := strconv.ParseInt(r.Header.Get(callHeader), 10, 64)
	rec := &Attempt{Call: call, Method: r.Method, Path: r.URL.Path, Kind: f.Kind, Delay: f.Delay, Start: time.Now()}
	defer p.note(rec) // also when the handler aborts

	switch f.Kind {
	case Status5xxBefore:
		p.write(w, p.serverError(f.Status))
		return
	case RateLimited:
		p.write(w, p.rateLimited())
		return
	case ResetBefore:
		reset(w)
		return
	case Status5xxLate:
		// The request lives on without its client, as in a gateway that
		// gave up waiting on a slow upstream: it lands after the answer. It
		// is copied now: r is not for use once the handler has returned.
		req, err := p.upstreamRequest(p.ctx, r, body)
		if err != nil {
			p.upstreamErrs.Add(1)
		} else {
			rec.Reach = ReachLate
			p.handlers.Add(1)
			go func() {
				defer p.handlers.Done()
				if hold(p.ctx, f.Delay) {
					if _, err := p.roundTrip(req); err != nil {
						p.upstreamErrs.Add(1)
					}
				}
			}()
		}
		p.write(w, p.serverError(f.Status))
		return
	case Spike:
		if !hold(r.Context(), f.Delay) {
			// The client gave up while held: like a proxy, do not forward.
			rec.Abandoned = true
			panic(http.ErrAbortHandler)
		}
	}

	ans, err := p.forward(r.Context(), r, body)
	if err != nil {
		p.upstreamErrs.Add(1)
		rec.Reach = ReachMaybe
		panic(http.ErrAbortHandler) // no answer to give: drop the connection
	}
	rec.Reach = ReachYes
	switch f.Kind {
	case Status5xxAfter:
		p.write(w, p.serverError(f.Status))
	case ResetAfter:
		reset(w)
	case CutOff:
		p.cutOff(w, ans)
	case Malformed:
		if !bodyAllowed(ans.status) {
			p.inert.Add(1)
		} else {
			ans.header.Set("Content-Type", "application/json")
			ans.body = []byte(malformedBody)
		}
		p.write(w, ans)
	default:
		p.write(w, ans)
	}
}

// notePassword keeps the password of an updatePassword request.
func (p *Proxy) notePassword(r *http.Request, body []byte) {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/updatePassword") {
		return
	}
	var in struct {
		Password string `json:"password"`
	}
	if json.Unmarshal(body, &in) != nil || in.Password == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.passwords = append(p.passwords, in.Password)
}

// forward sends r, whose body was body, to the server, within ctx, and
// reads its answer whole.
func (p *Proxy) forward(ctx context.Context, r *http.Request, body []byte) (answer, error) {
	req, err := p.upstreamRequest(ctx, r, body)
	if err != nil {
		return answer{}, err
	}
	return p.roundTrip(req)
}

// upstreamRequest is r, whose body was body, addressed to the server,
// within ctx.
func (p *Proxy) upstreamRequest(ctx context.Context, r *http.Request, body []byte) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, r.Method, p.target+r.URL.RequestURI(), bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = r.Header.Clone()
	for _, h := range hopHeaders {
		req.Header.Del(h)
	}
	return req, nil
}

// roundTrip sends a request to the server and reads its answer whole.
func (p *Proxy) roundTrip(req *http.Request) (answer, error) {
	resp, err := p.upstream.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxProxiedBody))
	if err != nil {
		return answer{}, err
	}
	for _, h := range hopHeaders {
		resp.Header.Del(h)
	}
	return answer{status: resp.StatusCode, header: resp.Header, body: data}, nil
}

// write sends an answer whole.
func (p *Proxy) write(w http.ResponseWriter, a answer) {
	h := w.Header()
	for k, v := range a.header {
		h[k] = v
	}
	if bodyAllowed(a.status) {
		h.Set("Content-Length", strconv.Itoa(len(a.body)))
	}
	w.WriteHeader(a.status)
	if bodyAllowed(a.status) {
		_, _ = w.Write(a.body)
	}
}

// cutOff sends the answer's headers, with the full Content-Length, and half
// of its body, then closes the connection.
func (p *Proxy) cutOff(w http.ResponseWriter, a answer) {
	if len(a.body) == 0 {
		p.inert.Add(1)
		p.write(w, a)
		return
	}
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	defer conn.Close()
	a.header.Set("Content-Length", strconv.Itoa(len(a.body)))
	fmt.Fprintf(brw, "HTTP/1.1 %d %s\r\n", a.status, http.StatusText(a.status))
	_ = a.header.Write(brw)
	_, _ = brw.WriteString("\r\n")
	_, _ = brw.Write(a.body[:len(a.body)/2])
	_ = brw.Flush()
}

// reset closes the client's connection with a TCP RST: SO_LINGER 0 makes
// close discard what is unsent and reset, as when a proxy or a server dies.
func reset(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// hold waits d, or until ctx ends; it reports whether d passed.
func hold(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func bodyAllowed(status int) bool {
	return status != http.StatusNoContent && status != http.StatusNotModified && status >= 200
}

func (p *Proxy) requestID() string { return "chaos-" + strconv.FormatInt(p.ids.Add(1), 10) }

// serverError is the proxy's own 5xx, in the shapes proxies send: JSON,
// an HTML page, nothing, plain text.
func (p *Proxy) serverError(status int) answer {
	h := http.Header{"X-Request-Id": {p.requestID()}}
	var body string
	switch status {
	case http.StatusInternalServerError:
		h.Set("Content-Type", "application/json")
		body = `{"code":"INTERNAL","message":"injected by the chaos proxy"}`
	case http.StatusBadGateway:
		h.Set("Content-Type", "text/html")
		body = "<html><body><h1>502 Bad Gateway</h1></body></html>"
	case http.StatusGatewayTimeout:
		h.Set("Content-Type", "text/plain")
		body = "upstream timed out"
	}
	return answer{status: status, header: h, body: []byte(body)}
}

func (p *Proxy) rateLimited() answer {
	h := http.Header{
		"X-Request-Id": {p.requestID()},
		"Retry-After":  {strconv.Itoa(int(p.retryAfter / time.Second))},
		"Content-Type": {"application/json"},
	}
	return answer{status: http.StatusTooManyRequests, header: h,
		body: []byte(`{"code":"RATE_LIMITED","message":"injected by the chaos proxy"}`)}
}
