// The engine of the fake: a stateful, in-memory model of the database
// service API, with the status codes, error bodies and input rules of the
// live service. Server is its face; the engine_*.go files hold how the model
// works and export nothing but the engine's ServeHTTP (the types Server hands
// to users, such as Fault, Request and NodeLogEntry, live beside Server).
//
// What the model does (the statuses and their transitions, the state tables
// of services and replica sets, a new service's fields and defaults, the
// answers and their order of checks, validation, logs and cursors, and the
// database endpoints) is stated once, in the package doc, under "What the
// model does" and "Endpoints". The engine implements that statement; what
// follows is only how it does so and what the options (config) change.
//
// newEngine returns an http.Handler (what Server.Handler returns); startEngine
// serves one on a real socket, as NewServerAt does.
//
// Time. Nothing runs in the background but the listeners of live endpoints,
// which only answer: no timer. An asynchronous operation stores a plan of
// statuses, one config.step apart, and every read (a connection to a
// live endpoint too) computes the current status from the engine's clock:
// the package's clock, manual, ticking or real (clock.go). setStatus and setReplicaSetStatus replace a plan by the
// status they force.
//
// What only the options change:
//
//   - Without live endpoints (newEngine's live; startEngine turns them on)
//     no listener is opened: a service's endpoint is
//     <service_id>.<project_id>.fake.dbcloud.test:5432, its pooler the same
//     host on 6432, its vpc_endpoint
//     <service_id>.<project_id>.vpc.fake.dbcloud.test:5432, and a replica
//     set's host <set id>.<service host>.
//   - sinceExclusive makes the logs endpoint's since bound exclusive
//     (since < timestamp), the other reading of the API's "after this
//     time", so that clients are tested against both.
//   - Unless noLog (WithRequestLog(false)), every request is kept for
//     requestLog, each with the
//     status sent (set before the first byte of the answer); count counts
//     every request, faulted and failed ones included, by method and
//     escaped path, whether or not requests are recorded.
//
// Log entries are stored as template numbers and arguments, so 100,000 of
// them cost a few megabytes; logInterval lines are written when the clock is
// next read, and logRetention trims at the next request or helper call.
//
// A live endpoint reads the clock once per connection: with a ticking clock,
// probes move time as polls do. Its listener closes at the first request or
// helper call after its resource is gone. Live endpoints cost a goroutine
// and a port each. An engine made by newEngine with liveEndpoints must be
// closed (engine.close) after the HTTP server in front of it;
// engineServer.close does both.
//
// Faults. injectFault queues a Fault, matched before authentication and
// routing, the first matching one in the order added. Server.InjectFault
// says how Go's http.Transport may consume a Drop of a GET.

package dbcloudtest

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

const (
	defaultAPIKey    = "fake-key-0123456789"
	defaultProjectID = "proj-fake"
	// maxBodyBytes bounds what a request may make the fake hold in memory.
	maxBodyBytes = 1 << 20
)

// engine is a stateful, in-memory model of the database service API. It
// implements http.Handler and serves the routes under the prefix /v1. It is
// safe for concurrent use.
type engine struct {
	// calls are the requests being served (ServeHTTP), which
	// engineServer.close ends and waits for.
	calls handlerCalls

	// config is the server's options, with apiKey and projects defaulted;
	// the engine only reads it.
	config
	clock     *clock
	cursorKey []byte
	requests  atomic.Int64
	logsDue   int64 // no WithLogInterval line is due before, Unix nanoseconds

	mu       sync.Mutex
	idRand   *rand.Rand // ids and passwords: kept apart from logRand so seeding logs never changes later ids
	logRand  *rand.Rand
	services []*service // creation order, all projects
	byID     map[string]*service
	usedIDs  map[string]bool // every id handed out: never reused
	goneAt   time.Time       // no deletion completes before; see sweep
	gone     bool            // a deletion is planned
	faults   []*Fault
	tokens   map[string]time.Time // WithBearerTokens: each issued token's expiry
	counts   map[countKey]int

	log     []Request
	logBase int // sequence number of log[0]: resetCounts moves it on

	live *liveNet // nil: endpoints are not live
}

// newEngine returns a fake API configured by cfg, its clock made from cfg;
// with live, the endpoints it hands out are live (engine_live.go).
func newEngine(cfg config, live bool) *engine {
	cfg.projects = slices.Clone(cfg.projects)
	if cfg.apiKey == "" {
		cfg.apiKey = defaultAPIKey
	}
	if len(cfg.projects) == 0 {
		cfg.projects = []string{defaultProjectID}
	}
	a := &engine{
		config:  cfg,
		clock:   newClock(&cfg),
		idRand:  rand.New(rand.NewPCG(cfg.seed, 0x6462636c6f7564)),
		logRand: rand.New(rand.NewPCG(cfg.seed, 0x6c6f6773)),
		counts:  make(map[countKey]int),
		byID:    make(map[string]*service),
		usedIDs: make(map[string]bool),
	}
	a.calls.init()
	if live {
		a.live = newLiveNet()
	}
	key := rand.New(rand.NewPCG(cfg.seed, 0x637572736f72))
	a.cursorKey = make([]byte, 32)
	for i := range a.cursorKey {
		a.cursorKey[i] = byte(key.Uint32())
	}
	return a
}

// reply is what a handler decided to answer, before it is encoded.
type reply struct {
	status int
	body   any // nil: no body
	header http.Header
}

// encoded is a reply ready for the wire; faults need it whole to drop or cut it.
type encoded struct {
	status int
	header http.Header
	body   []byte
}

// apiError is a failed request: it becomes the error body of the live service.
type apiError struct {
	status  int
	code    string
	message string
	details string
}

// Error returns the message of the error body.
func (e *apiError) Error() string { return e.message }

// reply is the API's answer with the error, with header.
func (e *apiError) reply(header http.Header) reply {
	return reply{status: e.status, body: errorBody{e.code, e.message, e.details}, header: header}
}

func badRequest(field, reason string) error {
	return &apiError{http.StatusBadRequest, "INVALID_REQUEST", field + ": " + reason, "invalid field " + field}
}

func notFound(kind, id string) error {
	return &apiError{http.StatusNotFound, "NOT_FOUND", kind + " not found", kind + " " + strconv.Quote(id)}
}

func conflict(message, details string) error {
	return &apiError{http.StatusConflict, "CONFLICT", message, details}
}

// call is one routed request as the handlers see it.
type call struct {
	r       *http.Request
	now     time.Time
	project string
	service string // the service id the path names, if pathService
	set     string // the replica set id the path names, if pathSet
	body    []byte
	bodyErr error

	pathService, pathSet bool
	// svc and rs are the service and replica set the path names, found
	// before the handler runs (resolve).
	svc *service
	rs  *replicaSet
}

type handlerFunc func(a *engine, c *call) (reply, error)

type endpoint struct {
	fn       handlerFunc
	withBody bool // the operation takes a JSON body
}

// route is a path shape; "{p}", "{s}" and "{r}" are the project, service and
// replica set parameters.
type route struct {
	segs    []string
	methods map[string]endpoint
}

var routes = []route{
	{[]string{"projects", "{p}", "services"}, map[string]endpoint{
		http.MethodGet:  {(*engine).listServices, false},
		http.MethodPost: {(*engine).createService, true},
	}},
	{[]string{"projects", "{p}", "services", "{s}"}, map[string]endpoint{
		http.MethodGet:    {(*engine).getService, false},
		http.MethodDelete: {(*engine).deleteService, false},
	}},
	serviceAction("start", (*engine).startService, false),
	serviceAction("stop", (*engine).stopService, false),
	serviceAction("attachToVPC", (*engine).attachVPC, true),
	serviceAction("detachFromVPC", (*engine).detachVPC, true),
	serviceAction("resize", (*engine).resizeService, true),
	serviceAction("enablePooler", (*engine).enablePooler, false),
	serviceAction("disablePooler", (*engine).disablePooler, false),
	serviceAction("forkService", (*engine).forkService, true),
	serviceAction("updatePassword", (*engine).updatePassword, true),
	serviceAction("setEnvironment", (*engine).setEnvironment, true),
	serviceAction("setHA", (*engine).setHA, true),
	{[]string{"projects", "{p}", "services", "{s}", "logs"}, map[string]endpoint{
		http.MethodGet: {(*engine).getLogs, false},
	}},
	{[]string{"projects", "{p}", "services", "{s}", "replicaSets"}, map[string]endpoint{
		http.MethodGet:  {(*engine).listReplicaSets, false},
		http.MethodPost: {(*engine).createReplicaSet, true},
	}},
	{[]string{"projects", "{p}", "services", "{s}", "replicaSets", "{r}"}, map[string]endpoint{
		http.MethodDelete: {(*engine).deleteReplicaSet, false},
	}},
	replicaSetAction("resize", (*engine).resizeReplicaSet, true),
	replicaSetAction("enablePooler", (*engine).enableReplicaSetPooler, false),
	replicaSetAction("disablePooler", (*engine).disableReplicaSetPooler, false),
	replicaSetAction("setEnvironment", (*engine).setReplicaSetEnvironment, true),
}

func serviceAction(name string, fn handlerFunc, withBody bool) route {
	return route{[]string{"projects", "{p}", "services", "{s}", name}, map[string]endpoint{http.MethodPost: {fn, withBody}}}
}

func replicaSetAction(name string, fn handlerFunc, withBody bool) route {
	return route{[]string{"projects", "{p}", "services", "{s}", "replicaSets", "{r}", name}, map[string]endpoint{http.MethodPost: {fn, withBody}}}
}

// relPath is the escaped path after the /v1 prefix, as faults and counts see it.
func relPath(r *http.Request) string {
	p := r.URL.EscapedPath()
	switch {
	case p == "/v1":
		return ""
	case strings.HasPrefix(p, "/v1/"):
		return p[len("/v1"):]
	}
	return p
}

// ServeHTTP answers one request, through URL or Handler alike, as one of the
// calls that close ends and waits for: faults first, then authentication,
// routing and the model. Once closed, it answers 503 UNAVAILABLE.
func (a *engine) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !a.calls.begin() {
		a.answerClosed(w)
		return
	}
	defer a.calls.done()
	a.serve(w, r)
}

// answerClosed answers as a closed server does.
func (a *engine) answerClosed(w http.ResponseWriter) {
	closed := &apiError{http.StatusServiceUnavailable, "UNAVAILABLE", "dbcloudtest: the server is closed", "Close was called"}
	writeEncoded(w, encode(closed.reply(nil), a.nextRequestID()))
}

func (a *engine) serve(w http.ResponseWriter, r *http.Request) {
	id := a.nextRequestID()
	f, seq := a.arrive(r.Method, relPath(r), r.URL.RawQuery)
	if f != nil {
		ctx, release := a.calls.held(r.Context())
		defer release()
		a.serveFault(w, r.WithContext(ctx), id, f, seq)
		return
	}
	e := a.handle(r, id)
	a.answered(seq, e.status)
	writeEncoded(w, e)
}

// nextRequestID is the X-Request-Id of the next answer.
func (a *engine) nextRequestID() string {
	return "req-" + strconv.FormatInt(a.requests.Add(1), 10)
}

// handle runs a request through the model and encodes the answer.
func (a *engine) handle(r *http.Request, id string) encoded {
	rep, err := a.dispatch(r)
	if err != nil {
		rep = err.(*apiError).reply(rep.header) // the only error type handlers return
	}
	return encode(rep, id)
}

func (a *engine) dispatch(r *http.Request) (reply, error) {
	if err := a.authorized(r); err != nil {
		return reply{}, err
	}
	c := &call{r: r}
	ep, allow, ok := c.route()
	if !ok {
		return reply{}, &apiError{http.StatusNotFound, "NOT_FOUND", "no such route", r.Method + " " + r.URL.EscapedPath()}
	}
	if allow != nil {
		return reply{header: http.Header{"Allow": {strings.Join(allow, ", ")}}},
			&apiError{http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "method " + r.Method + " not allowed",
				"allowed: " + strings.Join(allow, ", ")}
	}
	if !slices.Contains(a.projects, c.project) {
		return reply{}, notFound("project", c.project)
	}
	if ep.withBody {
		// Read before taking the lock: a slow client must not stall the model.
		c.body, c.bodyErr = io.ReadAll(http.MaxBytesReader(nil, r.Body, maxBodyBytes))
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	c.now = a.clock.Now()
	a.sweep(c.now)
	if err := a.resolve(c); err != nil {
		return reply{}, err
	}
	return ep.fn(a, c)
}

// resolve finds the service and the replica set the path names, so that
// their errors come in the package documentation's order whatever the
// handler: service (404), replica_set_id too short (400), replica set (404).
func (a *engine) resolve(c *call) (err error) {
	if !c.pathService {
		return nil
	}
	if c.svc, err = a.findService(c.project, c.service); err != nil || !c.pathSet {
		return err
	}
	c.rs, err = findSet(c.svc, c.set)
	return err
}

// route matches the request path against the route table. allow is non-nil
// when the path exists but not for this method.
func (c *call) route() (ep endpoint, allow []string, ok bool) {
	if !strings.HasPrefix(c.r.URL.EscapedPath(), "/v1/") {
		return endpoint{}, nil, false
	}
	raw := strings.Split(strings.TrimPrefix(relPath(c.r), "/"), "/")
	segs := make([]string, len(raw))
	for i, s := range raw {
		u, err := url.PathUnescape(s)
		if err != nil {
			return endpoint{}, nil, false
		}
		segs[i] = u
	}
	for _, rt := range routes {
		if len(rt.segs) != len(segs) || !c.bind(rt.segs, segs) {
			continue
		}
		if ep, ok := rt.methods[c.r.Method]; ok {
			return ep, nil, true
		}
		for m := range rt.methods {
			allow = append(allow, m)
		}
		slices.Sort(allow)
		return endpoint{}, allow, true
	}
	return endpoint{}, nil, false
}

func (c *call) bind(pattern, segs []string) bool {
	for i, p := range pattern {
		switch p {
		case "{p}":
			c.project = segs[i]
		case "{s}":
			c.service, c.pathService = segs[i], true
		case "{r}":
			c.set, c.pathSet = segs[i], true
		default:
			if p != segs[i] {
				return false
			}
		}
	}
	return true
}

// jsonContentType is the Content-Type of every JSON answer.
var jsonContentType = []string{"application/json"}

func encode(rep reply, id string) encoded {
	// Content-Type's value is shared by all answers: header values are
	// replaced, never changed in place.
	e := encoded{status: rep.status, header: http.Header{}}
	for k, v := range rep.header {
		e.header[k] = slices.Clone(v)
	}
	e.header["X-Request-Id"] = []string{id}
	if rep.body != nil {
		e.body = wireJSON(rep.body)
		e.header["Content-Type"] = jsonContentType
	}
	if e.status != http.StatusNoContent {
		e.header.Set("Content-Length", strconv.Itoa(len(e.body)))
	}
	return e
}

// wireJSON encodes one of the fake's own types as the API does, with no
// HTML escaping. Only the fake's types are encoded: a failure is a bug in
// the fake.
func wireJSON(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("dbcloudtest: encoding a response: " + err.Error())
	}
	return buf.Bytes()
}

func writeEncoded(w http.ResponseWriter, e encoded) {
	h := w.Header()
	for k, v := range e.header {
		h[k] = v
	}
	w.WriteHeader(e.status)
	_, _ = w.Write(e.body)
}
