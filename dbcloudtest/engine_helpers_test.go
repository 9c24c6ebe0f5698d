package dbcloudtest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

var epoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// fake is a fake API behind httptest with a manual clock, and a client for it.
type fake struct {
	t     *testing.T
	api   *engine
	clock *clock
	srv   *httptest.Server
	base  string
	proj  string
}

// newFake serves an engine configured by cfg, its clock at epoch unless cfg
// says otherwise, with httptest until the test ends.
func newFake(t *testing.T, cfg config) *fake { return startFake(t, cfg, false) }

// startFake is newFake, with live endpoints if live.
func startFake(t *testing.T, cfg config, live bool) *fake {
	t.Helper()
	if cfg.start.IsZero() && !cfg.realTime {
		cfg.start = epoch
	}
	api := newEngine(cfg, live)
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	return &fake{t: t, api: api, clock: api.clock, srv: srv, base: srv.URL + "/v1", proj: api.projects[0]}
}

type resp struct {
	status int
	header http.Header
	raw    []byte
	body   any // decoded with UseNumber; nil when empty
}

// obj returns the body as a JSON object, failing the test otherwise.
func (r *resp) obj(t *testing.T) map[string]any {
	t.Helper()
	m, ok := r.body.(map[string]any)
	if !ok {
		t.Fatalf("body is not an object: %s", r.raw)
	}
	return m
}

func (r *resp) list(t *testing.T) []any {
	t.Helper()
	l, ok := r.body.([]any)
	if !ok {
		t.Fatalf("body is not an array: %s", r.raw)
	}
	return l
}

// send makes an authenticated request; body is sent as is when it is a
// string, JSON-encoded otherwise, and not at all when nil.
func (f *fake) send(method, path string, body any, hdr ...string) *resp {
	f.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			f.t.Fatal(err)
		}
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, f.base+path, rd)
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+f.api.apiKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i+1] == "" {
			req.Header.Del(hdr[i])
		} else {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	res, err := f.srv.Client().Do(req)
	if err != nil {
		f.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	return readResp(f.t, res)
}

func readResp(t *testing.T, res *http.Response) *resp {
	t.Helper()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("reading body: %v", err)
	}
	r := &resp{status: res.StatusCode, header: res.Header, raw: raw}
	if len(raw) > 0 && res.Header.Get("Content-Type") == "application/json" {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&r.body); err != nil {
			t.Fatalf("decoding %s: %v", raw, err)
		}
	}
	return r
}

// must fails the test unless the response has the wanted status.
func (r *resp) must(t *testing.T, status int) *resp {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.raw)
	}
	return r
}

// mustError checks an error response: status, code and a message that
// names want.
func (r *resp) mustError(t *testing.T, status int, code, want string) {
	t.Helper()
	r.must(t, status)
	m := r.obj(t)
	if m["code"] != code {
		t.Errorf("code %v, want %s (body %s)", m["code"], code, r.raw)
	}
	if msg, _ := m["message"].(string); !strings.Contains(msg, want) {
		t.Errorf("message %q does not contain %q", msg, want)
	}
	if _, ok := m["details"].(string); !ok {
		t.Errorf("details missing: %s", r.raw)
	}
}

func (f *fake) svcPath(id string) string { return "/projects/" + f.proj + "/services/" + id }

// create makes a service from body and returns its id.
func (f *fake) create(body map[string]any) string {
	f.t.Helper()
	if body == nil {
		body = map[string]any{"name": "db"}
	}
	r := f.send("POST", "/projects/"+f.proj+"/services", body).must(f.t, 202)
	return r.obj(f.t)["service_id"].(string)
}

// ready creates a service and moves the clock until it is READY.
func (f *fake) ready(body map[string]any) string {
	f.t.Helper()
	id := f.create(body)
	f.clock.advance(time.Hour)
	f.wantStatus(id, "READY")
	return id
}

func (f *fake) get(id string) map[string]any {
	f.t.Helper()
	return f.send("GET", f.svcPath(id), nil).must(f.t, 200).obj(f.t)
}

func (f *fake) wantStatus(id, want string) {
	f.t.Helper()
	if got := f.get(id)["status"]; got != want {
		f.t.Fatalf("status of %s is %v, want %s", id, got, want)
	}
}

// num reads an integer JSON number field, failing when it is anything else.
func num(t *testing.T, m map[string]any, key string) int {
	t.Helper()
	n, ok := m[key].(json.Number)
	if !ok {
		t.Fatalf("%s is %T (%v), want a JSON number", key, m[key], m[key])
	}
	i, err := n.Int64()
	if err != nil {
		t.Fatalf("%s = %s is not an integer", key, n)
	}
	return int(i)
}

func sub(t *testing.T, m map[string]any, key string) map[string]any {
	t.Helper()
	v, ok := m[key].(map[string]any)
	if !ok {
		t.Fatalf("%s is %T (%v), want an object", key, m[key], m[key])
	}
	return v
}
