package chaos

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// TestRecordErrors: what the recorder cannot record (a handler that
// panicked, a create answer it cannot read) is kept and fails a check,
// instead of vanishing into net/http's recovery.
func TestRecordErrors(t *testing.T) {
	createURL := "/v1/projects/p/services"
	cases := []struct {
		name    string
		handler http.HandlerFunc
		want    string
	}{
		{"panic", func(http.ResponseWriter, *http.Request) { panic("model bug") }, "the handler panicked: model bug"},
		{"unreadable", func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusAccepted)
			_, _ = w.Write([]byte(`{"service_id": `))
		}, "the 202 answer of a create, not recorded"},
		{"no id", func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusAccepted)
			_, _ = w.Write([]byte(`{"name":"a","initial_password":"pw-0123456789"}`))
		}, "no id or name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := &Backend{}
			h := b.record(c.handler)
			func() {
				defer func() {
					// A panic goes on to net/http, to drop the connection.
					if v := recover(); (v != nil) != (c.name == "panic") {
						t.Errorf("recovered %v", v)
					}
				}()
				h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, createURL, nil))
			}()
			errs := b.RecordErrors()
			if len(errs) != 1 || !strings.Contains(errs[0].Error(), c.want) {
				t.Fatalf("record errors = %v, want one saying %q", errs, c.want)
			}
			if strings.Contains(errs[0].Error(), "pw-0123456789") {
				t.Errorf("record error %q shows the password", errs[0])
			}
			if ch := recorded(errs); ch.Count != 1 || ch.Detail != errs[0].Error() {
				t.Errorf("check = %+v, want it failed with the error", ch)
			}
			if len(b.Created()) != 0 {
				t.Errorf("created = %v, want nothing", b.Created())
			}
		})
	}

	// A connection aborted on purpose is no recording error.
	b := &Backend{}
	func() {
		defer func() {
			if v := recover(); v != http.ErrAbortHandler {
				t.Errorf("recovered %v, want the abort passed on", v)
			}
		}()
		b.record(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) })).
			ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodPost, createURL, nil))
	}()
	if errs := b.RecordErrors(); len(errs) != 0 {
		t.Errorf("record errors = %v after an abort, want none", errs)
	}
}

// TestBackendServices: the end checks read the model's own view, sets
// included, without the SDK.
func TestBackendServices(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	b, err := StartBackend()
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	post := func(path, body string) map[string]any {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, b.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+b.APIKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusAccepted {
			t.Fatalf("POST %s: %d %v", path, resp.StatusCode, err)
		}
		return out
	}
	services := "/projects/" + b.ProjectID + "/services"
	id := post(services, `{"name":"db"}`)["service_id"].(string)
	setID := post(services+"/"+id+"/replicaSets", `{"name":"db-rs","nodes":1,"cpu_millis":500,"memory_gbs":2}`)["id"].(string)

	var got []string
	for _, svc := range b.fake.Services() {
		got = append(got, svc.ServiceID+" "+svc.Name+" "+string(svc.Status))
		for _, set := range svc.ReadReplicaSets {
			got = append(got, set.ID+" "+set.Name+" "+string(set.Status))
		}
	}
	want := []string{id + " db READY", setID + " db-rs active"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
