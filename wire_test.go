package dbcloud_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/jarcoal/httpmock"
)

const (
	wireKey  = "test-key-123"
	wireBase = "https://api.test/v1"
)

// wireRequest is what the mock saw of one request.
type wireRequest struct {
	Method           string
	URL              string
	EscapedPath      string
	RawQuery         string
	Fragment         string
	Query            url.Values
	Header           http.Header
	Body             []byte
	ContentLength    int64
	TransferEncoding []string
}

// wireRecorder records the requests that reach its responders. Responders
// may run on any goroutine, hence the mutex.
type wireRecorder struct {
	mu   sync.Mutex
	reqs []wireRequest
}

func (r *wireRecorder) record(req *http.Request) error {
	w := wireRequest{
		Method:           req.Method,
		URL:              req.URL.String(),
		EscapedPath:      req.URL.EscapedPath(),
		RawQuery:         req.URL.RawQuery,
		Fragment:         req.URL.Fragment,
		Query:            req.URL.Query(),
		Header:           req.Header.Clone(),
		ContentLength:    req.ContentLength,
		TransferEncoding: req.TransferEncoding,
	}
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		if err != nil {
			return err
		}
		w.Body = b
	}
	r.mu.Lock()
	r.reqs = append(r.reqs, w)
	r.mu.Unlock()
	return nil
}

func (r *wireRecorder) all() []wireRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]wireRequest(nil), r.reqs...)
}

// respond returns a responder that records the request and answers with
// status and body (JSON; "" for none).
func (r *wireRecorder) respond(status int, body string) httpmock.Responder {
	return func(req *http.Request) (*http.Response, error) {
		if err := r.record(req); err != nil {
			return nil, err
		}
		return wireResponse(status, body), nil
	}
}

// client returns an HTTP client whose every request is recorded by r and
// answered by answer, whatever its route.
func (r *wireRecorder) client(answer func(*http.Request) *http.Response) *http.Client {
	mt := httpmock.NewMockTransport()
	mt.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		if err := r.record(req); err != nil {
			return nil, err
		}
		return answer(req), nil
	})
	return &http.Client{Transport: mt}
}

func wireResponse(status int, body string) *http.Response {
	resp := httpmock.NewStringResponse(status, body)
	if body != "" {
		resp.Header.Set("Content-Type", "application/json")
	}
	return resp
}

// newWireClient returns a client whose attempts go to a fresh mock
// transport. A request to a route nobody registered fails the test.
func newWireClient(t *testing.T, opts ...dbcloud.Option) (*dbcloud.Client, *httpmock.MockTransport) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	mt.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		t.Errorf("unexpected request: %s %s", req.Method, req.URL)
		return httpmock.NewStringResponse(http.StatusTeapot, ""), nil
	})
	c, err := dbcloud.NewClient(wireKey, append([]dbcloud.Option{
		dbcloud.WithBaseURL(wireBase),
		dbcloud.WithHTTPClient(&http.Client{Transport: mt}),
		dbcloud.WithRetryWait(time.Millisecond, 2*time.Millisecond),
	}, opts...)...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c, mt
}

// newRecordingClient returns a client whose every request is recorded by
// rec and answered by answer, whatever its route.
func newRecordingClient(t *testing.T, rec *wireRecorder, answer func(*http.Request) *http.Response, key string, opts ...dbcloud.Option) *dbcloud.Client {
	t.Helper()
	c, err := dbcloud.NewClient(key, append([]dbcloud.Option{
		dbcloud.WithHTTPClient(rec.client(answer)),
		dbcloud.WithRetryWait(time.Millisecond, 2*time.Millisecond),
		dbcloud.WithRetryMax(0),
	}, opts...)...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c
}

func wireFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "wire", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// wireSvcJSON is a Service response with the required fields, plus extra
// (more fields as a JSON fragment, "" for none).
func wireSvcJSON(id, name, status, extra string) string {
	s := fmt.Sprintf(`{"service_id":%q,"project_id":"proj-1","name":%q,"region_code":"us-east-1",`+
		`"service_type":"POSTGRES","status":%q,"created":"2026-03-05T08:00:00Z",`+
		`"resources":[{"id":"res-9","spec":{"cpu_millis":1000,"memory_gbs":4,"volume_type":"gp3"}}]`, id, name, status)
	if extra != "" {
		s += "," + extra
	}
	return s + "}"
}

// wireSvc is the Service of wireSvcJSON with no extra.
func wireSvc(id, name string, status dbcloud.ServiceStatus) *dbcloud.Service {
	return &dbcloud.Service{
		ServiceID:   id,
		ProjectID:   "proj-1",
		Name:        name,
		RegionCode:  "us-east-1",
		ServiceType: dbcloud.ServiceTypePostgres,
		Status:      status,
		Created:     time.Date(2026, 3, 5, 8, 0, 0, 0, time.UTC),
		Resources:   []dbcloud.Resource{{ID: "res-9", Spec: &dbcloud.ResourceSpec{CPUMillis: 1000, MemoryGBs: 4, VolumeType: "gp3"}}},
	}
}

// wireFullService is the Service of testdata/wire/service_full.json.
func wireFullService() *dbcloud.Service {
	return &dbcloud.Service{
		ServiceID:   "svc-1",
		ProjectID:   "proj-1",
		Name:        "metrics-db",
		RegionCode:  "us-east-1",
		ServiceType: dbcloud.ServiceTypeTimeSeries,
		Status:      dbcloud.StatusReady,
		Created:     time.Date(2026, 3, 4, 5, 6, 7, 123_000_000, time.UTC),
		Resources: []dbcloud.Resource{{
			ID:   "res-1",
			Spec: &dbcloud.ResourceSpec{CPUMillis: 2000, MemoryGBs: 8, VolumeType: "gp3"},
		}},
		Endpoint: &dbcloud.Endpoint{Host: "svc-1.proj-1.db.test", Port: 35432},
		ConnectionPooler: &dbcloud.ConnectionPooler{
			Endpoint: &dbcloud.Endpoint{Host: "svc-1.pooler.proj-1.db.test", Port: 36432},
		},
		ForkedFrom:      &dbcloud.ForkedFrom{ProjectID: "proj-0", ServiceID: "svc-0", IsStandby: true},
		HAReplicas:      &dbcloud.HAReplicas{ReplicaCount: 2, SyncReplicaCount: 1},
		InitialPassword: dbcloud.Secret("s3cr3t-Init1al"),
		Metadata:        &dbcloud.Metadata{Environment: dbcloud.EnvironmentProd},
		Metrics:         &dbcloud.Metrics{MemoryMB: 3072, MilliCPU: 750, StorageMB: 10240},
		ReadReplicaSets: []dbcloud.ReadReplicaSet{{
			ID:        "rs-100",
			Name:      "reporting",
			Status:    dbcloud.ReplicaSetActive,
			Nodes:     2,
			CPUMillis: 1000,
			MemoryGBs: 4,
			Endpoint:  &dbcloud.Endpoint{Host: "rs-100.proj-1.db.test", Port: 35433},
			ConnectionPooler: &dbcloud.ConnectionPooler{
				Endpoint: &dbcloud.Endpoint{Host: "rs-100.pooler.proj-1.db.test", Port: 36433},
			},
			Metadata: &dbcloud.Metadata{Environment: dbcloud.EnvironmentDev},
		}},
		VPCEndpoint: &dbcloud.VPCEndpoint{Host: "svc-1.vpc.internal.test", Port: 5432, VPCID: "12345"},
	}
}

// TestWireFullServiceIsComplete keeps the full fixture honest: every field
// of Service, and of its first read replica set, is set, so a field the
// decoder drops shows up as a diff in TestWireOperations.
func TestWireFullServiceIsComplete(t *testing.T) {
	t.Parallel()
	s := wireFullService()
	for _, v := range []reflect.Value{reflect.ValueOf(*s), reflect.ValueOf(s.ReadReplicaSets[0])} {
		for i := range v.NumField() {
			if v.Field(i).IsZero() {
				t.Errorf("%s.%s is not set in the full fixture", v.Type().Name(), v.Type().Field(i).Name)
			}
		}
	}
}

// fullCreateRequest is a CreateServiceRequest with every field set (Shared
// excluded: it cannot be combined with sizes).
func fullCreateRequest() *dbcloud.CreateServiceRequest {
	return &dbcloud.CreateServiceRequest{
		Name:           "metrics-db",
		Addons:         []dbcloud.Addon{dbcloud.AddonTimeSeries, dbcloud.AddonAI},
		CPUMillis:      2000,
		MemoryGBs:      8,
		EnvironmentTag: dbcloud.EnvironmentProd,
		RegionCode:     "us-east-1",
		ReplicaCount:   new(2),
	}
}

// wireCase is one call of the SDK and the exchange it must make.
type wireCase struct {
	name     string
	method   string
	path     string     // after the base URL, escaped
	query    url.Values // non-nil: registered with RegisterResponderWithQuery
	status   int
	respBody string
	call     func(context.Context, *dbcloud.Client) (any, error)
	wantBody map[string]any // nil: the request has no body at all
	want     any            // the decoded result; nil for calls that return only an error
}

func TestWireOperations(t *testing.T) {
	t.Parallel()
	const (
		svcBase = "/projects/proj-1/services"
		svc     = svcBase + "/svc-1"
		rsBase  = svc + "/replicaSets"
		rs      = rsBase + "/rs-100"
	)
	fullJSON := wireFixture(t, "service_full.json")

	listWant := []dbcloud.Service{*wireFullService(), *wireSvc("svc-2", "vectors", dbcloud.StatusPaused)}
	// The list fixture carries fewer optional parts than the full one.
	listWant[0].ConnectionPooler, listWant[0].ForkedFrom, listWant[0].InitialPassword = nil, nil, ""
	listWant[0].ReadReplicaSets = nil
	listWant[1].RegionCode = "eu-west-1"
	listWant[1].Created = time.Date(2026, 1, 15, 10, 0, 0, 0, time.UTC)
	listWant[1].Resources = []dbcloud.Resource{}

	createFullWant := wireSvc("svc-new", "metrics-db", dbcloud.StatusQueued)
	createFullWant.InitialPassword = "Init-Pa55-word"
	createFullWant.HAReplicas = &dbcloud.HAReplicas{ReplicaCount: 2}
	createFullWant.Metadata = &dbcloud.Metadata{Environment: dbcloud.EnvironmentProd}

	createMinWant := wireSvc("svc-x", "x", dbcloud.StatusQueued)
	createMinWant.InitialPassword = "x-Pa55"

	forkWant := wireSvc("svc-fork", "metrics-db-pitr", dbcloud.StatusQueued)
	forkWant.InitialPassword = "Fork-Pa55"
	forkWant.ForkedFrom = &dbcloud.ForkedFrom{ProjectID: "proj-1", ServiceID: "svc-1"}
	forkWant.Metadata = &dbcloud.Metadata{Environment: dbcloud.EnvironmentDev}

	resizeWant := wireSvc("svc-1", "metrics-db", dbcloud.StatusConfiguring)
	haWant := wireSvc("svc-1", "metrics-db", dbcloud.StatusConfiguring)
	haWant.HAReplicas = &dbcloud.HAReplicas{ReplicaCount: 2, SyncReplicaCount: 1}
	haSyncWant := wireSvc("svc-1", "metrics-db", dbcloud.StatusConfiguring)
	haSyncWant.HAReplicas = &dbcloud.HAReplicas{ReplicaCount: 1}

	logOpts := &dbcloud.LogOptions{
		Cursor:     "cur-0001",
		Node:       new(0),
		Search:     []string{"checkpoint", "connection reset"},
		Severities: []string{"WARNING", "ERROR"},
		Since:      time.Date(2026, 3, 4, 7, 0, 0, 0, time.FixedZone("CEST", 2*60*60)),
		Until:      time.Date(2026, 3, 4, 6, 0, 0, 0, time.UTC),
	}
	logsWant := &dbcloud.LogPage{
		Entries: []dbcloud.LogEntry{
			{Timestamp: time.Date(2026, 3, 4, 5, 6, 9, 500_000_000, time.UTC), Severity: "LOG", Message: "checkpoint complete: wrote 17 buffers"},
			{Timestamp: time.Date(2026, 3, 4, 5, 6, 8, 0, time.UTC), Severity: "WARNING", Message: "connection reset by peer"},
		},
		NextCursor: "cur-0002",
	}

	rsListWant := []dbcloud.ReadReplicaSet{
		{
			ID: "rs-100", Name: "reporting", Status: dbcloud.ReplicaSetActive, Nodes: 2, CPUMillis: 1000, MemoryGBs: 4,
			Endpoint:         &dbcloud.Endpoint{Host: "rs-100.proj-1.db.test", Port: 35433},
			ConnectionPooler: &dbcloud.ConnectionPooler{Endpoint: &dbcloud.Endpoint{Host: "rs-100.pooler.proj-1.db.test", Port: 36433}},
			Metadata:         &dbcloud.Metadata{Environment: dbcloud.EnvironmentProd},
		},
		{ID: "rs-101", Name: "analytics", Status: dbcloud.ReplicaSetCreating, Nodes: 1, CPUMillis: 500, MemoryGBs: 2},
	}

	msg := func(s string) string { return `{"message":"` + s + `"}` }

	cases := []wireCase{
		{
			name: "services/List", method: http.MethodGet, path: svcBase,
			status: http.StatusOK, respBody: wireFixture(t, "services_list.json"),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) { return c.Services.List(ctx, "proj-1") },
			want: listWant,
		},
		{
			name: "services/Create/full", method: http.MethodPost, path: svcBase,
			status: http.StatusAccepted,
			respBody: wireSvcJSON("svc-new", "metrics-db", "QUEUED",
				`"initial_password":"Init-Pa55-word","ha_replicas":{"replica_count":2,"sync_replica_count":0},"metadata":{"environment":"PROD"}`),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Services.Create(ctx, "proj-1", fullCreateRequest())
			},
			wantBody: map[string]any{
				"name":            "metrics-db",
				"addons":          []any{"time-series", "ai"},
				"cpu_millis":      "2000",
				"memory_gbs":      "8",
				"environment_tag": "PROD",
				"region_code":     "us-east-1",
				"replica_count":   float64(2),
			},
			want: createFullWant,
		},
		{
			name: "services/Create/minimal", method: http.MethodPost, path: svcBase,
			status:   http.StatusAccepted,
			respBody: wireSvcJSON("svc-x", "x", "QUEUED", `"initial_password":"x-Pa55"`),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Services.Create(ctx, "proj-1", &dbcloud.CreateServiceRequest{Name: "x"})
			},
			wantBody: map[string]any{"name": "x"},
			want:     createMinWant,
		},
		{
			name: "services/Create/zero replicas sent", method: http.MethodPost, path: svcBase,
			status:   http.StatusAccepted,
			respBody: wireSvcJSON("svc-x", "x", "QUEUED", `"initial_password":"x-Pa55"`),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Services.Create(ctx, "proj-1", &dbcloud.CreateServiceRequest{Name: "x", ReplicaCount: new(0)})
			},
			wantBody: map[string]any{"name": "x", "replica_count": float64(0)},
			want:     createMinWant,
		},
		{
			name: "services/Create/shared", method: http.MethodPost, path: svcBase,
			status:   http.StatusAccepted,
			respBody: wireSvcJSON("svc-x", "x", "QUEUED", `"initial_password":"x-Pa55"`),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Services.Create(ctx, "proj-1", &dbcloud.CreateServiceRequest{Name: "x", Shared: true})
			},
			wantBody: map[string]any{"name": "x", "cpu_millis": "shared", "memory_gbs": "shared"},
			want:     createMinWant,
		},
		{
			name: "services/Get", method: http.MethodGet, path: svc,
			status: http.StatusOK, respBody: fullJSON,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Services.Get(ctx, "proj-1", "svc-1")
			},
			want: wireFullService(),
		},
		{
			name: "services/Delete", method: http.MethodDelete, path: svc,
			status: http.StatusAccepted,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return nil, c.Services.Delete(ctx, "proj-1", "svc-1")
			},
		},
		{
			name: "services/Start", method: http.MethodPost, path: svc + "/start",
			status: http.StatusAccepted, respBody: wireSvcJSON("svc-1", "metrics-db", "RESUMING", ""),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Services.Start(ctx, "proj-1", "svc-1")
			},
			want: wireSvc("svc-1", "metrics-db", dbcloud.StatusResuming),
		},
		{
			name: "services/Stop", method: http.MethodPost, path: svc + "/stop",
			status: http.StatusAccepted, respBody: wireSvcJSON("svc-1", "metrics-db", "PAUSING", ""),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Services.Stop(ctx, "proj-1", "svc-1")
			},
			want: wireSvc("svc-1", "metrics-db", dbcloud.StatusPausing),
		},
		{
			name: "services/AttachToVPC", method: http.MethodPost, path: svc + "/attachToVPC",
			status: http.StatusAccepted, respBody: msg("attaching service to VPC"),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return nil, c.Services.AttachToVPC(ctx, "proj-1", "svc-1", "12345")
			},
			wantBody: map[string]any{"vpc_id": "12345"},
		},
		{
			name: "services/DetachFromVPC", method: http.MethodPost, path: svc + "/detachFromVPC",
			status: http.StatusAccepted, respBody: msg("detaching service from VPC"),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return nil, c.Services.DetachFromVPC(ctx, "proj-1", "svc-1", "67890")
			},
			wantBody: map[string]any{"vpc_id": "67890"},
		},
		{
			name: "services/Resize", method: http.MethodPost, path: svc + "/resize",
			status: http.StatusAccepted, respBody: wireSvcJSON("svc-1", "metrics-db", "CONFIGURING", ""),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Services.Resize(ctx, "proj-1", "svc-1", &dbcloud.ResizeRequest{CPUMillis: 4000, MemoryGBs: 16})
			},
			wantBody: map[string]any{"cpu_millis": "4000", "memory_gbs": "16"},
			want:     resizeWant,
		},
		{
			name: "services/EnablePooler", method: http.MethodPost, path: svc + "/enablePooler",
			status: http.StatusOK, respBody: msg("connection pooler enabled"),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return nil, c.Services.EnablePooler(ctx, "proj-1", "svc-1")
			},
		},
		{
			name: "services/DisablePooler", method: http.MethodPost, path: svc + "/disablePooler",
			status: http.StatusOK, respBody: msg("connection pooler disabled"),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return nil, c.Services.DisablePooler(ctx, "proj-1", "svc-1")
			},
		},
		{
			name: "services/Fork/PITR", method: http.MethodPost, path: svc + "/forkService",
			status: http.StatusAccepted,
			respBody: wireSvcJSON("svc-fork", "metrics-db-pitr", "QUEUED",
				`"initial_password":"Fork-Pa55","forked_from":{"project_id":"proj-1","service_id":"svc-1","is_standby":false},"metadata":{"environment":"DEV"}`),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Services.Fork(ctx, "proj-1", "svc-1", &dbcloud.ForkServiceRequest{
					Strategy:       dbcloud.ForkPITR,
					TargetTime:     time.Date(2026, 3, 1, 13, 30, 15, 0, time.FixedZone("CET", 60*60)),
					Name:           "metrics-db-pitr",
					CPUMillis:      1000,
					MemoryGBs:      4,
					EnvironmentTag: dbcloud.EnvironmentDev,
				})
			},
			wantBody: map[string]any{
				"fork_strategy":   "PITR",
				"target_time":     "2026-03-01T12:30:15Z",
				"name":            "metrics-db-pitr",
				"cpu_millis":      "1000",
				"memory_gbs":      "4",
				"environment_tag": "DEV",
			},
			want: forkWant,
		},
		{
			name: "services/Fork/LastSnapshot", method: http.MethodPost, path: svc + "/forkService",
			status: http.StatusAccepted,
			respBody: wireSvcJSON("svc-fork", "metrics-db-pitr", "QUEUED",
				`"initial_password":"Fork-Pa55","forked_from":{"project_id":"proj-1","service_id":"svc-1"},"metadata":{"environment":"DEV"}`),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Services.Fork(ctx, "proj-1", "svc-1", &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkLastSnapshot})
			},
			wantBody: map[string]any{"fork_strategy": "LAST_SNAPSHOT"},
			want:     forkWant,
		},
		{
			name: "services/Fork/NowShared", method: http.MethodPost, path: svc + "/forkService",
			status: http.StatusAccepted,
			respBody: wireSvcJSON("svc-fork", "metrics-db-pitr", "QUEUED",
				`"initial_password":"Fork-Pa55","forked_from":{"project_id":"proj-1","service_id":"svc-1"},"metadata":{"environment":"DEV"}`),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Services.Fork(ctx, "proj-1", "svc-1", &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow, Shared: true})
			},
			wantBody: map[string]any{"fork_strategy": "NOW", "cpu_millis": "shared", "memory_gbs": "shared"},
			want:     forkWant,
		},
		{
			name: "services/UpdatePassword/204", method: http.MethodPost, path: svc + "/updatePassword",
			status: http.StatusNoContent,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return nil, c.Services.UpdatePassword(ctx, "proj-1", "svc-1", "n3w-Pa55 word")
			},
			wantBody: map[string]any{"password": "n3w-Pa55 word"},
		},
		{
			name: "services/UpdatePassword/200", method: http.MethodPost, path: svc + "/updatePassword",
			status: http.StatusOK,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return nil, c.Services.UpdatePassword(ctx, "proj-1", "svc-1", "n3w-Pa55 word")
			},
			wantBody: map[string]any{"password": "n3w-Pa55 word"},
		},
		{
			name: "services/SetEnvironment", method: http.MethodPost, path: svc + "/setEnvironment",
			status: http.StatusOK, respBody: msg("environment set to PROD"),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return nil, c.Services.SetEnvironment(ctx, "proj-1", "svc-1", dbcloud.EnvironmentProd)
			},
			wantBody: map[string]any{"environment": "PROD"},
		},
		{
			name: "services/ListLogs/every option", method: http.MethodGet, path: svc + "/logs",
			query: url.Values{
				"cursor":     {"cur-0001"},
				"node":       {"0"},
				"search":     {"checkpoint", "connection reset"},
				"severities": {"WARNING", "ERROR"},
				"since":      {"2026-03-04T05:00:00Z"},
				"until":      {"2026-03-04T06:00:00Z"},
			},
			status: http.StatusOK, respBody: wireFixture(t, "logs_page.json"),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Services.ListLogs(ctx, "proj-1", "svc-1", logOpts)
			},
			want: logsWant,
		},
		{
			name: "services/ListLogs/nil options", method: http.MethodGet, path: svc + "/logs",
			status: http.StatusOK,
			respBody: `{"logs":["database system is ready"],` +
				`"entries":[{"timestamp":"2026-03-04T05:00:00Z","severity":"LOG","message":"database system is ready"}]}`,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Services.ListLogs(ctx, "proj-1", "svc-1", nil)
			},
			want: &dbcloud.LogPage{Entries: []dbcloud.LogEntry{
				{Timestamp: time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC), Severity: "LOG", Message: "database system is ready"},
			}},
		},
		{
			name: "services/SetHA/both", method: http.MethodPost, path: svc + "/setHA",
			status:   http.StatusAccepted,
			respBody: wireSvcJSON("svc-1", "metrics-db", "CONFIGURING", `"ha_replicas":{"replica_count":2,"sync_replica_count":1}`),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Services.SetHA(ctx, "proj-1", "svc-1", &dbcloud.SetHARequest{ReplicaCount: new(2), SyncReplicaCount: new(1)})
			},
			wantBody: map[string]any{"replica_count": float64(2), "sync_replica_count": float64(1)},
			want:     haWant,
		},
		{
			name: "services/SetHA/sync zero only", method: http.MethodPost, path: svc + "/setHA",
			status:   http.StatusAccepted,
			respBody: wireSvcJSON("svc-1", "metrics-db", "CONFIGURING", `"ha_replicas":{"replica_count":1,"sync_replica_count":0}`),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.Services.SetHA(ctx, "proj-1", "svc-1", &dbcloud.SetHARequest{SyncReplicaCount: new(0)})
			},
			wantBody: map[string]any{"sync_replica_count": float64(0)},
			want:     haSyncWant,
		},
		{
			name: "replicaSets/List", method: http.MethodGet, path: rsBase,
			status: http.StatusOK, respBody: wireFixture(t, "replica_sets.json"),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.ReplicaSets.List(ctx, "proj-1", "svc-1")
			},
			want: rsListWant,
		},
		{
			name: "replicaSets/Create", method: http.MethodPost, path: rsBase,
			status:   http.StatusAccepted,
			respBody: `{"id":"rs-102","name":"reporting","status":"creating","nodes":2,"cpu_millis":1000,"memory_gbs":4,"metadata":{"environment":"DEV"}}`,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return c.ReplicaSets.Create(ctx, "proj-1", "svc-1", &dbcloud.CreateReplicaSetRequest{
					Name: "reporting", Nodes: 2, CPUMillis: 1000, MemoryGBs: 4,
				})
			},
			wantBody: map[string]any{"name": "reporting", "nodes": float64(2), "cpu_millis": float64(1000), "memory_gbs": float64(4)},
			want: &dbcloud.ReadReplicaSet{
				ID: "rs-102", Name: "reporting", Status: dbcloud.ReplicaSetCreating, Nodes: 2, CPUMillis: 1000, MemoryGBs: 4,
				Metadata: &dbcloud.Metadata{Environment: dbcloud.EnvironmentDev},
			},
		},
		{
			name: "replicaSets/Delete", method: http.MethodDelete, path: rs,
			status: http.StatusAccepted,
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return nil, c.ReplicaSets.Delete(ctx, "proj-1", "svc-1", "rs-100")
			},
		},
		{
			name: "replicaSets/Resize", method: http.MethodPost, path: rs + "/resize",
			status: http.StatusAccepted, respBody: msg("resizing read replica set"),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return nil, c.ReplicaSets.Resize(ctx, "proj-1", "svc-1", "rs-100", &dbcloud.ResizeRequest{CPUMillis: 2000, MemoryGBs: 8})
			},
			wantBody: map[string]any{"cpu_millis": "2000", "memory_gbs": "8"},
		},
		{
			name: "replicaSets/EnablePooler", method: http.MethodPost, path: rs + "/enablePooler",
			status: http.StatusOK, respBody: msg("connection pooler enabled"),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return nil, c.ReplicaSets.EnablePooler(ctx, "proj-1", "svc-1", "rs-100")
			},
		},
		{
			name: "replicaSets/DisablePooler", method: http.MethodPost, path: rs + "/disablePooler",
			status: http.StatusOK, respBody: msg("connection pooler disabled"),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return nil, c.ReplicaSets.DisablePooler(ctx, "proj-1", "svc-1", "rs-100")
			},
		},
		{
			name: "replicaSets/SetEnvironment", method: http.MethodPost, path: rs + "/setEnvironment",
			status: http.StatusOK, respBody: msg("environment set to DEV"),
			call: func(ctx context.Context, c *dbcloud.Client) (any, error) {
				return nil, c.ReplicaSets.SetEnvironment(ctx, "proj-1", "svc-1", "rs-100", dbcloud.EnvironmentDev)
			},
			wantBody: map[string]any{"environment": "DEV"},
		},
	}
	cases = append(cases, liveWireCases()...)

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, mt := newWireClient(t)
			var rec wireRecorder
			route := wireBase + tc.path
			if tc.query != nil {
				mt.RegisterResponderWithQuery(tc.method, route, tc.query, rec.respond(tc.status, tc.respBody))
			} else {
				mt.RegisterResponder(tc.method, route, rec.respond(tc.status, tc.respBody))
			}

			got, err := tc.call(t.Context(), c)
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("decoded response mismatch (-want +got):\n%s", diff)
			}

			reqs := rec.all()
			if len(reqs) != 1 || mt.GetTotalCallCount() != 1 {
				t.Fatalf("got %d recorded requests, %d calls to the mock; want exactly 1", len(reqs), mt.GetTotalCallCount())
			}
			r := reqs[0]
			if diff := cmp.Diff(tc.method, r.Method); diff != "" {
				t.Errorf("method mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff("/v1"+tc.path, r.EscapedPath); diff != "" {
				t.Errorf("escaped path mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.query, r.Query, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("query mismatch (-want +got):\n%s", diff)
			}
			if tc.query == nil && r.RawQuery != "" {
				t.Errorf("raw query = %q, want none", r.RawQuery)
			}

			wantHeader := http.Header{
				"Authorization": {"Bearer " + wireKey},
				"Accept":        {"application/json"},
				"User-Agent":    {"dbcloud-go/" + dbcloud.Version},
			}
			if tc.wantBody != nil {
				wantHeader["Content-Type"] = []string{"application/json"}
			}
			gotHeader := http.Header{}
			for _, k := range []string{"Authorization", "Accept", "User-Agent", "Content-Type"} {
				if v, ok := r.Header[k]; ok {
					gotHeader[k] = v
				}
			}
			if diff := cmp.Diff(wantHeader, gotHeader); diff != "" {
				t.Errorf("headers mismatch (-want +got):\n%s", diff)
			}

			if len(r.TransferEncoding) != 0 {
				t.Errorf("Transfer-Encoding = %q, want none", r.TransferEncoding)
			}
			if tc.wantBody == nil {
				if len(r.Body) != 0 || r.ContentLength != 0 {
					t.Errorf("request body = %q (ContentLength %d), want no body", r.Body, r.ContentLength)
				}
				return
			}
			if r.ContentLength != int64(len(r.Body)) {
				t.Errorf("ContentLength = %d, body has %d bytes", r.ContentLength, len(r.Body))
			}
			var gotBody any
			if err := json.Unmarshal(r.Body, &gotBody); err != nil {
				t.Fatalf("request body %q is not JSON: %v", r.Body, err)
			}
			if diff := cmp.Diff(any(tc.wantBody), gotBody); diff != "" {
				t.Errorf("request body mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWireEscapesIDs checks that no id can change the route: each is one
// escaped path segment, and nothing lands in the query or fragment.
func TestWireEscapesIDs(t *testing.T) {
	t.Parallel()
	ids := []struct{ id, esc string }{
		{"a/b?c#d", "a%2Fb%3Fc%23d"},
		{"100%", "100%25"},
		{"a%2Fb", "a%252Fb"},
		{"my service", "my%20service"},
		{"..", "%2E%2E"},
		{".", "%2E"},
		{"../admin", "..%2Fadmin"},
		{"...", "..."},
		{"?x=1", "%3Fx=1"},
		{"#frag", "%23frag"},
	}
	// Every route gets a Service: the calls that return nothing ignore it.
	answer := func(*http.Request) *http.Response {
		return wireResponse(http.StatusOK, wireSvcJSON("svc-1", "db", "READY", ""))
	}
	for _, tc := range ids {
		t.Run(tc.id, func(t *testing.T) {
			t.Parallel()
			var rec wireRecorder
			c := newRecordingClient(t, &rec, answer, wireKey, dbcloud.WithBaseURL(wireBase))
			ctx := t.Context()

			var want []string
			if _, err := c.Services.Get(ctx, "p", tc.id); err != nil {
				t.Errorf("Services.Get: %v", err)
			}
			want = append(want, "/v1/projects/p/services/"+tc.esc)
			if _, err := c.Services.Start(ctx, tc.id, "s"); err != nil {
				t.Errorf("Services.Start: %v", err)
			}
			want = append(want, "/v1/projects/"+tc.esc+"/services/s/start")
			if err := c.ReplicaSets.EnablePooler(ctx, "p", tc.id, "rs-1"); err != nil {
				t.Errorf("ReplicaSets.EnablePooler: %v", err)
			}
			want = append(want, "/v1/projects/p/services/"+tc.esc+"/replicaSets/rs-1/enablePooler")
			if len(tc.id) >= 3 { // shorter replica set ids are refused
				if err := c.ReplicaSets.Delete(ctx, "p", "s", tc.id); err != nil {
					t.Errorf("ReplicaSets.Delete: %v", err)
				}
				want = append(want, "/v1/projects/p/services/s/replicaSets/"+tc.esc)
			}

			var got []string
			for _, r := range rec.all() {
				got = append(got, r.EscapedPath)
				if r.RawQuery != "" || r.Fragment != "" {
					t.Errorf("%s %s: query %q, fragment %q; want none", r.Method, r.URL, r.RawQuery, r.Fragment)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("escaped paths mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWireUserAgent(t *testing.T) {
	t.Parallel()
	c, mt := newWireClient(t, dbcloud.WithUserAgent("my-tool/1.2"))
	var rec wireRecorder
	mt.RegisterResponder(http.MethodGet, wireBase+"/projects/proj-1/services", rec.respond(http.StatusOK, "[]"))
	if _, err := c.Services.List(t.Context(), "proj-1"); err != nil {
		t.Fatal(err)
	}
	reqs := rec.all()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(reqs))
	}
	if diff := cmp.Diff([]string{"my-tool/1.2 dbcloud-go/" + dbcloud.Version}, reqs[0].Header["User-Agent"]); diff != "" {
		t.Errorf("User-Agent mismatch (-want +got):\n%s", diff)
	}
}

func TestWireLogsFallback(t *testing.T) {
	t.Parallel()
	ts := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	cases := []struct {
		name string
		body string
		want *dbcloud.LogPage
	}{
		{
			name: "only logs",
			body: `{"logs":["first line","second line"]}`,
			want: &dbcloud.LogPage{Entries: []dbcloud.LogEntry{{Message: "first line"}, {Message: "second line"}}},
		},
		{
			name: "entries win over logs",
			body: `{"logs":["plain"],"entries":[{"timestamp":"2026-03-04T05:06:07Z","severity":"ERROR","message":"structured"}]}`,
			want: &dbcloud.LogPage{Entries: []dbcloud.LogEntry{{Timestamp: ts, Severity: "ERROR", Message: "structured"}}},
		},
		{
			name: "only lastCursor",
			body: `{"logs":["x"],"entries":[{"timestamp":"2026-03-04T05:06:07Z","severity":"LOG","message":"x"}],"lastCursor":"old-7"}`,
			want: &dbcloud.LogPage{Entries: []dbcloud.LogEntry{{Timestamp: ts, Severity: "LOG", Message: "x"}}, NextCursor: "old-7"},
		},
		{
			name: "only logs and lastCursor",
			body: `{"logs":["x"],"lastCursor":"old-7"}`,
			want: &dbcloud.LogPage{Entries: []dbcloud.LogEntry{{Message: "x"}}, NextCursor: "old-7"},
		},
		{
			name: "last_cursor wins over lastCursor",
			body: `{"logs":["x"],"entries":[{"timestamp":"2026-03-04T05:06:07Z","severity":"LOG","message":"x"}],"lastCursor":"old-7","last_cursor":"new-8"}`,
			want: &dbcloud.LogPage{Entries: []dbcloud.LogEntry{{Timestamp: ts, Severity: "LOG", Message: "x"}}, NextCursor: "new-8"},
		},
		{
			name: "last page",
			body: `{"logs":[],"entries":[]}`,
			want: &dbcloud.LogPage{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, mt := newWireClient(t)
			var rec wireRecorder
			mt.RegisterResponder(http.MethodGet, wireBase+"/projects/proj-1/services/svc-1/logs", rec.respond(http.StatusOK, tc.body))
			got, err := c.Services.ListLogs(t.Context(), "proj-1", "svc-1", &dbcloud.LogOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("log page mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWireVPCEndpointFallback(t *testing.T) {
	t.Parallel()
	const (
		current = `"vpc_endpoint":{"host":"new.vpc.test","port":5432,"vpc_id":"111"}`
		legacy  = `"vpcEndpoint":{"host":"old.vpc.test","port":"6543","vpc_id":"222"}`
	)
	newEP := &dbcloud.VPCEndpoint{Host: "new.vpc.test", Port: 5432, VPCID: "111"}
	oldEP := &dbcloud.VPCEndpoint{Host: "old.vpc.test", Port: 6543, VPCID: "222"}
	cases := []struct {
		name  string
		extra string
		want  *dbcloud.VPCEndpoint
	}{
		{"only vpcEndpoint", legacy, oldEP},
		{"only vpc_endpoint", current, newEP},
		{"both, vpc_endpoint first", current + "," + legacy, newEP},
		{"both, vpcEndpoint first", legacy + "," + current, newEP},
		{"neither", "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			want := wireSvc("svc-1", "db", dbcloud.StatusReady)
			want.VPCEndpoint = tc.want
			body := wireSvcJSON("svc-1", "db", "READY", tc.extra)

			c, mt := newWireClient(t)
			mt.RegisterResponder(http.MethodGet, wireBase+"/projects/proj-1/services/svc-1", httpmock.ResponderFromResponse(wireResponse(http.StatusOK, body)))
			mt.RegisterResponder(http.MethodGet, wireBase+"/projects/proj-1/services", httpmock.ResponderFromResponse(wireResponse(http.StatusOK, "["+body+"]")))

			got, err := c.Services.Get(t.Context(), "proj-1", "svc-1")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Get mismatch (-want +got):\n%s", diff)
			}
			list, err := c.Services.List(t.Context(), "proj-1")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]dbcloud.Service{*want}, list); diff != "" {
				t.Errorf("List mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// wireNumberForms renders every @N@ placeholder of a template as a JSON
// number or numeric string, one form per variant.
var (
	wireNumberRE    = regexp.MustCompile(`@(\d+)@`)
	wireNumberForms = map[string]string{
		"integer":         "$1",
		"float":           "$1.0",
		"string":          `"$1"`,
		"string float":    `"$1.0"`,
		"float, exponent": "${1}e0",
	}
)

const wireTolerantService = `{
  "service_id": "svc-t", "project_id": "proj-1", "name": "tolerant", "region_code": "us-east-1",
  "service_type": "POSTGRES", "status": "READY", "created": "2026-03-04T05:06:07Z",
  "resources": [{"id": "res-1", "spec": {"cpu_millis": @2000@, "memory_gbs": @8@, "volume_type": "gp3"}}],
  "endpoint": {"host": "svc-t.db.test", "port": @35432@},
  "connection_pooler": {"endpoint": {"host": "svc-t.pooler.db.test", "port": @36432@}},
  "ha_replicas": {"replica_count": @2@, "sync_replica_count": @1@},
  "metrics": {"memory_mb": @3072@, "milli_cpu": @750@, "storage_mb": @10240@},
  "read_replica_sets": [{"id": "rs-1", "name": "r", "status": "active", "nodes": @3@,
    "cpu_millis": @1000@, "memory_gbs": @4@, "endpoint": {"host": "rs-1.db.test", "port": @35433@}}],
  "vpc_endpoint": {"host": "svc-t.vpc.test", "port": @5432@, "vpc_id": "12345"}
}`

const wireTolerantReplicaSet = `{"id": "rs-1", "name": "r", "status": "active", "nodes": @3@,
  "cpu_millis": @1000@, "memory_gbs": @4@,
  "endpoint": {"host": "rs-1.db.test", "port": @35433@},
  "connection_pooler": {"endpoint": {"host": "rs-1.pooler.db.test", "port": @36433@}}}`

func wireTolerantServiceWant() *dbcloud.Service {
	return &dbcloud.Service{
		ServiceID: "svc-t", ProjectID: "proj-1", Name: "tolerant", RegionCode: "us-east-1",
		ServiceType: dbcloud.ServiceTypePostgres, Status: dbcloud.StatusReady,
		Created:          time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC),
		Resources:        []dbcloud.Resource{{ID: "res-1", Spec: &dbcloud.ResourceSpec{CPUMillis: 2000, MemoryGBs: 8, VolumeType: "gp3"}}},
		Endpoint:         &dbcloud.Endpoint{Host: "svc-t.db.test", Port: 35432},
		ConnectionPooler: &dbcloud.ConnectionPooler{Endpoint: &dbcloud.Endpoint{Host: "svc-t.pooler.db.test", Port: 36432}},
		HAReplicas:       &dbcloud.HAReplicas{ReplicaCount: 2, SyncReplicaCount: 1},
		Metrics:          &dbcloud.Metrics{MemoryMB: 3072, MilliCPU: 750, StorageMB: 10240},
		ReadReplicaSets: []dbcloud.ReadReplicaSet{{
			ID: "rs-1", Name: "r", Status: dbcloud.ReplicaSetActive, Nodes: 3, CPUMillis: 1000, MemoryGBs: 4,
			Endpoint: &dbcloud.Endpoint{Host: "rs-1.db.test", Port: 35433},
		}},
		VPCEndpoint: &dbcloud.VPCEndpoint{Host: "svc-t.vpc.test", Port: 5432, VPCID: "12345"},
	}
}

func wireTolerantReplicaSetWant() dbcloud.ReadReplicaSet {
	return dbcloud.ReadReplicaSet{
		ID: "rs-1", Name: "r", Status: dbcloud.ReplicaSetActive, Nodes: 3, CPUMillis: 1000, MemoryGBs: 4,
		Endpoint:         &dbcloud.Endpoint{Host: "rs-1.db.test", Port: 35433},
		ConnectionPooler: &dbcloud.ConnectionPooler{Endpoint: &dbcloud.Endpoint{Host: "rs-1.pooler.db.test", Port: 36433}},
	}
}

// TestWireDecodeTolerance checks that 4, 4.0 and "4" decode alike in every
// numeric field of a Service and a ReadReplicaSet.
func TestWireDecodeTolerance(t *testing.T) {
	t.Parallel()
	for form, repl := range wireNumberForms {
		t.Run(form, func(t *testing.T) {
			t.Parallel()
			svcBody := wireNumberRE.ReplaceAllString(wireTolerantService, repl)
			rsBody := wireNumberRE.ReplaceAllString(wireTolerantReplicaSet, repl)

			c, mt := newWireClient(t)
			mt.RegisterResponder(http.MethodGet, wireBase+"/projects/proj-1/services/svc-t",
				httpmock.ResponderFromResponse(wireResponse(http.StatusOK, svcBody)))
			mt.RegisterResponder(http.MethodGet, wireBase+"/projects/proj-1/services/svc-t/replicaSets",
				httpmock.ResponderFromResponse(wireResponse(http.StatusOK, "["+rsBody+"]")))
			mt.RegisterResponder(http.MethodPost, wireBase+"/projects/proj-1/services/svc-t/replicaSets",
				httpmock.ResponderFromResponse(wireResponse(http.StatusAccepted, rsBody)))

			svc, err := c.Services.Get(t.Context(), "proj-1", "svc-t")
			if err != nil {
				t.Fatalf("Services.Get: %v", err)
			}
			if diff := cmp.Diff(wireTolerantServiceWant(), svc); diff != "" {
				t.Errorf("Service mismatch (-want +got):\n%s", diff)
			}

			sets, err := c.ReplicaSets.List(t.Context(), "proj-1", "svc-t")
			if err != nil {
				t.Fatalf("ReplicaSets.List: %v", err)
			}
			if diff := cmp.Diff([]dbcloud.ReadReplicaSet{wireTolerantReplicaSetWant()}, sets); diff != "" {
				t.Errorf("ReplicaSets.List mismatch (-want +got):\n%s", diff)
			}

			set, err := c.ReplicaSets.Create(t.Context(), "proj-1", "svc-t",
				&dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 3, CPUMillis: 1000, MemoryGBs: 4})
			if err != nil {
				t.Fatalf("ReplicaSets.Create: %v", err)
			}
			want := wireTolerantReplicaSetWant()
			if diff := cmp.Diff(&want, set); diff != "" {
				t.Errorf("ReplicaSets.Create mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWireToleratesUnknownEnums checks that enum values this version does
// not know are kept as sent, also on the tolerant decoding path.
func TestWireToleratesUnknownEnums(t *testing.T) {
	t.Parallel()
	for _, numbers := range []string{"integer", "string"} {
		t.Run(numbers, func(t *testing.T) {
			t.Parallel()
			repl := wireNumberForms[numbers]
			svcBody := wireNumberRE.ReplaceAllString(wireTolerantService, repl)
			svcBody = strings.ReplaceAll(svcBody, `"status": "READY"`, `"status": "HIBERNATING"`)
			svcBody = strings.ReplaceAll(svcBody, `"service_type": "POSTGRES"`, `"service_type": "GRAPH"`)
			svcBody = strings.ReplaceAll(svcBody, `"status": "active"`, `"status": "migrating"`)
			rsBody := wireNumberRE.ReplaceAllString(wireTolerantReplicaSet, repl)
			rsBody = strings.ReplaceAll(rsBody, `"status": "active"`, `"status": "migrating"`)

			c, mt := newWireClient(t)
			mt.RegisterResponder(http.MethodGet, wireBase+"/projects/proj-1/services/svc-t",
				httpmock.ResponderFromResponse(wireResponse(http.StatusOK, svcBody)))
			mt.RegisterResponder(http.MethodGet, wireBase+"/projects/proj-1/services/svc-t/replicaSets",
				httpmock.ResponderFromResponse(wireResponse(http.StatusOK, "["+rsBody+"]")))

			svc, err := c.Services.Get(t.Context(), "proj-1", "svc-t")
			if err != nil {
				t.Fatalf("Services.Get: %v", err)
			}
			want := wireTolerantServiceWant()
			want.Status = "HIBERNATING"
			want.ServiceType = "GRAPH"
			want.ReadReplicaSets[0].Status = "migrating"
			if diff := cmp.Diff(want, svc); diff != "" {
				t.Errorf("Service mismatch (-want +got):\n%s", diff)
			}

			sets, err := c.ReplicaSets.List(t.Context(), "proj-1", "svc-t")
			if err != nil {
				t.Fatalf("ReplicaSets.List: %v", err)
			}
			wantSet := wireTolerantReplicaSetWant()
			wantSet.Status = "migrating"
			if diff := cmp.Diff([]dbcloud.ReadReplicaSet{wantSet}, sets); diff != "" {
				t.Errorf("ReplicaSets.List mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWireListToleratesStringNumbers checks that one service with string
// numbers does not spoil a list: every service decodes fully, the
// deprecated vpcEndpoint fallback included.
func TestWireListToleratesStringNumbers(t *testing.T) {
	t.Parallel()
	strict := wireNumberRE.ReplaceAllString(wireTolerantService, "$1")
	loose := wireNumberRE.ReplaceAllString(wireTolerantService, `"$1"`)
	loose = strings.ReplaceAll(loose, `"svc-t"`, `"svc-u"`)
	legacyOnly := wireSvcJSON("svc-v", "legacy", "READY", `"vpcEndpoint":{"host":"v.vpc.test","port":"5432","vpc_id":"9"}`)
	body := "[" + strict + "," + loose + "," + legacyOnly + "]"

	c, mt := newWireClient(t)
	mt.RegisterResponder(http.MethodGet, wireBase+"/projects/proj-1/services",
		httpmock.ResponderFromResponse(wireResponse(http.StatusOK, body)))
	got, err := c.Services.List(t.Context(), "proj-1")
	if err != nil {
		t.Fatal(err)
	}
	second := wireTolerantServiceWant()
	second.ServiceID = "svc-u"
	third := wireSvc("svc-v", "legacy", dbcloud.StatusReady)
	third.VPCEndpoint = &dbcloud.VPCEndpoint{Host: "v.vpc.test", Port: 5432, VPCID: "9"}
	want := []dbcloud.Service{*wireTolerantServiceWant(), *second, *third}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("List mismatch (-want +got):\n%s", diff)
	}
}
