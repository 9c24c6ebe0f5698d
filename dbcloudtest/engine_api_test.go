package dbcloudtest

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
)

func TestAuth(t *testing.T) {
	f := newFake(t, config{apiKey: "secret-key"})
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
			r := f.send("GET", "/projects/"+f.proj+"/services", nil, "Authorization", tc.value)
			r.mustError(t, 401, "UNAUTHORIZED", "API key")
			if !strings.HasPrefix(r.header.Get("X-Request-Id"), "req-") {
				t.Errorf("X-Request-Id = %q", r.header.Get("X-Request-Id"))
			}
		})
	}
	f.send("GET", "/projects/"+f.proj+"/services", nil).must(t, 200)
	if got := newEngine(config{}, false).apiKey; got != defaultAPIKey {
		t.Errorf("default key %q", got)
	}
}

func TestRouting(t *testing.T) {
	f := newFake(t, config{projects: []string{"p1", "p2"}})
	f.proj = "p1"
	id := f.create(nil)
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
			r := f.send(tc.method, tc.path, nil)
			r.mustError(t, tc.status, tc.code, "")
			if r.header.Get("Allow") != tc.allow {
				t.Errorf("Allow = %q, want %q", r.header.Get("Allow"), tc.allow)
			}
			if ct := r.header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type = %q", ct)
			}
		})
	}
	// Outside /v1 nothing is served.
	req, _ := http.NewRequest("GET", f.srv.URL+"/v2/projects/p1/services", nil)
	req.Header.Set("Authorization", "Bearer "+f.api.apiKey)
	res, err := f.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	readResp(t, res).mustError(t, 404, "NOT_FOUND", "")
	res.Body.Close()
	// The second project works and is separate.
	f.proj = "p2"
	if n := len(f.send("GET", "/projects/p2/services", nil).must(t, 200).list(t)); n != 0 {
		t.Errorf("p2 has %d services", n)
	}
	if got := newEngine(config{projects: []string{"p1", "p2"}}, false).projects[0]; got != "p1" {
		t.Errorf("ProjectID() = %q", got)
	}
}

// Ids are path segments however they are escaped: they can never reach
// another route or another resource.
func TestEscapedIDs(t *testing.T) {
	f := newFake(t, config{})
	id := f.ready(nil)
	f.send("POST", f.svcPath(id)+"/replicaSets", map[string]any{"name": "r", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}).must(t, 202)
	for _, tc := range []struct{ method, path string }{
		{"GET", f.svcPath(id + "%2Fstart")},
		{"POST", f.svcPath(id+"%2Fstop") + "/start"},
		{"GET", f.svcPath("..")},
		{"GET", f.svcPath("..") + "/logs"},
		{"POST", f.svcPath("..") + "/stop"},
		{"GET", f.svcPath(id + "%3Fx=1")},
		{"GET", f.svcPath("%2E%2E")},
		{"GET", "/projects/..%2F" + f.proj + "/services"},
		{"GET", "/projects/" + f.proj + "%2Fservices%2F" + id + "/services"},
		{"DELETE", f.svcPath(id) + "/replicaSets/..%2F.."},
		{"POST", f.svcPath(id) + "/replicaSets/rs-x%2Fresize/enablePooler"},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			f.send(tc.method, tc.path, nil).mustError(t, 404, "NOT_FOUND", "not found")
		})
	}
	f.wantStatus(id, "READY")
	if n := f.api.count("GET", f.svcPath(id+"%2Fstart")); n != 1 {
		t.Errorf("Count of the escaped path = %d, want 1", n)
	}
}

func TestRequestIDs(t *testing.T) {
	f := newFake(t, config{})
	seen := map[string]bool{}
	for range 5 {
		r := f.send("GET", "/projects/"+f.proj+"/services", nil)
		id := r.header.Get("X-Request-Id")
		if id == "" || seen[id] {
			t.Fatalf("request id %q empty or repeated", id)
		}
		seen[id] = true
	}
}

// TestEveryRoute calls each of the 23 endpoints once and checks its success
// status and the kind of body it answers with.
func TestEveryRoute(t *testing.T) {
	f := newFake(t, config{}) // Step 0: every operation completes by the next read
	svcs := "/projects/" + f.proj + "/services"
	var id, rs string
	rsBody := map[string]any{"name": "r", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}
	resize := map[string]any{"cpu_millis": "1000", "memory_gbs": "4"}
	for _, tc := range []struct {
		method string
		path   func() string
		body   any
		status int
		kind   string // array, service, set, message, logs, empty
	}{
		{"GET", func() string { return svcs }, nil, 200, "array"},
		{"POST", func() string { return svcs }, map[string]any{"name": "db"}, 202, "service"},
		{"GET", func() string { return f.svcPath(id) }, nil, 200, "service"},
		{"POST", func() string { return f.svcPath(id) + "/stop" }, nil, 202, "service"},
		{"POST", func() string { return f.svcPath(id) + "/start" }, nil, 202, "service"},
		{"POST", func() string { return f.svcPath(id) + "/attachToVPC" }, map[string]any{"vpc_id": "1"}, 202, "message"},
		{"POST", func() string { return f.svcPath(id) + "/detachFromVPC" }, map[string]any{"vpc_id": "1"}, 202, "message"},
		{"POST", func() string { return f.svcPath(id) + "/resize" }, resize, 202, "service"},
		{"POST", func() string { return f.svcPath(id) + "/enablePooler" }, nil, 200, "message"},
		{"POST", func() string { return f.svcPath(id) + "/disablePooler" }, nil, 200, "message"},
		{"POST", func() string { return f.svcPath(id) + "/forkService" }, map[string]any{"fork_strategy": "NOW"}, 202, "service"},
		{"POST", func() string { return f.svcPath(id) + "/updatePassword" }, map[string]any{"password": "p4ssword-p4ssword"}, 204, "empty"},
		{"POST", func() string { return f.svcPath(id) + "/setEnvironment" }, map[string]any{"environment": "PROD"}, 200, "message"},
		{"GET", func() string { return f.svcPath(id) + "/logs" }, nil, 200, "logs"},
		{"POST", func() string { return f.svcPath(id) + "/setHA" }, map[string]any{"replica_count": 1}, 202, "service"},
		{"GET", func() string { return f.svcPath(id) + "/replicaSets" }, nil, 200, "array"},
		{"POST", func() string { return f.svcPath(id) + "/replicaSets" }, rsBody, 202, "set"},
		{"POST", func() string { return f.setPath(id, rs) + "/resize" }, resize, 202, "message"},
		{"POST", func() string { return f.setPath(id, rs) + "/enablePooler" }, nil, 200, "message"},
		{"POST", func() string { return f.setPath(id, rs) + "/disablePooler" }, nil, 200, "message"},
		{"POST", func() string { return f.setPath(id, rs) + "/setEnvironment" }, map[string]any{"environment": "PROD"}, 200, "message"},
		{"DELETE", func() string { return f.setPath(id, rs) }, nil, 202, "empty"},
		{"DELETE", func() string { return f.svcPath(id) }, nil, 202, "empty"},
	} {
		path := tc.path()
		r := f.send(tc.method, path, tc.body)
		r.must(t, tc.status)
		if tc.kind == "empty" {
			if len(r.raw) != 0 || r.header.Get("Content-Type") != "" {
				t.Errorf("%s %s: body %q, Content-Type %q", tc.method, path, r.raw, r.header.Get("Content-Type"))
			}
			continue
		}
		if r.header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: Content-Type %q", tc.method, path, r.header.Get("Content-Type"))
		}
		switch tc.kind {
		case "array":
			r.list(t)
		case "service":
			m := r.obj(t)
			if id == "" {
				id = m["service_id"].(string)
			}
			if _, ok := m["status"].(string); !ok {
				t.Errorf("%s %s: not a service: %s", tc.method, path, r.raw)
			}
		case "set":
			rs = r.obj(t)["id"].(string)
		case "message":
			if msg, _ := r.obj(t)["message"].(string); msg == "" {
				t.Errorf("%s %s: no message: %s", tc.method, path, r.raw)
			}
		case "logs":
			if _, ok := r.obj(t)["logs"].([]any); !ok {
				t.Errorf("%s %s: not a logs response: %s", tc.method, path, r.raw)
			}
		}
	}
	if _, err := f.api.logs(id); !errors.Is(err, errNotFound) {
		t.Errorf("Logs of a deleted service: %v, want ErrNotFound", err)
	}
}

// TestUnknownIDs calls every route with an unknown service, then with an
// unknown replica set: 404 comes before any body check.
func TestUnknownIDs(t *testing.T) {
	f := newFake(t, config{})
	svc := f.ready(nil)
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
				path := strings.NewReplacer("{p}", f.proj, "{s}", tc.service, "{r}", tc.set).Replace("/" + strings.Join(rt.segs, "/"))
				t.Run(method+" "+path, func(t *testing.T) {
					f.send(method, path, `{}`).mustError(t, 404, "NOT_FOUND", tc.kind+" not found")
				})
			}
		}
	}
}
