package httpapi

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apitest"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

func TestAuth(t *testing.T) {
	f := newFake(t, Config{APIKey: "secret-key"})
	for _, tc := range []struct {
		name  string
		value string
	}{
		{"missing", ""},
		{"wrong key", "Bearer other-key"},
		{"lower-case scheme", "bearer secret-key"},
		{"no scheme", "secret-key"},
		{"double space", "Bearer  secret-key"},
		{"scheme only", "Bearer"},
		{"basic", "Basic c2VjcmV0LWtleQ=="},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := f.Send("GET", f.ServicesPath(), nil, "Authorization", tc.value)
			r.MustError(t, 401, "UNAUTHORIZED", "API key")
			if !strings.HasPrefix(r.Header.Get("X-Request-Id"), "req-") {
				t.Errorf("X-Request-Id = %q", r.Header.Get("X-Request-Id"))
			}
		})
	}
	f.Send("GET", f.ServicesPath(), nil).Must(t, 200)
	if got := New(Config{}).Config().APIKey; got != defaultAPIKey {
		t.Errorf("default key %q", got)
	}
}

func TestRouting(t *testing.T) {
	f := newFake(t, Config{Projects: []string{"p1", "p2"}})
	f.Proj = "p1"
	id := f.Create(nil)
	for _, tc := range []struct {
		method, path string
		status       int
		code, allow  string
	}{
		{"GET", "/projects/p1/services/" + id + "/unknown", 404, "NOT_FOUND", ""},
		{"GET", "/projects/p1", 404, "NOT_FOUND", ""},
		{"GET", "/projects/p1/services/", 404, "NOT_FOUND", ""},
		{"GET", "/projects/p3/services", 404, "NOT_FOUND", ""},
		{"GET", "/projects/p2/services/" + id, 404, "NOT_FOUND", ""},
		{"GET", "/projects/p1/services/nosuchsvc", 404, "NOT_FOUND", ""},
		{"PUT", "/projects/p1/services", 405, "METHOD_NOT_ALLOWED", "GET, POST"},
		{"GET", "/projects/p1/services/" + id + "/start", 405, "METHOD_NOT_ALLOWED", "POST"},
		{"POST", "/projects/p1/services/" + id + "/logs", 405, "METHOD_NOT_ALLOWED", "GET"},
		{"PATCH", "/projects/p1/services/" + id, 405, "METHOD_NOT_ALLOWED", "DELETE, GET"},
		{"GET", "/projects/p1/services/" + id + "/replicaSets/rs-abc", 405, "METHOD_NOT_ALLOWED", "DELETE"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			r := f.Send(tc.method, tc.path, nil)
			r.MustError(t, tc.status, tc.code, "")
			if r.Header.Get("Allow") != tc.allow {
				t.Errorf("Allow = %q, want %q", r.Header.Get("Allow"), tc.allow)
			}
			if ct := r.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type = %q", ct)
			}
		})
	}
	// Outside /v1 nothing is served.
	req, _ := http.NewRequest("GET", f.Srv.URL+"/v2/projects/p1/services", nil)
	req.Header.Set("Authorization", "Bearer "+f.Key)
	res, err := f.Srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	apitest.ReadResp(t, res).MustError(t, 404, "NOT_FOUND", "")
	res.Body.Close()
	// The second project works and is separate.
	f.Proj = "p2"
	if n := len(f.Send("GET", "/projects/p2/services", nil).Must(t, 200).List(t)); n != 0 {
		t.Errorf("p2 has %d services", n)
	}
	if got := New(Config{Projects: []string{"p1", "p2"}}).Config().Projects[0]; got != "p1" {
		t.Errorf("ProjectID() = %q", got)
	}
}

func TestRequestIDs(t *testing.T) {
	f := newFake(t, Config{})
	seen := map[string]bool{}
	for range 5 {
		r := f.Send("GET", f.ServicesPath(), nil)
		id := r.Header.Get("X-Request-Id")
		if id == "" || seen[id] {
			t.Fatalf("request id %q empty or repeated", id)
		}
		seen[id] = true
	}
}

// TestEveryRoute calls each of the 37 endpoints once and checks its success
// status and the kind of body it answers with.
func TestEveryRoute(t *testing.T) {
	f := newFake(t, Config{}) // Step 0: every operation completes by the next read
	svcs := f.ServicesPath()
	vpc := f.VPC() // the one attachToVPC takes
	var id, rs, net, peering string
	series := map[string]any{"name": "timescale_cloud_system_cpu_usage_millicores", "from": "2026-03-01T11:00:00Z", "to": "2026-03-01T12:00:00Z"}
	peer := map[string]any{"peer_account_id": "123456789012", "peer_region_code": "us-east-1", "peer_vpc_id": "vpc-0abc"}
	rsBody := map[string]any{"name": "r", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}
	resize := map[string]any{"cpu_millis": "1000", "memory_gbs": "4"}
	for _, tc := range []struct {
		method string
		path   func() string
		body   any
		status int
		kind   string // array, object, service, set, vpc, peering, message, logs, empty
	}{
		{"GET", func() string { return svcs }, nil, 200, "array"},
		{"POST", func() string { return svcs }, map[string]any{"name": "db"}, 202, "service"},
		{"GET", func() string { return f.SvcPath(id) }, nil, 200, "service"},
		{"POST", func() string { return f.SvcPath(id) + "/stop" }, nil, 202, "service"},
		{"POST", func() string { return f.SvcPath(id) + "/start" }, nil, 202, "service"},
		{"POST", func() string { return f.SvcPath(id) + "/attachToVPC" }, map[string]any{"vpc_id": vpc}, 202, "message"},
		{"POST", func() string { return f.SvcPath(id) + "/detachFromVPC" }, map[string]any{"vpc_id": vpc}, 202, "message"},
		{"POST", func() string { return f.SvcPath(id) + "/rename" }, map[string]any{"name": "renamed"}, 200, "service"},
		{"GET", func() string { return f.SvcPath(id) + "/metrics/available-series" }, nil, 200, "array"},
		{"POST", func() string { return f.SvcPath(id) + "/metrics/series" }, series, 200, "array"},
		{"POST", func() string { return f.SvcPath(id) + "/resize" }, resize, 202, "service"},
		{"POST", func() string { return f.SvcPath(id) + "/enablePooler" }, nil, 200, "message"},
		{"POST", func() string { return f.SvcPath(id) + "/disablePooler" }, nil, 200, "message"},
		{"POST", func() string { return f.SvcPath(id) + "/forkService" }, map[string]any{"fork_strategy": "NOW"}, 202, "service"},
		{"POST", func() string { return f.SvcPath(id) + "/updatePassword" }, map[string]any{"password": "p4ssword-p4ssword"}, 204, "empty"},
		{"POST", func() string { return f.SvcPath(id) + "/setEnvironment" }, map[string]any{"environment": "PROD"}, 200, "message"},
		{"GET", func() string { return f.SvcPath(id) + "/logs" }, nil, 200, "logs"},
		{"POST", func() string { return f.SvcPath(id) + "/setHA" }, map[string]any{"replica_count": 1}, 202, "service"},
		{"GET", func() string { return f.SvcPath(id) + "/replicaSets" }, nil, 200, "array"},
		{"POST", func() string { return f.SvcPath(id) + "/replicaSets" }, rsBody, 202, "set"},
		{"POST", func() string { return f.SetPath(id, rs) + "/resize" }, resize, 202, "message"},
		{"POST", func() string { return f.SetPath(id, rs) + "/enablePooler" }, nil, 200, "message"},
		{"POST", func() string { return f.SetPath(id, rs) + "/disablePooler" }, nil, 200, "message"},
		{"POST", func() string { return f.SetPath(id, rs) + "/setEnvironment" }, map[string]any{"environment": "PROD"}, 200, "message"},
		{"DELETE", func() string { return f.SetPath(id, rs) }, nil, 202, "empty"},
		{"DELETE", func() string { return f.SvcPath(id) }, nil, 202, "empty"},
		{"GET", func() string { return "/auth/info" }, nil, 200, "object"},
		{"GET", func() string { return "/projects" }, nil, 200, "array"},
		{"GET", func() string { return f.VPCsPath() }, nil, 200, "array"},
		{"POST", func() string { return f.VPCsPath() }, map[string]any{"name": "n", "cidr": "10.1.0.0/16", "region_code": "us-east-1"}, 201, "vpc"},
		{"GET", func() string { return f.VPCsPath() + "/" + net }, nil, 200, "object"},
		{"POST", func() string { return f.VPCsPath() + "/" + net + "/rename" }, map[string]any{"name": "m"}, 200, "message"},
		{"GET", func() string { return f.VPCsPath() + "/" + net + "/peerings" }, nil, 200, "array"},
		{"POST", func() string { return f.VPCsPath() + "/" + net + "/peerings" }, peer, 201, "peering"},
		{"GET", func() string { return f.VPCsPath() + "/" + net + "/peerings/" + peering }, nil, 200, "object"},
		{"DELETE", func() string { return f.VPCsPath() + "/" + net + "/peerings/" + peering }, nil, 204, "empty"},
		{"DELETE", func() string { return f.VPCsPath() + "/" + net }, nil, 204, "empty"},
	} {
		path := tc.path()
		r := f.Send(tc.method, path, tc.body)
		r.Must(t, tc.status)
		if tc.kind == "empty" {
			if len(r.Raw) != 0 || r.Header.Get("Content-Type") != "" {
				t.Errorf("%s %s: body %q, Content-Type %q", tc.method, path, r.Raw, r.Header.Get("Content-Type"))
			}
			continue
		}
		if r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: Content-Type %q", tc.method, path, r.Header.Get("Content-Type"))
		}
		switch tc.kind {
		case "array":
			r.List(t)
		case "service":
			m := r.Obj(t)
			if id == "" {
				id = m["service_id"].(string)
			}
			if _, ok := m["status"].(string); !ok {
				t.Errorf("%s %s: not a service: %s", tc.method, path, r.Raw)
			}
		case "set":
			rs = r.Obj(t)["id"].(string)
		case "vpc":
			net = r.Obj(t)["id"].(string)
		case "peering":
			peering = r.Obj(t)["id"].(string)
		case "object":
			r.Obj(t)
		case "message":
			if msg, _ := r.Obj(t)["message"].(string); msg == "" {
				t.Errorf("%s %s: no message: %s", tc.method, path, r.Raw)
			}
		case "logs":
			if _, ok := r.Obj(t)["logs"].([]any); !ok {
				t.Errorf("%s %s: not a logs response: %s", tc.method, path, r.Raw)
			}
		}
	}
	if _, err := f.model.Logs(id); !errors.Is(err, model.ErrNotFound) {
		t.Errorf("Logs of a deleted service: %v, want ErrNotFound", err)
	}
}

// TestUnknownIDs calls every route with an unknown service, then with an
// unknown replica set: 404 comes before any body check.
func TestUnknownIDs(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(nil)
	for _, rt := range routes {
		if !slices.Contains(rt.segs, "{s}") {
			continue
		}
		for method := range rt.methods {
			for _, tc := range []struct{ service, set, kind string }{
				{"nosuchsvc", "rs-nosuch", "service"},
				{svc, "rs-nosuch", "replica set"},
			} {
				if tc.service == svc && !slices.Contains(rt.segs, "{r}") {
					continue
				}
				path := strings.NewReplacer("{p}", f.Proj, "{s}", tc.service, "{r}", tc.set).Replace("/" + strings.Join(rt.segs, "/"))
				t.Run(method+" "+path, func(t *testing.T) {
					f.Send(method, path, `{}`).MustError(t, 404, "NOT_FOUND", tc.kind+" not found")
				})
			}
		}
	}
}

func TestTickingClockMovesEachRequestOneTick(t *testing.T) {
	f := newFake(t, Config{Model: model.Config{Start: apitest.Epoch, Tick: 30 * time.Second, Step: time.Minute}})
	id := f.Create(nil) // read at the epoch: QUEUED until +1m, CONFIGURING until +2m
	var seen []string
	for range 5 {
		seen = append(seen, f.Get(id)["status"].(string))
	}
	want := []string{"QUEUED", "CONFIGURING", "CONFIGURING", "READY", "READY"}
	if strings.Join(seen, " ") != strings.Join(want, " ") {
		t.Errorf("statuses = %v, want %v", seen, want)
	}
}
