package chaos

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// Resource kinds, as Created and the report name them.
const (
	KindService    = "service"
	KindReplicaSet = "replica set"
)

// Created is a resource the server actually created, as its own answer
// said, whatever the client then received.
type Created struct {
	Kind string // KindService or KindReplicaSet
	ID   string
	Name string
}

// Backend is the fake API (a dbcloudtest.Server, served through its
// Handler) on a loopback socket behind a recorder: the recorder sits
// between the proxy and the model, so it sees every answer before any fault
// and notes every resource created (a fork too) and every password the
// server issued.
type Backend struct {
	// URL is the base URL, ending in /v1, for clients that bypass the proxy.
	URL       string
	APIKey    string
	ProjectID string

	fake    *dbcloudtest.Server
	srv     *server
	closing sync.Once

	mu        sync.Mutex
	created   []Created
	passwords []string
	current   map[string]string // each service's password, as the server last set it
	errs      []error           // what the recorder could not record
}

// startServers starts a soak's servers: the fake behind the recorder, with
// step and seed, and the proxy in front of it, faulting as next draws. The
// fake's clock is the machine's, so the workflows wait in real time; its
// request log is off, since a soak reads the proxy's records instead.
func startServers(step time.Duration, seed uint64, next func() Fault, retryAfter time.Duration) (*Backend, *Proxy, error) {
	backend, err := StartBackend(dbcloudtest.WithStep(step), dbcloudtest.WithSeed(seed),
		dbcloudtest.WithRealTime(), dbcloudtest.WithRequestLog(false))
	if err != nil {
		return nil, nil, err
	}
	proxy, err := StartProxy(backend.URL, next, retryAfter)
	if err != nil {
		backend.Close()
		return nil, nil, err
	}
	return backend, proxy, nil
}

// StartBackend serves a fake API configured by opts (dbcloudtest's
// options) on a free loopback port, behind the recorder.
func StartBackend(opts ...dbcloudtest.Option) (*Backend, error) {
	fake, err := dbcloudtest.NewServerAt("", opts...)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fake.Close()
		return nil, err
	}
	b := &Backend{
		fake:      fake,
		URL:       "http://" + ln.Addr().String() + "/v1",
		APIKey:    fake.APIKey,
		ProjectID: fake.ProjectID,
		current:   map[string]string{},
	}
	b.srv = serve(ln, &http.Server{Handler: b.record(fake.Handler())})
	return b, nil
}

// Created returns every resource created so far, in order.
func (b *Backend) Created() []Created {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Created(nil), b.created...)
}

// Passwords returns every password the server issued (the initial_password
// of a create or fork answer). They are secrets: look for them, never print
// them.
func (b *Backend) Passwords() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.passwords...)
}

// CurrentPasswords returns each service's password as the server last set
// it (its create's answer, or an updatePassword it took), by service id.
// They are secrets: compare them, never print them.
func (b *Backend) CurrentPasswords() map[string]string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return maps.Clone(b.current)
}

// RecordErrors returns what the recorder could not record: a handler that
// panicked, or a create answered 2xx that it could not read. Each may be a
// resource missing from Created, which the checks would then not see.
func (b *Backend) RecordErrors() []error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]error(nil), b.errs...)
}

// Close stops the recorder's server, then the fake (its listener and its
// databases' endpoints), and returns once the handlers of both have ended.
// It is safe to call more than once.
func (b *Backend) Close() {
	b.closing.Do(func() {
		b.srv.stop()
		b.fake.Close()
	})
}

// route is what the recorder looks for in a request.
type route int

const (
	routeOther route = iota
	routeCreateService
	routeCreateReplicaSet
	routeUpdatePassword
)

// routeOf classifies a request by method and path (a fork creates a
// service), and names the service of an updatePassword.
func routeOf(r *http.Request) (rt route, service string) {
	segs := strings.Split(strings.TrimPrefix(r.URL.EscapedPath(), "/v1/"), "/")
	if r.Method != http.MethodPost || len(segs) < 3 || segs[0] != "projects" || segs[2] != "services" {
		return routeOther, ""
	}
	switch {
	case len(segs) == 3:
		return routeCreateService, ""
	case len(segs) != 5:
		return routeOther, ""
	case segs[4] == "forkService":
		return routeCreateService, ""
	case segs[4] == "replicaSets":
		return routeCreateReplicaSet, ""
	case segs[4] == "updatePassword":
		return routeUpdatePassword, segs[3]
	}
	return routeOther, ""
}

// record wraps the model's handler with the recorder.
func (b *Backend) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			// net/http recovers a handler's panic and logs it where nobody
			// reads: note it, then let it abort the connection as before.
			if v := recover(); v != nil {
				if v != http.ErrAbortHandler {
					b.fail(fmt.Errorf("%s %s: the handler panicked: %v", r.Method, r.URL.Path, v))
				}
				panic(v)
			}
		}()
		rt, service := routeOf(r)
		if rt == routeOther {
			next.ServeHTTP(w, r)
			return
		}
		var in struct {
			Password string `json:"password"`
		}
		if rt == routeUpdatePassword {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			_ = json.Unmarshal(body, &in) // a body the model refuses is not a password it set
		}
		cw := &captureWriter{ResponseWriter: w}
		next.ServeHTTP(cw, r)
		if cw.status < 200 || cw.status > 299 {
			return
		}
		if rt == routeUpdatePassword {
			b.mu.Lock()
			defer b.mu.Unlock()
			b.current[service] = in.Password
			return
		}
		var out struct {
			ServiceID       string `json:"service_id"`
			ID              string `json:"id"`
			Name            string `json:"name"`
			InitialPassword string `json:"initial_password"`
		}
		err := json.Unmarshal(cw.body.Bytes(), &out)
		c := Created{Kind: KindService, ID: out.ServiceID, Name: out.Name}
		if rt == routeCreateReplicaSet {
			c = Created{Kind: KindReplicaSet, ID: out.ID, Name: out.Name}
		}
		if err == nil && (c.ID == "" || c.Name == "") {
			err = errors.New("no id or name in it") // not the body: it holds a password
		}
		if err != nil {
			b.fail(fmt.Errorf("%s %s: the %d answer of a create, not recorded: %w", r.Method, r.URL.Path, cw.status, err))
			return
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		b.created = append(b.created, c)
		if out.InitialPassword != "" {
			b.passwords = append(b.passwords, out.InitialPassword)
			b.current[c.ID] = out.InitialPassword
		}
	})
}

func (b *Backend) fail(err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.errs = append(b.errs, err)
}

// captureWriter keeps a copy of what the model answers.
type captureWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

// WriteHeader notes the status and passes it on.
func (c *captureWriter) WriteHeader(status int) {
	c.status = status
	c.ResponseWriter.WriteHeader(status)
}

// Write keeps a copy of the body and passes it on.
func (c *captureWriter) Write(p []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	c.body.Write(p)
	return c.ResponseWriter.Write(p)
}
