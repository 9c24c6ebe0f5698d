package chaos

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/fakeapi"
)

// Resource kinds, as Created and the report name them.
const (
	KindService    = "service"
	KindReplicaSet = "replica set"
)

// Created is a resource the server actually created, as its own answer
// said, whatever the client then received.
type Created struct {
	Kind      string // KindService or KindReplicaSet
	ID        string
	Name      string
	ServiceID string // the service of a replica set
}

// Backend is the fake API on a loopback socket behind a recorder: the
// recorder sits between the proxy and the model, so it sees every answer
// before any fault and notes every resource created and every password the
// server issued or was given.
type Backend struct {
	// URL is the base URL, ending in /v1, for clients that bypass the proxy.
	URL       string
	APIKey    string
	ProjectID string

	srv     *http.Server
	served  chan struct{}
	closing sync.Once

	mu        sync.Mutex
	created   []Created
	passwords []string
}

// StartBackend serves a fake API configured by opts on a free loopback port.
func StartBackend(opts fakeapi.Options) (*Backend, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	api := fakeapi.New(opts)
	b := &Backend{
		URL:       "http://" + ln.Addr().String() + "/v1",
		APIKey:    api.APIKey(),
		ProjectID: api.ProjectID(),
		served:    make(chan struct{}),
	}
	b.srv = &http.Server{
		Handler:           b.record(api),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	go func() {
		defer close(b.served)
		_ = b.srv.Serve(ln)
	}()
	return b, nil
}

// Created returns every resource created so far, in order.
func (b *Backend) Created() []Created {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]Created(nil), b.created...)
}

// Passwords returns every password the server issued (initial_password) or
// was given (updatePassword). They are secrets: look for them, never print
// them.
func (b *Backend) Passwords() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.passwords...)
}

// Close stops the server and returns once its handlers have ended. It is
// safe to call more than once.
func (b *Backend) Close() {
	b.closing.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if b.srv.Shutdown(ctx) != nil {
			_ = b.srv.Close()
		}
		<-b.served
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

// routeOf classifies a request by method and path; serviceID is the
// unescaped service segment, when there is one.
func routeOf(r *http.Request) (rt route, serviceID string) {
	segs := strings.Split(strings.TrimPrefix(r.URL.EscapedPath(), "/v1/"), "/")
	if r.Method != http.MethodPost || len(segs) < 3 || segs[0] != "projects" || segs[2] != "services" {
		return routeOther, ""
	}
	if len(segs) == 3 {
		return routeCreateService, ""
	}
	serviceID, err := url.PathUnescape(segs[3])
	if err != nil || len(segs) != 5 {
		return routeOther, ""
	}
	switch segs[4] {
	case "replicaSets":
		return routeCreateReplicaSet, serviceID
	case "updatePassword":
		return routeUpdatePassword, serviceID
	}
	return routeOther, ""
}

// record wraps the model's handler with the recorder.
func (b *Backend) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rt, serviceID := routeOf(r)
		switch rt {
		case routeOther:
			next.ServeHTTP(w, r)
			return
		case routeUpdatePassword:
			body, err := io.ReadAll(io.LimitReader(r.Body, maxProxiedBody))
			if err != nil {
				panic(http.ErrAbortHandler)
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
			var in struct {
				Password string `json:"password"`
			}
			if json.Unmarshal(body, &in) == nil {
				b.addPassword(in.Password)
			}
			next.ServeHTTP(w, r)
			return
		}
		cw := &captureWriter{ResponseWriter: w}
		next.ServeHTTP(cw, r)
		if cw.status < 200 || cw.status > 299 {
			return
		}
		var out struct {
			ServiceID       string `json:"service_id"`
			ID              string `json:"id"`
			Name            string `json:"name"`
			InitialPassword string `json:"initial_password"`
		}
		if err := json.Unmarshal(cw.body.Bytes(), &out); err != nil {
			panic("chaos: the fake answered a create with an unreadable body: " + err.Error())
		}
		b.mu.Lock()
		defer b.mu.Unlock()
		if rt == routeCreateService {
			b.created = append(b.created, Created{Kind: KindService, ID: out.ServiceID, Name: out.Name})
		} else {
			b.created = append(b.created, Created{Kind: KindReplicaSet, ID: out.ID, Name: out.Name, ServiceID: serviceID})
		}
		if out.InitialPassword != "" {
			b.passwords = append(b.passwords, out.InitialPassword)
		}
	})
}

func (b *Backend) addPassword(p string) {
	if p == "" {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.passwords = append(b.passwords, p)
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
