package dbcloud_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

// valCall is a call of the SDK that validation must refuse.
type valCall = func(*dbcloud.Client) error

// valCase is one invalid call and the field its *ValidationError must name.
type valCase struct {
	name  string
	field string
	call  valCall
}

// errOf drops the result of a call that returns one with its error.
func errOf[T any](_ T, err error) error { return err }

func TestValidationInputs(t *testing.T) {
	t.Parallel()
	const (
		p  = "proj-1"
		s  = "svc-1"
		rs = "rs-100"
	)
	// The subtests, parallel, end before this test's context is canceled.
	ctx := t.Context()
	name129 := strings.Repeat("é", 129)
	okCreate := &dbcloud.CreateServiceRequest{Name: "db"}
	okResize := &dbcloud.ResizeRequest{CPUMillis: 1000, MemoryGBs: 4}
	okFork := &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow}
	okHA := &dbcloud.SetHARequest{ReplicaCount: new(1)}
	okRS := &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 1000, MemoryGBs: 4}
	t0 := time.Date(2026, 3, 4, 5, 0, 0, 0, time.UTC)

	create := func(req *dbcloud.CreateServiceRequest) valCall {
		return func(c *dbcloud.Client) error { return errOf(c.Services.Create(ctx, p, req)) }
	}
	fork := func(req *dbcloud.ForkServiceRequest) valCall {
		return func(c *dbcloud.Client) error { return errOf(c.Services.Fork(ctx, p, s, req)) }
	}
	resize := func(req *dbcloud.ResizeRequest) valCall {
		return func(c *dbcloud.Client) error { return errOf(c.Services.Resize(ctx, p, s, req)) }
	}
	rsResize := func(req *dbcloud.ResizeRequest) valCall {
		return func(c *dbcloud.Client) error { return c.ReplicaSets.Resize(ctx, p, s, rs, req) }
	}
	setHA := func(req *dbcloud.SetHARequest) valCall {
		return func(c *dbcloud.Client) error { return errOf(c.Services.SetHA(ctx, p, s, req)) }
	}
	rsCreate := func(req *dbcloud.CreateReplicaSetRequest) valCall {
		return func(c *dbcloud.Client) error { return errOf(c.ReplicaSets.Create(ctx, p, s, req)) }
	}
	logs := func(opts *dbcloud.LogOptions) valCall {
		return func(c *dbcloud.Client) error { return errOf(c.Services.ListLogs(ctx, p, s, opts)) }
	}

	cases := []valCase{
		// Ids.
		{"List/empty projectID", "projectID", func(c *dbcloud.Client) error { return errOf(c.Services.List(ctx, "")) }},
		{"Create/empty projectID", "projectID", func(c *dbcloud.Client) error { return errOf(c.Services.Create(ctx, "", okCreate)) }},
		{"Get/empty projectID", "projectID", func(c *dbcloud.Client) error { return errOf(c.Services.Get(ctx, "", s)) }},
		{"Get/empty serviceID", "serviceID", func(c *dbcloud.Client) error { return errOf(c.Services.Get(ctx, p, "")) }},
		{"Delete/empty serviceID", "serviceID", func(c *dbcloud.Client) error { return c.Services.Delete(ctx, p, "") }},
		{"Start/empty serviceID", "serviceID", func(c *dbcloud.Client) error { return errOf(c.Services.Start(ctx, p, "")) }},
		{"Stop/empty projectID", "projectID", func(c *dbcloud.Client) error { return errOf(c.Services.Stop(ctx, "", s)) }},
		{"AttachToVPC/empty serviceID", "serviceID", func(c *dbcloud.Client) error { return c.Services.AttachToVPC(ctx, p, "", "12345") }},
		{"DetachFromVPC/empty projectID", "projectID", func(c *dbcloud.Client) error { return c.Services.DetachFromVPC(ctx, "", s, "12345") }},
		{"Resize/empty serviceID", "serviceID", func(c *dbcloud.Client) error { return errOf(c.Services.Resize(ctx, p, "", okResize)) }},
		{"EnablePooler/empty serviceID", "serviceID", func(c *dbcloud.Client) error { return c.Services.EnablePooler(ctx, p, "") }},
		{"DisablePooler/empty projectID", "projectID", func(c *dbcloud.Client) error { return c.Services.DisablePooler(ctx, "", s) }},
		{"Fork/empty serviceID", "serviceID", func(c *dbcloud.Client) error { return errOf(c.Services.Fork(ctx, p, "", okFork)) }},
		{"UpdatePassword/empty serviceID", "serviceID", func(c *dbcloud.Client) error { return c.Services.UpdatePassword(ctx, p, "", "n3w-Pa55") }},
		{"SetEnvironment/empty serviceID", "serviceID", func(c *dbcloud.Client) error {
			return c.Services.SetEnvironment(ctx, p, "", dbcloud.EnvironmentDev)
		}},
		{"ListLogs/empty serviceID", "serviceID", func(c *dbcloud.Client) error { return errOf(c.Services.ListLogs(ctx, p, "", nil)) }},
		{"SetHA/empty serviceID", "serviceID", func(c *dbcloud.Client) error { return errOf(c.Services.SetHA(ctx, p, "", okHA)) }},
		{"ReplicaSets.List/empty projectID", "projectID", func(c *dbcloud.Client) error { return errOf(c.ReplicaSets.List(ctx, "", s)) }},
		{"ReplicaSets.List/empty serviceID", "serviceID", func(c *dbcloud.Client) error { return errOf(c.ReplicaSets.List(ctx, p, "")) }},
		{"ReplicaSets.Create/empty serviceID", "serviceID", func(c *dbcloud.Client) error {
			return errOf(c.ReplicaSets.Create(ctx, p, "", okRS))
		}},
		{"ReplicaSets.Delete/empty serviceID", "serviceID", func(c *dbcloud.Client) error { return c.ReplicaSets.Delete(ctx, p, "", rs) }},
		{"ReplicaSets.Delete/empty replicaSetID", "replicaSetID", func(c *dbcloud.Client) error { return c.ReplicaSets.Delete(ctx, p, s, "") }},
		{"ReplicaSets.Delete/replicaSetID of 2", "replicaSetID", func(c *dbcloud.Client) error { return c.ReplicaSets.Delete(ctx, p, s, "ab") }},
		// The API's rule is "at least 3 characters": "éa" is 2 characters in 3 bytes.
		{"ReplicaSets.Delete/replicaSetID of 2 characters in 3 bytes", "replicaSetID", func(c *dbcloud.Client) error {
			return c.ReplicaSets.Delete(ctx, p, s, "éa")
		}},
		{"ReplicaSets.Resize/replicaSetID of 1", "replicaSetID", func(c *dbcloud.Client) error {
			return c.ReplicaSets.Resize(ctx, p, s, "x", okResize)
		}},
		{"ReplicaSets.EnablePooler/replicaSetID of 2", "replicaSetID", func(c *dbcloud.Client) error {
			return c.ReplicaSets.EnablePooler(ctx, p, s, "ab")
		}},
		{"ReplicaSets.DisablePooler/empty replicaSetID", "replicaSetID", func(c *dbcloud.Client) error {
			return c.ReplicaSets.DisablePooler(ctx, p, s, "")
		}},
		{"ReplicaSets.SetEnvironment/replicaSetID of 2", "replicaSetID", func(c *dbcloud.Client) error {
			return c.ReplicaSets.SetEnvironment(ctx, p, s, "ab", dbcloud.EnvironmentDev)
		}},
		{"ReplicaSets.SetEnvironment/empty projectID", "projectID", func(c *dbcloud.Client) error {
			return c.ReplicaSets.SetEnvironment(ctx, "", s, rs, dbcloud.EnvironmentDev)
		}},
		// Nil request structs.
		{"Create/nil request", "req", create(nil)},
		{"Resize/nil request", "req", resize(nil)},
		{"Fork/nil request", "req", fork(nil)},
		{"SetHA/nil request", "req", setHA(nil)},
		{"ReplicaSets.Create/nil request", "req", rsCreate(nil)},
		{"ReplicaSets.Resize/nil request", "req", rsResize(nil)},

		// Create.
		{"Create/empty Name", "Name", create(&dbcloud.CreateServiceRequest{})},
		{"Create/Name of 129 runes", "Name", create(&dbcloud.CreateServiceRequest{Name: name129})},
		{"Create/unknown Addon", "Addons", create(&dbcloud.CreateServiceRequest{Name: "db", Addons: []dbcloud.Addon{dbcloud.AddonAI, "vector"}})},
		{"Create/empty Addon", "Addons", create(&dbcloud.CreateServiceRequest{Name: "db", Addons: []dbcloud.Addon{""}})},
		{"Create/Shared with CPUMillis", "Shared", create(&dbcloud.CreateServiceRequest{Name: "db", Shared: true, CPUMillis: 1000})},
		{"Create/Shared with MemoryGBs", "Shared", create(&dbcloud.CreateServiceRequest{Name: "db", Shared: true, MemoryGBs: 4})},
		{"Create/negative CPUMillis", "CPUMillis", create(&dbcloud.CreateServiceRequest{Name: "db", CPUMillis: -1000})},
		{"Create/negative MemoryGBs", "MemoryGBs", create(&dbcloud.CreateServiceRequest{Name: "db", MemoryGBs: -1})},
		{"Create/unknown EnvironmentTag", "EnvironmentTag", create(&dbcloud.CreateServiceRequest{Name: "db", EnvironmentTag: "STAGING"})},
		{"Create/lower-case EnvironmentTag", "EnvironmentTag", create(&dbcloud.CreateServiceRequest{Name: "db", EnvironmentTag: "dev"})},
		{"Create/negative ReplicaCount", "ReplicaCount", create(&dbcloud.CreateServiceRequest{Name: "db", ReplicaCount: new(-1)})},

		// Resize.
		{"Resize/zero CPUMillis", "CPUMillis", resize(&dbcloud.ResizeRequest{MemoryGBs: 4})},
		{"Resize/zero MemoryGBs", "MemoryGBs", resize(&dbcloud.ResizeRequest{CPUMillis: 1000})},
		{"Resize/negative CPUMillis", "CPUMillis", resize(&dbcloud.ResizeRequest{CPUMillis: -1000, MemoryGBs: 4})},
		{"ReplicaSets.Resize/zero CPUMillis", "CPUMillis", rsResize(&dbcloud.ResizeRequest{MemoryGBs: 4})},
		{"ReplicaSets.Resize/zero MemoryGBs", "MemoryGBs", rsResize(&dbcloud.ResizeRequest{CPUMillis: 1000})},

		// Fork.
		{"Fork/no strategy", "Strategy", fork(&dbcloud.ForkServiceRequest{Name: "f"})},
		{"Fork/unknown strategy", "Strategy", fork(&dbcloud.ForkServiceRequest{Strategy: "YESTERDAY"})},
		{"Fork/PITR without TargetTime", "TargetTime", fork(&dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkPITR})},
		{"Fork/PITR in the future", "TargetTime", fork(&dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkPITR, TargetTime: time.Now().Add(time.Hour)})},
		{"Fork/NOW with TargetTime", "TargetTime", fork(&dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow, TargetTime: t0})},
		{"Fork/LAST_SNAPSHOT with TargetTime", "TargetTime", fork(&dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkLastSnapshot, TargetTime: t0})},
		{"Fork/Name of 129 runes", "Name", fork(&dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow, Name: name129})},
		{"Fork/Shared with MemoryGBs", "Shared", fork(&dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow, Shared: true, MemoryGBs: 4})},
		{"Fork/negative CPUMillis", "CPUMillis", fork(&dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow, CPUMillis: -1})},
		{"Fork/unknown EnvironmentTag", "EnvironmentTag", fork(&dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow, EnvironmentTag: "QA"})},

		// SetHA.
		{"SetHA/neither count", "req", setHA(&dbcloud.SetHARequest{})},
		{"SetHA/negative ReplicaCount", "ReplicaCount", setHA(&dbcloud.SetHARequest{ReplicaCount: new(-1)})},
		{"SetHA/negative SyncReplicaCount", "SyncReplicaCount", setHA(&dbcloud.SetHARequest{ReplicaCount: new(2), SyncReplicaCount: new(-1)})},

		// Replica set create.
		{"ReplicaSets.Create/empty Name", "Name", rsCreate(&dbcloud.CreateReplicaSetRequest{Nodes: 1, CPUMillis: 1000, MemoryGBs: 4})},
		{"ReplicaSets.Create/Name of 129 runes", "Name", rsCreate(&dbcloud.CreateReplicaSetRequest{Name: name129, Nodes: 1, CPUMillis: 1000, MemoryGBs: 4})},
		{"ReplicaSets.Create/zero Nodes", "Nodes", rsCreate(&dbcloud.CreateReplicaSetRequest{Name: "r", CPUMillis: 1000, MemoryGBs: 4})},
		{"ReplicaSets.Create/negative Nodes", "Nodes", rsCreate(&dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: -1, CPUMillis: 1000, MemoryGBs: 4})},
		{"ReplicaSets.Create/zero CPUMillis", "CPUMillis", rsCreate(&dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, MemoryGBs: 4})},
		{"ReplicaSets.Create/zero MemoryGBs", "MemoryGBs", rsCreate(&dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 1000})},

		// Password.
		{"UpdatePassword/empty password", "password", func(c *dbcloud.Client) error { return c.Services.UpdatePassword(ctx, p, s, "") }},

		// Logs.
		{"ListLogs/Node -1", "Node", logs(&dbcloud.LogOptions{Node: new(-1)})},
		{"ListLogs/empty Search", "Search", logs(&dbcloud.LogOptions{Search: []string{""}})},
		{"ListLogs/all-spaces Search", "Search", logs(&dbcloud.LogOptions{Search: []string{"checkpoint", " \t "}})},
		{"ListLogs/empty Severities", "Severities", logs(&dbcloud.LogOptions{Severities: []string{""}})},
		{"ListLogs/all-spaces Severities", "Severities", logs(&dbcloud.LogOptions{Severities: []string{"ERROR", "   "}})},
		{"ListLogs/Since equal to Until", "Since", logs(&dbcloud.LogOptions{Since: t0, Until: t0})},
		{"ListLogs/Since after Until", "Since", logs(&dbcloud.LogOptions{Since: t0.Add(time.Hour), Until: t0})},
	}

	// VPC ids: attaching and detaching check them alike.
	for _, bad := range []struct{ name, id string }{
		{"empty vpcID", ""},
		{"vpcID with letters", "vpc-12345"},
		{"vpcID with a space", "123 45"},
		{"vpcID of non-ASCII digits", "١٢٣"},
		{"negative vpcID", "-12345"},
	} {
		cases = append(cases,
			valCase{"AttachToVPC/" + bad.name, "vpcID", func(c *dbcloud.Client) error { return c.Services.AttachToVPC(ctx, p, s, bad.id) }},
			valCase{"DetachFromVPC/" + bad.name, "vpcID", func(c *dbcloud.Client) error { return c.Services.DetachFromVPC(ctx, p, s, bad.id) }},
		)
	}
	// Environments: a service's and a replica set's are checked alike.
	for _, bad := range []struct {
		name string
		env  dbcloud.Environment
	}{{"empty", ""}, {"STAGING", "STAGING"}} {
		cases = append(cases,
			valCase{"SetEnvironment/" + bad.name, "env", func(c *dbcloud.Client) error { return c.Services.SetEnvironment(ctx, p, s, bad.env) }},
			valCase{"ReplicaSets.SetEnvironment/" + bad.name, "env", func(c *dbcloud.Client) error {
				return c.ReplicaSets.SetEnvironment(ctx, p, s, rs, bad.env)
			}},
		)
	}

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, mt := newWireClient(t)
			err := tc.call(c)
			var ve *dbcloud.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error = %v (%T), want a *dbcloud.ValidationError", err, err)
			}
			if diff := cmp.Diff(tc.field, ve.Field); diff != "" {
				t.Errorf("ValidationError.Field mismatch (-want +got):\n%s", diff)
			}
			if ve.Reason == "" {
				t.Error("ValidationError.Reason is empty")
			}
			if n := mt.GetTotalCallCount(); n != 0 {
				t.Errorf("%d requests reached the mock, want none", n)
			}
		})
	}
}

// TestValidationNameLimit checks that names of exactly 128 runes (256 bytes
// here) are accepted and sent unchanged.
func TestValidationNameLimit(t *testing.T) {
	t.Parallel()
	name128 := strings.Repeat("é", 128)
	c, mt := newWireClient(t)
	var rec wireRecorder
	mt.RegisterResponder(http.MethodPost, wireBase+"/projects/proj-1/services",
		rec.respond(http.StatusAccepted, wireSvcJSON("svc-a", name128, "QUEUED", "")))
	mt.RegisterResponder(http.MethodPost, wireBase+"/projects/proj-1/services/svc-1/forkService",
		rec.respond(http.StatusAccepted, wireSvcJSON("svc-b", name128, "QUEUED", "")))
	mt.RegisterResponder(http.MethodPost, wireBase+"/projects/proj-1/services/svc-1/replicaSets",
		rec.respond(http.StatusAccepted, `{"id":"rs-1","name":"`+name128+`","status":"creating","nodes":1,"cpu_millis":1000,"memory_gbs":4}`))

	ctx := t.Context()
	if _, err := c.Services.Create(ctx, "proj-1", &dbcloud.CreateServiceRequest{Name: name128}); err != nil {
		t.Errorf("Create: %v", err)
	}
	if _, err := c.Services.Fork(ctx, "proj-1", "svc-1", &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow, Name: name128}); err != nil {
		t.Errorf("Fork: %v", err)
	}
	if _, err := c.ReplicaSets.Create(ctx, "proj-1", "svc-1", &dbcloud.CreateReplicaSetRequest{Name: name128, Nodes: 1, CPUMillis: 1000, MemoryGBs: 4}); err != nil {
		t.Errorf("ReplicaSets.Create: %v", err)
	}
	var names []string
	for _, r := range rec.all() {
		var body struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(r.Body, &body); err != nil {
			t.Fatalf("%s: body %q: %v", r.EscapedPath, r.Body, err)
		}
		names = append(names, body.Name)
	}
	if diff := cmp.Diff([]string{name128, name128, name128}, names); diff != "" {
		t.Errorf("sent names mismatch (-want +got):\n%s", diff)
	}
}

func TestValidationNewClientErrors(t *testing.T) {
	t.Parallel()
	const key = "test-key-123"
	hc := &http.Client{Transport: httpmock.NewMockTransport()}
	type errorCase struct {
		name     string
		key      string
		opts     []dbcloud.Option
		field    string
		mentions []string // substrings the error text must have
	}
	cases := []errorCase{
		{name: "empty key", key: "", opts: []dbcloud.Option{dbcloud.WithBaseURL(wireBase)}, field: "apiKey"},
		{
			name: "missing base URL", key: key, field: "baseURL",
			mentions: []string{"WithBaseURL", "DBCLOUD_BASE_URL"},
		},
		{
			name: "empty base URL", key: key, opts: []dbcloud.Option{dbcloud.WithBaseURL("")}, field: "baseURL",
			mentions: []string{"WithBaseURL", "DBCLOUD_BASE_URL"},
		},
		{name: "negative retry max", key: key, opts: []dbcloud.Option{dbcloud.WithBaseURL(wireBase), dbcloud.WithRetryMax(-1)}, field: "retryMax"},
		{
			name: "retry wait min above max", key: key, field: "retryWait",
			opts: []dbcloud.Option{dbcloud.WithBaseURL(wireBase), dbcloud.WithRetryWait(2*time.Second, time.Second)},
		},
		{
			name: "negative retry wait", key: key, field: "retryWait",
			opts: []dbcloud.Option{dbcloud.WithBaseURL(wireBase), dbcloud.WithRetryWait(-time.Millisecond, time.Second)},
		},
		{
			name: "default poll interval of 0", key: key, field: "defaultPollInterval",
			opts: []dbcloud.Option{dbcloud.WithBaseURL(wireBase), dbcloud.WithDefaultPollInterval(0, time.Second)},
		},
		{
			name: "default poll interval longest below first", key: key, field: "defaultPollInterval",
			opts: []dbcloud.Option{dbcloud.WithBaseURL(wireBase), dbcloud.WithDefaultPollInterval(2*time.Second, time.Second)},
		},
	}
	// Base URLs refused, by the rule each breaks.
	for _, bad := range []struct {
		rule  string
		bases []string
	}{
		// A public host, a private address, look-alikes of localhost and
		// 127.0.0.1: none is loopback.
		{"http only to loopback", []string{"http://api.test/v1", "http://10.0.0.1/v1", "http://localhost.attacker.test/v1", "http://127.0.0.1.attacker.test/v1"}},
		{"https or http", []string{"ftp://api.test/v1"}},
		{"the path is /v1", []string{"https://api.test", "https://api.test/", "https://api.test/v2", "https://api.test/v10", "https://api.test/v1/projects"}},
		{"no user or password", []string{"https://user:s3cret-pw@api.test/v1", "https://user@api.test/v1"}},
	} {
		for _, base := range bad.bases {
			cases = append(cases, errorCase{name: bad.rule + " " + base, key: key, opts: []dbcloud.Option{dbcloud.WithBaseURL(base)}, field: "baseURL"})
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, err := dbcloud.NewClient(tc.key, append([]dbcloud.Option{dbcloud.WithHTTPClient(hc)}, tc.opts...)...)
			if c != nil {
				t.Error("NewClient returned a client with its error")
			}
			var ve *dbcloud.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("error = %v (%T), want a *dbcloud.ValidationError", err, err)
			}
			if diff := cmp.Diff(tc.field, ve.Field); diff != "" {
				t.Errorf("ValidationError.Field mismatch (-want +got):\n%s", diff)
			}
			msg := err.Error()
			for _, m := range tc.mentions {
				if !strings.Contains(msg, m) {
					t.Errorf("error %q does not mention %q", msg, m)
				}
			}
			for _, secret := range []string{key, "s3cret-pw"} {
				if strings.Contains(msg, secret) {
					t.Errorf("error %q carries the secret %q", msg, secret)
				}
			}
		})
	}
}

// TestValidationNewClientLoopback checks the base URLs NewClient accepts,
// and that requests go exactly where they say.
func TestValidationNewClientLoopback(t *testing.T) {
	t.Parallel()
	cases := []struct{ base, wantURL string }{
		{"http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1/projects/p/services"},
		{"http://127.0.0.2/v1", "http://127.0.0.2/v1/projects/p/services"},
		{"http://[::1]:8080/v1", "http://[::1]:8080/v1/projects/p/services"},
		{"http://[::1]/v1", "http://[::1]/v1/projects/p/services"},
		{"http://localhost/v1", "http://localhost/v1/projects/p/services"},
		{"http://localhost:9000/v1", "http://localhost:9000/v1/projects/p/services"},
		{"https://api.test/v1", "https://api.test/v1/projects/p/services"},
		{"https://api.test/v1/", "https://api.test/v1/projects/p/services"},
		{"https://api.test:8443/prefix/v1", "https://api.test:8443/prefix/v1/projects/p/services"},
	}
	for _, tc := range cases {
		t.Run(tc.base, func(t *testing.T) {
			t.Parallel()
			var rec wireRecorder
			c := newRecordingClient(t, &rec, func(*http.Request) *http.Response {
				return wireResponse(http.StatusOK, "[]")
			}, wireKey, dbcloud.WithBaseURL(tc.base))
			if _, err := c.Services.List(t.Context(), "p"); err != nil {
				t.Fatalf("List: %v", err)
			}
			var got []string
			for _, r := range rec.all() {
				got = append(got, r.URL)
			}
			if diff := cmp.Diff([]string{tc.wantURL}, got); diff != "" {
				t.Errorf("request URLs mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestValidationNewClientFromEnv uses t.Setenv, so neither it nor its
// subtests run in parallel.
func TestValidationNewClientFromEnv(t *testing.T) {
	answer := func(*http.Request) *http.Response { return wireResponse(http.StatusOK, "[]") }

	t.Run("reads both variables", func(t *testing.T) {
		t.Setenv("DBCLOUD_API_KEY", "env-key-456")
		t.Setenv("DBCLOUD_BASE_URL", "https://env.test/v1")
		var rec wireRecorder
		c, err := dbcloud.NewClientFromEnv(dbcloud.WithHTTPClient(rec.client(answer)), dbcloud.WithRetryMax(0))
		if err != nil {
			t.Fatalf("NewClientFromEnv: %v", err)
		}
		if _, err := c.Services.List(t.Context(), "p"); err != nil {
			t.Fatalf("List: %v", err)
		}
		type seen struct{ URL, Authorization string }
		var got []seen
		for _, r := range rec.all() {
			got = append(got, seen{r.URL, r.Header.Get("Authorization")})
		}
		want := []seen{{"https://env.test/v1/projects/p/services", "Bearer env-key-456"}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("requests mismatch (-want +got):\n%s", diff)
		}
	})

	t.Run("an option wins over the variable", func(t *testing.T) {
		t.Setenv("DBCLOUD_API_KEY", "env-key-456")
		t.Setenv("DBCLOUD_BASE_URL", "https://env.test/v1")
		var rec wireRecorder
		c, err := dbcloud.NewClientFromEnv(
			dbcloud.WithBaseURL("https://option.test/v1"),
			dbcloud.WithHTTPClient(rec.client(answer)),
			dbcloud.WithRetryMax(0),
		)
		if err != nil {
			t.Fatalf("NewClientFromEnv: %v", err)
		}
		if _, err := c.Services.List(t.Context(), "p"); err != nil {
			t.Fatalf("List: %v", err)
		}
		var got []string
		for _, r := range rec.all() {
			got = append(got, r.URL)
		}
		if diff := cmp.Diff([]string{"https://option.test/v1/projects/p/services"}, got); diff != "" {
			t.Errorf("request URLs mismatch (-want +got):\n%s", diff)
		}
	})

	t.Run("missing key", func(t *testing.T) {
		t.Setenv("DBCLOUD_API_KEY", "")
		t.Setenv("DBCLOUD_BASE_URL", "https://env.test/v1")
		c, err := dbcloud.NewClientFromEnv()
		if c != nil {
			t.Error("NewClientFromEnv returned a client with its error")
		}
		var ve *dbcloud.ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("error = %v (%T), want a *dbcloud.ValidationError", err, err)
		}
		if diff := cmp.Diff("apiKey", ve.Field); diff != "" {
			t.Errorf("ValidationError.Field mismatch (-want +got):\n%s", diff)
		}
		if !strings.Contains(err.Error(), "DBCLOUD_API_KEY") {
			t.Errorf("error %q does not mention DBCLOUD_API_KEY", err)
		}
	})

	t.Run("missing base URL", func(t *testing.T) {
		t.Setenv("DBCLOUD_API_KEY", "env-key-456")
		t.Setenv("DBCLOUD_BASE_URL", "")
		_, err := dbcloud.NewClientFromEnv()
		var ve *dbcloud.ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("error = %v (%T), want a *dbcloud.ValidationError", err, err)
		}
		if diff := cmp.Diff("baseURL", ve.Field); diff != "" {
			t.Errorf("ValidationError.Field mismatch (-want +got):\n%s", diff)
		}
		for _, m := range []string{"WithBaseURL", "DBCLOUD_BASE_URL"} {
			if !strings.Contains(err.Error(), m) {
				t.Errorf("error %q does not mention %q", err, m)
			}
		}
		if strings.Contains(err.Error(), "env-key-456") {
			t.Errorf("error %q carries the API key", err)
		}
	})

	t.Run("NewClient ignores the environment", func(t *testing.T) {
		t.Setenv("DBCLOUD_API_KEY", "env-key-456")
		t.Setenv("DBCLOUD_BASE_URL", "https://env.test/v1")
		_, err := dbcloud.NewClient("test-key-123")
		var ve *dbcloud.ValidationError
		if !errors.As(err, &ve) || ve.Field != "baseURL" {
			t.Errorf("NewClient without WithBaseURL: error = %v, want a *ValidationError for baseURL", err)
		}
		_, err = dbcloud.NewClient("", dbcloud.WithBaseURL(wireBase))
		if !errors.As(err, &ve) || ve.Field != "apiKey" {
			t.Errorf("NewClient with an empty key: error = %v, want a *ValidationError for apiKey", err)
		}
	})
}
