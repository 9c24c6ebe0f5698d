// Package apitest drives the fake's HTTP API in tests: it serves a handler
// with httptest, sends requests as a client of the API would, and checks
// the answers. The tests of httpapi (the API alone) and of dbcloudtest
// (the API behind faults and the request log) share it.
package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/clock"
)

// Epoch is where the clock of a test's API starts unless the test says
// otherwise, so that timestamps are the same on every run.
var Epoch = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// Fake is an API served by httptest until the test ends, and a client for
// it.
type Fake struct {
	T     *testing.T       // the test that fails on a bad answer
	Srv   *httptest.Server // the server of the API's handler
	Base  string           // Srv.URL + "/v1"
	Key   string           // the API key sent
	Proj  string           // the project of SvcPath and Create
	Clock *clock.Clock     // the API's clock, which Ready moves
}

// Serve serves h until the test ends; requests send key, in project proj,
// and Ready moves clk.
func Serve(t *testing.T, h http.Handler, key, proj string, clk *clock.Clock) *Fake {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return &Fake{T: t, Srv: srv, Base: srv.URL + "/v1", Key: key, Proj: proj, Clock: clk}
}

// Resp is an answer, read whole.
type Resp struct {
	Status int
	Header http.Header
	Raw    []byte // the body as sent
	Body   any    // Raw decoded with UseNumber, when JSON; nil when empty
}

// Obj returns the body as a JSON object, failing the test otherwise.
func (r *Resp) Obj(t *testing.T) map[string]any {
	t.Helper()
	m, ok := r.Body.(map[string]any)
	if !ok {
		t.Fatalf("body is not an object: %s", r.Raw)
	}
	return m
}

// List returns the body as a JSON array, failing the test otherwise.
func (r *Resp) List(t *testing.T) []any {
	t.Helper()
	l, ok := r.Body.([]any)
	if !ok {
		t.Fatalf("body is not an array: %s", r.Raw)
	}
	return l
}

// Send makes an authenticated request; body is sent as is when it is a
// string, JSON-encoded otherwise, and not at all when nil. hdr are header
// names and values to set, an empty value deleting the header.
func (f *Fake) Send(method, path string, body any, hdr ...string) *Resp {
	f.T.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			f.T.Fatal(err)
		}
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequest(method, f.Base+path, rd)
	if err != nil {
		f.T.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+f.Key)
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
	res, err := f.Srv.Client().Do(req)
	if err != nil {
		f.T.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	return ReadResp(f.T, res)
}

// RawDo sends one request on a fresh connection and returns the transport
// error, if any, so that faults that break connections can be observed
// without the client's automatic retry of idempotent requests.
func (f *Fake) RawDo(ctx context.Context, method, path, body string) (*http.Response, error) {
	f.T.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, f.Base+path, rd)
	if err != nil {
		f.T.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+f.Key)
	req.Header.Set("Content-Type", "application/json")
	tr := &http.Transport{DisableKeepAlives: true}
	f.T.Cleanup(tr.CloseIdleConnections)
	return (&http.Client{Transport: tr}).Do(req)
}

// ReadResp reads an answer whole.
func ReadResp(t *testing.T, res *http.Response) *Resp {
	t.Helper()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("reading body: %v", err)
	}
	r := &Resp{Status: res.StatusCode, Header: res.Header, Raw: raw}
	if len(raw) > 0 && res.Header.Get("Content-Type") == "application/json" {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&r.Body); err != nil {
			t.Fatalf("decoding %s: %v", raw, err)
		}
	}
	return r
}

// Must fails the test unless the answer has the wanted status.
func (r *Resp) Must(t *testing.T, status int) *Resp {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body %s", r.Status, status, r.Raw)
	}
	return r
}

// MustError checks an error answer: status, code and a message that
// names want.
func (r *Resp) MustError(t *testing.T, status int, code, want string) {
	t.Helper()
	r.Must(t, status)
	m := r.Obj(t)
	if m["code"] != code {
		t.Errorf("code %v, want %s (body %s)", m["code"], code, r.Raw)
	}
	if msg, _ := m["message"].(string); !strings.Contains(msg, want) {
		t.Errorf("message %q does not contain %q", msg, want)
	}
	if _, ok := m["details"].(string); !ok {
		t.Errorf("details missing: %s", r.Raw)
	}
}

// ServicesPath is the path of the fake's project's services: its list, and
// where a create is sent.
func (f *Fake) ServicesPath() string { return "/projects/" + f.Proj + "/services" }

// SvcPath is the path of a service of the fake's project.
func (f *Fake) SvcPath(id string) string { return f.ServicesPath() + "/" + id }

// SetPath is the path of a replica set of a service of the fake's project.
func (f *Fake) SetPath(svc, rs string) string { return f.SvcPath(svc) + "/replicaSets/" + rs }

// VPCsPath is the path of the fake's project's VPCs.
func (f *Fake) VPCsPath() string { return "/projects/" + f.Proj + "/vpcs" }

// VPC makes a VPC in the fake's project and returns its id, for the
// operations that take one.
func (f *Fake) VPC() string {
	f.T.Helper()
	body := map[string]any{"name": "net", "cidr": "10.0.0.0/16", "region_code": "us-east-1"}
	return f.Send("POST", f.VPCsPath(), body).Must(f.T, 201).Obj(f.T)["id"].(string)
}

// Create makes a service from body and returns its id.
func (f *Fake) Create(body map[string]any) string {
	f.T.Helper()
	if body == nil {
		body = map[string]any{"name": "db"}
	}
	r := f.Send("POST", f.ServicesPath(), body).Must(f.T, 202)
	return r.Obj(f.T)["service_id"].(string)
}

// Ready creates a service and moves the clock until it is READY.
func (f *Fake) Ready(body map[string]any) string {
	f.T.Helper()
	id := f.Create(body)
	f.Clock.Advance(time.Hour)
	f.WantStatus(id, "READY")
	return id
}

// Get reads a service.
func (f *Fake) Get(id string) map[string]any {
	f.T.Helper()
	return f.Send("GET", f.SvcPath(id), nil).Must(f.T, 200).Obj(f.T)
}

// WantStatus fails the test unless the service has the wanted status.
func (f *Fake) WantStatus(id, want string) {
	f.T.Helper()
	if got := f.Get(id)["status"]; got != want {
		f.T.Fatalf("status of %s is %v, want %s", id, got, want)
	}
}

// Num reads an integer JSON number field, failing when it is anything else.
func Num(t *testing.T, m map[string]any, key string) int {
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

// Sub reads an object field, failing when it is anything else.
func Sub(t *testing.T, m map[string]any, key string) map[string]any {
	t.Helper()
	v, ok := m[key].(map[string]any)
	if !ok {
		t.Fatalf("%s is %T (%v), want an object", key, m[key], m[key])
	}
	return v
}
