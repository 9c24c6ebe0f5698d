package dbcloud_test

// Fixtures of bench_test.go: the response bodies, the in-process servers,
// the clients, and the hand-written net/http + encoding/json baseline the SDK
// is measured against.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

const (
	benchKey     = "sk-bench-5c1e0a9d3f"
	benchProject = "proj-bench"
	benchService = "svc-bench"
)

// Plain types, as a careful user would write them by hand from the API's reference:
// the same fields and JSON tags as the SDK's types, the deprecated
// vpcEndpoint included, since the live API sends both.
type (
	plainService struct {
		ServiceID         string                 `json:"service_id"`
		ProjectID         string                 `json:"project_id"`
		Name              string                 `json:"name"`
		RegionCode        string                 `json:"region_code"`
		ServiceType       string                 `json:"service_type"`
		Status            string                 `json:"status"`
		Created           time.Time              `json:"created"`
		Resources         []plainResource        `json:"resources"`
		Endpoint          *plainEndpoint         `json:"endpoint,omitempty"`
		ConnectionPooler  *plainConnectionPooler `json:"connection_pooler,omitempty"`
		ForkedFrom        *plainForkedFrom       `json:"forked_from,omitempty"`
		HAReplicas        *plainHAReplicas       `json:"ha_replicas,omitempty"`
		InitialPassword   string                 `json:"initial_password,omitempty"`
		Metadata          *plainMetadata         `json:"metadata,omitempty"`
		Metrics           *plainMetrics          `json:"metrics,omitempty"`
		ReadReplicaSets   []plainReadReplicaSet  `json:"read_replica_sets,omitempty"`
		VPCEndpoint       *plainVPCEndpoint      `json:"vpc_endpoint,omitempty"`
		LegacyVPCEndpoint *plainVPCEndpoint      `json:"vpcEndpoint,omitempty"`
	}
	plainResource struct {
		ID   string             `json:"id,omitempty"`
		Spec *plainResourceSpec `json:"spec,omitempty"`
	}
	plainResourceSpec struct {
		CPUMillis  int    `json:"cpu_millis,omitempty"`
		MemoryGBs  int    `json:"memory_gbs,omitempty"`
		VolumeType string `json:"volume_type,omitempty"`
	}
	plainEndpoint struct {
		Host string `json:"host,omitempty"`
		Port int    `json:"port,omitempty"`
	}
	plainConnectionPooler struct {
		Endpoint *plainEndpoint `json:"endpoint,omitempty"`
	}
	plainForkedFrom struct {
		ProjectID string `json:"project_id,omitempty"`
		ServiceID string `json:"service_id,omitempty"`
		IsStandby bool   `json:"is_standby,omitempty"`
	}
	plainHAReplicas struct {
		ReplicaCount     int `json:"replica_count"`
		SyncReplicaCount int `json:"sync_replica_count"`
	}
	plainMetadata struct {
		Environment string `json:"environment,omitempty"`
	}
	plainMetrics struct {
		MemoryMB  int `json:"memory_mb"`
		MilliCPU  int `json:"milli_cpu"`
		StorageMB int `json:"storage_mb"`
	}
	plainVPCEndpoint struct {
		Host  string `json:"host,omitempty"`
		Port  int    `json:"port,omitempty"`
		VPCID string `json:"vpc_id,omitempty"`
	}
	plainReadReplicaSet struct {
		ID               string                 `json:"id"`
		Name             string                 `json:"name"`
		Status           string                 `json:"status"`
		Nodes            int                    `json:"nodes"`
		CPUMillis        int                    `json:"cpu_millis"`
		MemoryGBs        int                    `json:"memory_gbs"`
		Endpoint         *plainEndpoint         `json:"endpoint,omitempty"`
		ConnectionPooler *plainConnectionPooler `json:"connection_pooler,omitempty"`
		Metadata         *plainMetadata         `json:"metadata,omitempty"`
	}

	// plainCreateBody is the API's create-service body: sizes are strings.
	plainCreateBody struct {
		Name           string   `json:"name"`
		Addons         []string `json:"addons,omitempty"`
		CPUMillis      string   `json:"cpu_millis,omitempty"`
		MemoryGBs      string   `json:"memory_gbs,omitempty"`
		EnvironmentTag string   `json:"environment_tag,omitempty"`
		RegionCode     string   `json:"region_code,omitempty"`
		ReplicaCount   *int     `json:"replica_count,omitempty"`
	}

	// plainLogPage is what a careful user decodes from a logs page: the
	// structured entries and the cursor. The backwards-compatible "logs"
	// array is skipped by encoding/json without being decoded.
	plainLogPage struct {
		Entries    []plainLogEntry `json:"entries"`
		LastCursor string          `json:"last_cursor"`
	}
	plainLogEntry struct {
		Message   string    `json:"message"`
		Severity  string    `json:"severity"`
		Timestamp time.Time `json:"timestamp"`
	}
)

// finish applies the deprecated vpcEndpoint when vpc_endpoint is absent, as
// the SDK does.
func (s *plainService) finish() {
	if s.VPCEndpoint == nil {
		s.VPCEndpoint = s.LegacyVPCEndpoint
	}
}

// benchFullService returns a Service with every field set, i as a variant
// so that list entries differ.
func benchFullService(i int) plainService {
	id := "svc-" + strconv.Itoa(1000+i)
	vpc := &plainVPCEndpoint{Host: id + ".vpc.internal.example", Port: 5432, VPCID: strconv.Itoa(880000 + i)}
	replicaSet := func(n int) plainReadReplicaSet {
		rs := "rs-" + strconv.Itoa(100*i+n)
		return plainReadReplicaSet{
			ID:        rs,
			Name:      "reporting-" + strconv.Itoa(n),
			Status:    "active",
			Nodes:     2 + n,
			CPUMillis: 1000 * (n + 1),
			MemoryGBs: 4 * (n + 1),
			Endpoint:  &plainEndpoint{Host: rs + "." + id + ".db.example", Port: 35433 + n},
			ConnectionPooler: &plainConnectionPooler{
				Endpoint: &plainEndpoint{Host: rs + ".pooler." + id + ".db.example", Port: 36433 + n},
			},
			Metadata: &plainMetadata{Environment: "DEV"},
		}
	}
	return plainService{
		ServiceID:   id,
		ProjectID:   benchProject,
		Name:        "metrics-db-" + strconv.Itoa(i),
		RegionCode:  "us-east-1",
		ServiceType: "TIMESERIESDB",
		Status:      "READY",
		Created:     time.Date(2026, 3, 4, 5, 6, 7, 123_000_000, time.UTC).Add(time.Duration(i) * time.Minute),
		Resources: []plainResource{{
			ID:   "res-" + strconv.Itoa(i),
			Spec: &plainResourceSpec{CPUMillis: 2000, MemoryGBs: 8, VolumeType: "gp3"},
		}},
		Endpoint: &plainEndpoint{Host: id + "." + benchProject + ".db.example", Port: 35432},
		ConnectionPooler: &plainConnectionPooler{
			Endpoint: &plainEndpoint{Host: id + ".pooler." + benchProject + ".db.example", Port: 36432},
		},
		ForkedFrom:        &plainForkedFrom{ProjectID: "proj-parent", ServiceID: "svc-parent", IsStandby: true},
		HAReplicas:        &plainHAReplicas{ReplicaCount: 2, SyncReplicaCount: 1},
		InitialPassword:   "Init1al-Pa55-" + strconv.Itoa(i),
		Metadata:          &plainMetadata{Environment: "PROD"},
		Metrics:           &plainMetrics{MemoryMB: 3072, MilliCPU: 750, StorageMB: 10240},
		ReadReplicaSets:   []plainReadReplicaSet{replicaSet(0), replicaSet(1)},
		VPCEndpoint:       vpc,
		LegacyVPCEndpoint: vpc,
	}
}

func benchMarshal(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// checkFullService fails unless every field of s, of its first resource and
// of each read replica set is set: a fixture field the decoder dropped would
// make the comparison with the baseline unfair.
func checkFullService(tb testing.TB, s *dbcloud.Service) {
	tb.Helper()
	vals := []reflect.Value{reflect.ValueOf(*s)}
	if len(s.Resources) == 1 {
		vals = append(vals, reflect.ValueOf(s.Resources[0]), reflect.ValueOf(*s.Resources[0].Spec))
	}
	for _, rs := range s.ReadReplicaSets {
		vals = append(vals, reflect.ValueOf(rs))
	}
	for _, v := range vals {
		for i := range v.NumField() {
			if v.Field(i).IsZero() {
				tb.Fatalf("%s.%s not decoded", v.Type().Name(), v.Type().Field(i).Name)
			}
		}
	}
	if len(s.Resources) != 1 || len(s.ReadReplicaSets) != 2 || s.InitialPassword == "" {
		tb.Fatalf("service %s decoded incompletely", s.ServiceID)
	}
}

func checkPlainService(tb testing.TB, s *plainService) {
	tb.Helper()
	if s.VPCEndpoint == nil || s.Metrics == nil || len(s.ReadReplicaSets) != 2 || s.InitialPassword == "" ||
		s.ReadReplicaSets[1].ConnectionPooler == nil || s.Created.IsZero() {
		tb.Fatalf("service %s decoded incompletely", s.ServiceID)
	}
}

// Pre-built header values: the servers spend the same, small, time on every
// response whoever the client is.
var (
	benchJSONHeader = []string{"application/json"}
)

// benchWrite writes a pre-encoded body with Content-Type and Content-Length.
func benchWrite(w http.ResponseWriter, status int, body []byte, length []string) {
	h := w.Header()
	h["Content-Type"] = benchJSONHeader
	h["Content-Length"] = length
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// benchResponder answers one method and path with a fixed body. It reads
// and discards any request body.
func benchResponder(method, path string, status int, body []byte) http.Handler {
	length := []string{strconv.Itoa(len(body))}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != method || r.URL.Path != path {
			http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusTeapot)
			return
		}
		_, _ = io.Copy(io.Discard, r.Body)
		benchWrite(w, status, body, length)
	})
}

// benchServer starts an httptest server, closed when tb ends. It also
// checks, last, that no goroutine outlives the benchmark or test.
func benchServer(tb testing.TB, h http.Handler) *httptest.Server {
	tb.Helper()
	dbcloudtest.CheckGoroutines(tb)
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	return srv
}

// benchTransport is the transport both sides use: the default settings
// with a pool large enough for a shared client.
func benchTransport() *http.Transport {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 32
	return tr
}

// benchSDK returns an SDK client of srv; its idle connections are closed
// when tb ends.
func benchSDK(tb testing.TB, srv *httptest.Server) *dbcloud.Client {
	return loopbackTarget(tb, srv).sdk(tb)
}

// benchTarget is where a benchmark's two clients send their requests: the
// API's base URL and a transport for each client.
type benchTarget struct {
	url       string
	transport func() http.RoundTripper
}

// loopbackTarget is srv on its real socket, each client on its own
// transport; idle connections are closed when tb ends.
func loopbackTarget(tb testing.TB, srv *httptest.Server) benchTarget {
	return benchTarget{url: srv.URL + "/v1", transport: func() http.RoundTripper {
		tr := benchTransport()
		tb.Cleanup(tr.CloseIdleConnections)
		return tr
	}}
}

// memoryTarget is h called in-process by the transport: no socket, no
// server goroutine, no kernel, so nearly all of a call's time is the
// client's. The handler and the recording of its answer cost both sides
// the same.
func memoryTarget(h http.Handler) benchTarget {
	return benchTarget{url: "https://api.bench.test/v1", transport: func() http.RoundTripper {
		return handlerTransport{h}
	}}
}

// handlerTransport answers a request by calling its handler.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	in := r
	if r.Body == nil {
		// A server's request always has a body; the transport must not
		// change the caller's.
		in = r.WithContext(r.Context())
		in.Body = http.NoBody
	}
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, in)
	_ = in.Body.Close() // a RoundTripper closes the request's body
	return rec.Result(), nil
}

// benchNets runs bench against h twice: net=loopback, an httptest server on
// a real socket, what a call costs end to end; and net=memory, h called
// in-process, what the client costs by itself. On loopback the server and
// the kernel take most of the time and add their noise to both sides; in
// memory the ratio prices the SDK's own work.
func benchNets(b *testing.B, h http.Handler, bench func(*testing.B, benchTarget)) {
	b.Run("net=loopback", func(b *testing.B) { bench(b, loopbackTarget(b, benchServer(b, h))) })
	b.Run("net=memory", func(b *testing.B) {
		dbcloudtest.CheckGoroutines(b)
		bench(b, memoryTarget(h))
	})
}

// sdk returns an SDK client of t, with opts.
func (t benchTarget) sdk(tb testing.TB, opts ...dbcloud.Option) *dbcloud.Client {
	tb.Helper()
	c, err := dbcloud.NewClient(benchKey, append([]dbcloud.Option{
		dbcloud.WithBaseURL(t.url),
		dbcloud.WithHTTPClient(&http.Client{Transport: t.transport()}),
	}, opts...)...)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// plain returns a baseline client of t.
func (t benchTarget) plain() *plainClient {
	return &plainClient{hc: &http.Client{Transport: t.transport()}, base: t.url, auth: "Bearer " + benchKey}
}

// plainClient is the baseline: what a careful user writes with net/http
// and encoding/json alone.
type plainClient struct {
	hc   *http.Client
	base string
	auth string
}

func newPlainClient(tb testing.TB, srv *httptest.Server) *plainClient {
	return loopbackTarget(tb, srv).plain()
}

// do sends one request and decodes a response of status want into out.
func (c *plainClient) do(ctx context.Context, method, rawURL string, body []byte, want int, out any) error {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, rawURL, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", c.auth)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer func() {
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
	}()
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: status %d", method, rawURL, resp.StatusCode)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

func (c *plainClient) getService(ctx context.Context, project, service string) (*plainService, error) {
	var s plainService
	u := c.base + "/projects/" + url.PathEscape(project) + "/services/" + url.PathEscape(service)
	if err := c.do(ctx, http.MethodGet, u, nil, http.StatusOK, &s); err != nil {
		return nil, err
	}
	s.finish()
	return &s, nil
}

func (c *plainClient) listServices(ctx context.Context, project string) ([]plainService, error) {
	var list []plainService
	u := c.base + "/projects/" + url.PathEscape(project) + "/services"
	if err := c.do(ctx, http.MethodGet, u, nil, http.StatusOK, &list); err != nil {
		return nil, err
	}
	for i := range list {
		list[i].finish()
	}
	return list, nil
}

func (c *plainClient) createService(ctx context.Context, project string, r *dbcloud.CreateServiceRequest) (*plainService, error) {
	addons := make([]string, len(r.Addons))
	for i, a := range r.Addons {
		addons[i] = string(a)
	}
	body, err := json.Marshal(plainCreateBody{
		Name:           r.Name,
		Addons:         addons,
		CPUMillis:      strconv.Itoa(r.CPUMillis),
		MemoryGBs:      strconv.Itoa(r.MemoryGBs),
		EnvironmentTag: string(r.EnvironmentTag),
		RegionCode:     r.RegionCode,
		ReplicaCount:   r.ReplicaCount,
	})
	if err != nil {
		return nil, err
	}
	var s plainService
	u := c.base + "/projects/" + url.PathEscape(project) + "/services"
	if err := c.do(ctx, http.MethodPost, u, body, http.StatusAccepted, &s); err != nil {
		return nil, err
	}
	s.finish()
	return &s, nil
}

// allLogs follows last_cursor by hand and calls fn with every entry.
func (c *plainClient) allLogs(ctx context.Context, project, service string, fn func(*plainLogEntry)) error {
	base := c.base + "/projects/" + url.PathEscape(project) + "/services/" + url.PathEscape(service) + "/logs"
	cursor := ""
	for {
		u := base
		if cursor != "" {
			u += "?cursor=" + url.QueryEscape(cursor)
		}
		var page plainLogPage
		if err := c.do(ctx, http.MethodGet, u, nil, http.StatusOK, &page); err != nil {
			return err
		}
		for i := range page.Entries {
			fn(&page.Entries[i])
		}
		if page.LastCursor == "" || page.LastCursor == cursor {
			return nil
		}
		cursor = page.LastCursor
	}
}

// Logs: a deterministic history, page k of which is computed from k alone,
// so a server can serve any length without holding it.

const benchLogPageSize = 500 // the API's maximum

// benchLogNewest is the timestamp of the newest entry; entry n (0 = newest)
// is n*7 ms older.
var benchLogNewest = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

var benchSeverities = [...]string{"LOG", "LOG", "LOG", "WARNING", "LOG", "ERROR", "LOG", "LOG", "FATAL", "LOG", "LOG", "WARNING"}

const (
	benchCursorPrefix = "eyJwYWdlIjoi" // opaque-looking, as the live API's are
	benchCursorSuffix = "In0.c2lnbmF0dXJl"
)

func benchCursor(k int) string {
	return benchCursorPrefix + strconv.Itoa(k) + benchCursorSuffix
}

// benchParseCursor returns the page a cursor points to.
func benchParseCursor(c string) (int, bool) {
	s, ok := strings.CutPrefix(c, benchCursorPrefix)
	if !ok {
		return 0, false
	}
	if s, ok = strings.CutSuffix(s, benchCursorSuffix); !ok {
		return 0, false
	}
	k, err := strconv.Atoi(s)
	return k, err == nil && k >= 0
}

// appendLogMessage appends the message of entry n: plain ASCII, no byte
// that JSON escapes.
func appendLogMessage(dst []byte, n int) []byte {
	switch n % 4 {
	case 0:
		dst = append(dst, "connection authorized: user=app database=metrics application_name=worker-"...)
		return strconv.AppendInt(dst, int64(n%97), 10)
	case 1:
		dst = append(dst, "duration: "...)
		dst = strconv.AppendInt(dst, int64(n%1000), 10)
		dst = append(dst, ".412 ms  statement: SELECT time, value FROM readings WHERE device_id = "...)
		return strconv.AppendInt(dst, int64(n), 10)
	case 2:
		dst = append(dst, "checkpoint complete: wrote "...)
		dst = strconv.AppendInt(dst, int64(n%5000), 10)
		return append(dst, " buffers (1.2%); 0 WAL file(s) added, 0 removed, 1 recycled"...)
	default:
		dst = append(dst, "could not receive data from client: Connection reset by peer (pid "...)
		dst = strconv.AppendInt(dst, int64(10000+n%30000), 10)
		return append(dst, ')')
	}
}

func benchLogTime(n int) time.Time {
	return benchLogNewest.Add(-time.Duration(n) * 7 * time.Millisecond)
}

// appendLogPage appends the JSON of page k of a history of pages pages,
// shaped like the live API's: both logs and entries, both cursors (absent
// on the last page).
func appendLogPage(dst []byte, k, pages int) []byte {
	first := k * benchLogPageSize
	dst = append(dst, `{"logs":[`...)
	for i := range benchLogPageSize {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '"')
		dst = appendLogMessage(dst, first+i)
		dst = append(dst, '"')
	}
	dst = append(dst, `],"entries":[`...)
	for i := range benchLogPageSize {
		n := first + i
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"message":"`...)
		dst = appendLogMessage(dst, n)
		dst = append(dst, `","severity":"`...)
		dst = append(dst, benchSeverities[n%len(benchSeverities)]...)
		dst = append(dst, `","timestamp":"`...)
		dst = benchLogTime(n).AppendFormat(dst, time.RFC3339Nano)
		dst = append(dst, `"}`...)
	}
	dst = append(dst, ']')
	if k+1 < pages {
		c := benchCursor(k + 1)
		dst = append(dst, `,"last_cursor":"`...)
		dst = append(dst, c...)
		dst = append(dst, `","lastCursor":"`...)
		dst = append(dst, c...)
		dst = append(dst, '"')
	}
	return append(dst, '}')
}

// logServer serves the logs of benchService. With pre set it writes the
// pre-encoded pages; otherwise it generates each page from its cursor into
// one reused buffer, so serving any history length costs one page.
type logServer struct {
	pages  int
	pre    [][]byte
	preLen [][]string // Content-Length of each pre-encoded page

	mu  sync.Mutex
	buf []byte
}

func (s *logServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || r.URL.Path != "/v1/projects/"+benchProject+"/services/"+benchService+"/logs" {
		http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusTeapot)
		return
	}
	k := 0
	if r.URL.Query().Has("until") && !r.URL.Query().Has("cursor") {
		// AllLogs' second page: until just after the first page's oldest
		// entry (see internal/logwalk). The history does not change here, so it is
		// the page the first page's cursor names.
		k = 1
	}
	if c := r.URL.Query().Get("cursor"); c != "" {
		var ok bool
		if k, ok = benchParseCursor(c); !ok || k >= s.pages {
			http.Error(w, `{"code":"INVALID_REQUEST","message":"bad cursor"}`, http.StatusBadRequest)
			return
		}
	}
	if s.pre != nil {
		benchWrite(w, http.StatusOK, s.pre[k], s.preLen[k])
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = appendLogPage(s.buf[:0], k, s.pages)
	benchWrite(w, http.StatusOK, s.buf, []string{strconv.Itoa(len(s.buf))})
}

// newPreEncodedLogServer pre-encodes every page of a history of pages pages.
func newPreEncodedLogServer(pages int) *logServer {
	s := &logServer{pages: pages, pre: make([][]byte, pages), preLen: make([][]string, pages)}
	for k := range pages {
		s.pre[k] = appendLogPage(nil, k, pages)
		s.preLen[k] = []string{strconv.Itoa(len(s.pre[k]))}
	}
	return s
}
