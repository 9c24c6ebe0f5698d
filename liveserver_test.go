package dbcloud_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// liveServer is a small API of VPCs, peerings, identity and metrics on a
// loopback socket, for the tests of those operations until dbcloudtest
// models them: state the test controls and reads, and faults injected
// into the requests it names. Its project is p1; its identity, projects
// and metrics are the test's (authInfo, projects, metric).
type liveServer struct {
	*httptest.Server
	mu       sync.Mutex
	next     int
	vpcs     []dbcloud.VPC
	peerings map[string][]dbcloud.Peering // by VPC id
	faults   []serverFault
	seen     []string // "METHOD /path" of every request, faults included
	auth     []string // the Authorization header of every request
	authInfo string   // the body of GET /auth/info
	projects string   // the body of GET /projects
	// metric is the value of a bucket of the metric series, or nil for a
	// bucket without data.
	metric func(start time.Time) *float64
}

// serverFault is one injected fault: the next requests matching method and
// path (after /v1) get it.
type serverFault struct {
	method, path string
	what         faultKind
	times        int
}

type faultKind int

const (
	fault503   faultKind = iota // a 503 from a proxy: not handled
	faultTwice                  // handled twice (a duplicate on the way), then reset
)

func newLiveServer(t *testing.T) *liveServer {
	t.Helper()
	s := &liveServer{peerings: map[string][]dbcloud.Peering{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/projects/p1/vpcs", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		writeJSON(w, 200, append([]dbcloud.VPC{}, s.vpcs...))
	})
	mux.HandleFunc("POST /v1/projects/p1/vpcs", func(w http.ResponseWriter, r *http.Request) {
		var v dbcloud.VPC
		if decodeBody(w, r, &v) {
			v.ID = s.addVPC(v.Name, v.CIDR, v.RegionCode)
			writeJSON(w, 201, v)
		}
	})
	mux.HandleFunc("GET /v1/projects/p1/vpcs/{vpc}", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if i := s.vpcIndex(r.PathValue("vpc")); i >= 0 {
			writeJSON(w, 200, s.vpcs[i])
			return
		}
		notFound(w)
	})
	mux.HandleFunc("DELETE /v1/projects/p1/vpcs/{vpc}", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		i := s.vpcIndex(r.PathValue("vpc"))
		if i < 0 {
			notFound(w)
			return
		}
		s.vpcs = append(s.vpcs[:i], s.vpcs[i+1:]...)
		w.WriteHeader(204)
	})
	mux.HandleFunc("POST /v1/projects/p1/vpcs/{vpc}/rename", func(w http.ResponseWriter, r *http.Request) {
		var body struct{ Name string }
		_ = json.NewDecoder(r.Body).Decode(&body)
		s.mu.Lock()
		defer s.mu.Unlock()
		i := s.vpcIndex(r.PathValue("vpc"))
		if i < 0 {
			notFound(w)
			return
		}
		s.vpcs[i].Name = body.Name
		writeJSON(w, 200, map[string]string{"message": "renamed"})
	})
	mux.HandleFunc("GET /v1/projects/p1/vpcs/{vpc}/peerings", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.vpcIndex(r.PathValue("vpc")) < 0 {
			notFound(w)
			return
		}
		writeJSON(w, 200, append([]dbcloud.Peering{}, s.peerings[r.PathValue("vpc")]...))
	})
	mux.HandleFunc("POST /v1/projects/p1/vpcs/{vpc}/peerings", func(w http.ResponseWriter, r *http.Request) {
		var p dbcloud.Peering
		if !decodeBody(w, r, &p) {
			return
		}
		s.mu.Lock()
		found := s.vpcIndex(r.PathValue("vpc")) >= 0
		s.mu.Unlock()
		if !found {
			notFound(w)
			return
		}
		p.ID, p.Status = s.addPeering(r.PathValue("vpc"), p), dbcloud.PeeringPending
		writeJSON(w, 201, p)
	})
	mux.HandleFunc("GET /v1/projects/p1/vpcs/{vpc}/peerings/{id}", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		list := s.peerings[r.PathValue("vpc")]
		if i := peeringIndex(list, r.PathValue("id")); i >= 0 {
			writeJSON(w, 200, list[i])
			return
		}
		notFound(w)
	})
	mux.HandleFunc("DELETE /v1/projects/p1/vpcs/{vpc}/peerings/{id}", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		vpc := r.PathValue("vpc")
		i := peeringIndex(s.peerings[vpc], r.PathValue("id"))
		if i < 0 {
			notFound(w)
			return
		}
		s.peerings[vpc] = append(s.peerings[vpc][:i], s.peerings[vpc][i+1:]...)
		w.WriteHeader(204)
	})
	mux.HandleFunc("GET /v1/auth/info", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, s.authInfo)
	})
	mux.HandleFunc("GET /v1/projects", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, s.projects)
	})
	mux.HandleFunc("GET /v1/projects/{p}/services", func(w http.ResponseWriter, r *http.Request) {
		p := r.PathValue("p")
		writeJSON(w, 200, []map[string]any{{"service_id": p + "-svc", "project_id": p, "name": "db", "status": "READY"}})
	})
	mux.HandleFunc("POST /v1/projects/p1/services/{svc}/metrics/series", s.metricSeries)
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.seen = append(s.seen, r.Method+" "+strings.TrimPrefix(r.URL.EscapedPath(), "/v1"))
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		f, ok := s.takeFault(r)
		s.mu.Unlock()
		switch {
		case !ok:
			mux.ServeHTTP(w, r)
		case f == fault503:
			writeJSON(w, 503, map[string]string{"code": "UNAVAILABLE", "message": "try again"})
		case f == faultTwice:
			body, _ := io.ReadAll(r.Body)
			for range 2 {
				again := r.Clone(r.Context())
				again.Body = io.NopCloser(bytes.NewReader(body))
				mux.ServeHTTP(httptest.NewRecorder(), again)
			}
			reset(w)
		}
	}))
	t.Cleanup(func() {
		s.CloseClientConnections()
		s.Close()
	})
	return s
}

// takeFault returns the fault of r, if one is injected; s.mu is held.
func (s *liveServer) takeFault(r *http.Request) (faultKind, bool) {
	path := strings.TrimPrefix(r.URL.EscapedPath(), "/v1")
	for i := range s.faults {
		f := &s.faults[i]
		if f.times > 0 && f.method == r.Method && f.path == path {
			f.times--
			return f.what, true
		}
	}
	return 0, false
}

// inject adds a fault for the next times requests of method and path.
func (s *liveServer) inject(method, path string, what faultKind, times int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, serverFault{method, path, what, times})
}

// count is how many requests of method and path (after /v1) came.
func (s *liveServer) count(method, path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, seen := range s.seen {
		if seen == method+" "+path {
			n++
		}
	}
	return n
}

// requests returns "METHOD /path" (after /v1) of every request so far.
func (s *liveServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.seen...)
}

// addVPC stores a VPC and returns its id.
func (s *liveServer) addVPC(name, cidr, region string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	id := strconv.Itoa(1000 + s.next)
	s.vpcs = append(s.vpcs, dbcloud.VPC{ID: id, Name: name, CIDR: cidr, RegionCode: region})
	return id
}

// addPeering stores a pending peering of the VPC and returns its id.
func (s *liveServer) addPeering(vpc string, p dbcloud.Peering) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	p.ID, p.Status = "pcx-"+strconv.Itoa(s.next), dbcloud.PeeringPending
	s.peerings[vpc] = append(s.peerings[vpc], p)
	return p.ID
}

// setPeering sets a peering's status and error message.
func (s *liveServer) setPeering(vpc, id string, status dbcloud.PeeringStatus, message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i := peeringIndex(s.peerings[vpc], id); i >= 0 {
		s.peerings[vpc][i].Status, s.peerings[vpc][i].ErrorMessage = status, message
	}
}

// state returns the VPCs and the peerings of vpc, as the server holds them.
func (s *liveServer) state(vpc string) ([]dbcloud.VPC, []dbcloud.Peering) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]dbcloud.VPC{}, s.vpcs...), append([]dbcloud.Peering{}, s.peerings[vpc]...)
}

func (s *liveServer) vpcIndex(id string) int {
	for i := range s.vpcs {
		if s.vpcs[i].ID == id {
			return i
		}
	}
	return -1
}

func peeringIndex(list []dbcloud.Peering, id string) int {
	for i := range list {
		if list[i].ID == id {
			return i
		}
	}
	return -1
}

// client returns a client of the server with tiny retry waits, a short
// attempt timeout (for held connections) and a short settle, then opts.
func (s *liveServer) client(t *testing.T, opts ...dbcloud.Option) *dbcloud.Client {
	t.Helper()
	c, err := dbcloud.NewClient("vpc-test-key", append([]dbcloud.Option{
		dbcloud.WithBaseURL(s.URL + "/v1"),
		dbcloud.WithRetryWait(time.Millisecond, 2*time.Millisecond),
		dbcloud.WithAttemptTimeout(300 * time.Millisecond),
		dbcloud.WithCreateSettle(20 * time.Millisecond),
	}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// metricSeries answers a series query as the API does: every bucket of the
// window, from its start, one point each, a bucket without data as null.
func (s *liveServer) metricSeries(w http.ResponseWriter, r *http.Request) {
	var q struct {
		Name          string    `json:"name"`
		From          time.Time `json:"from"`
		To            time.Time `json:"to"`
		BucketSeconds int       `json:"bucket_seconds"`
	}
	if err := json.NewDecoder(r.Body).Decode(&q); err != nil || q.BucketSeconds < 60 {
		writeJSON(w, 400, map[string]string{"code": "INVALID_REQUEST", "message": "bad query"})
		return
	}
	type point struct {
		Time  time.Time `json:"time"`
		Value *float64  `json:"value"`
	}
	var data []point
	bucket := time.Duration(q.BucketSeconds) * time.Second
	for start := q.From.Truncate(bucket); start.Before(q.To); start = start.Add(bucket) {
		data = append(data, point{start, s.metric(start)})
	}
	writeJSON(w, 200, []map[string]any{{"labels": map[string]string{"role": "primary"}, "data": data}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// decodeBody decodes r's body into v, or answers 400 and reports false.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := json.NewDecoder(r.Body).Decode(v); err != nil {
		writeJSON(w, 400, map[string]string{"code": "INVALID_REQUEST", "message": err.Error()})
		return false
	}
	return true
}

func notFound(w http.ResponseWriter) {
	writeJSON(w, 404, map[string]string{"code": "NOT_FOUND", "message": "not found"})
}
