package httpapi

import (
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apitest"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/logstore"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

const tstep = 10 * time.Second

func TestCreateServiceResponse(t *testing.T) {
	f := newFake(t, Config{Model: model.Config{Step: tstep}})
	r := f.Send("POST", f.ServicesPath(), map[string]any{"name": "db"}).Must(t, 202)
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	m := r.Obj(t)
	id, _ := m["service_id"].(string)
	if !regexp.MustCompile(`^[a-z0-9]{10}$`).MatchString(id) {
		t.Errorf("service_id %q", id)
	}
	for key, want := range map[string]any{
		"name": "db", "project_id": f.Proj, "region_code": "us-east-1", "service_type": "POSTGRES", "status": "QUEUED",
	} {
		if m[key] != want {
			t.Errorf("%s = %v, want %v", key, m[key], want)
		}
	}
	if created, err := time.Parse(time.RFC3339, m["created"].(string)); err != nil || !created.Equal(apitest.Epoch) {
		t.Errorf("created %v (%v), want %v", m["created"], err, apitest.Epoch)
	}
	if pw, _ := m["initial_password"].(string); len(pw) < 16 {
		t.Errorf("initial_password %q is shorter than 16", pw)
	}
	res := m["resources"].([]any)
	if len(res) != 1 {
		t.Fatalf("resources %v", res)
	}
	spec := apitest.Sub(t, res[0].(map[string]any), "spec")
	if apitest.Num(t, spec, "cpu_millis") != 500 || apitest.Num(t, spec, "memory_gbs") != 2 || spec["volume_type"] == "" {
		t.Errorf("spec %v", spec)
	}
	if _, ok := res[0].(map[string]any)["id"].(string); !ok {
		t.Errorf("resource id missing: %v", res[0])
	}
	ep := apitest.Sub(t, m, "endpoint")
	if ep["host"] != id+"."+f.Proj+".fake.dbcloud.test" || apitest.Num(t, ep, "port") != 5432 {
		t.Errorf("endpoint %v", ep)
	}
	ha := apitest.Sub(t, m, "ha_replicas")
	if apitest.Num(t, ha, "replica_count") != 0 || apitest.Num(t, ha, "sync_replica_count") != 0 {
		t.Errorf("ha_replicas %v", ha)
	}
	if apitest.Sub(t, m, "metadata")["environment"] != "DEV" {
		t.Errorf("metadata %v", m["metadata"])
	}
	if sets, ok := m["read_replica_sets"].([]any); !ok || len(sets) != 0 {
		t.Errorf("read_replica_sets %v", m["read_replica_sets"])
	}
	for _, absent := range []string{"metrics", "connection_pooler", "vpc_endpoint", "vpcEndpoint", "forked_from"} {
		if _, ok := m[absent]; ok {
			t.Errorf("%s present while it does not apply", absent)
		}
	}
	// initial_password is for the creator only.
	f.Clock.Advance(time.Hour)
	got := f.Get(id)
	if _, ok := got["initial_password"]; ok {
		t.Error("get shows initial_password")
	}
	list := f.Send("GET", f.ServicesPath(), nil).Must(t, 200).List(t)
	if len(list) != 1 {
		t.Fatalf("list has %d services", len(list))
	}
	if _, ok := list[0].(map[string]any)["initial_password"]; ok {
		t.Error("list shows initial_password")
	}
	metrics := apitest.Sub(t, got, "metrics")
	for _, k := range []string{"memory_mb", "milli_cpu", "storage_mb"} {
		if apitest.Num(t, metrics, k) <= 0 {
			t.Errorf("metrics.%s not positive: %v", k, metrics)
		}
	}
}

func TestCreateVariants(t *testing.T) {
	for _, tc := range []struct {
		name               string
		body               map[string]any
		typ, region, env   string
		cpu, mem, replicas int
	}{
		{"defaults", map[string]any{"name": "a"}, "POSTGRES", "us-east-1", "DEV", 500, 2, 0},
		{"time-series", map[string]any{"name": "a", "addons": []string{"time-series"}}, "TIMESERIESDB", "us-east-1", "DEV", 500, 2, 0},
		{"ai", map[string]any{"name": "a", "addons": []string{"ai"}}, "VECTOR", "us-east-1", "DEV", 500, 2, 0},
		{"both addons", map[string]any{"name": "a", "addons": []string{"ai", "time-series"}}, "TIMESERIESDB", "us-east-1", "DEV", 500, 2, 0},
		{"no addons", map[string]any{"name": "a", "addons": []string{}}, "POSTGRES", "us-east-1", "DEV", 500, 2, 0},
		{"sizes", map[string]any{"name": "a", "cpu_millis": "2000", "memory_gbs": "8"}, "POSTGRES", "us-east-1", "DEV", 2000, 8, 0},
		{"cpu only", map[string]any{"name": "a", "cpu_millis": "1000"}, "POSTGRES", "us-east-1", "DEV", 1000, 2, 0},
		{"shared", map[string]any{"name": "a", "cpu_millis": "shared", "memory_gbs": "shared"}, "POSTGRES", "us-east-1", "DEV", 250, 1, 0},
		{"everything", map[string]any{"name": "a", "environment_tag": "PROD", "region_code": "eu-west-1", "replica_count": 2}, "POSTGRES", "eu-west-1", "PROD", 500, 2, 2},
		{"null is absent", map[string]any{"name": "a", "region_code": nil}, "POSTGRES", "us-east-1", "DEV", 500, 2, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, Config{})
			m := f.Send("POST", f.ServicesPath(), tc.body).Must(t, 202).Obj(t)
			spec := apitest.Sub(t, m["resources"].([]any)[0].(map[string]any), "spec")
			ha := apitest.Sub(t, m, "ha_replicas")
			if m["service_type"] != tc.typ || m["region_code"] != tc.region || apitest.Sub(t, m, "metadata")["environment"] != tc.env ||
				apitest.Num(t, spec, "cpu_millis") != tc.cpu || apitest.Num(t, spec, "memory_gbs") != tc.mem || apitest.Num(t, ha, "replica_count") != tc.replicas {
				t.Errorf("got %v", m)
			}
		})
	}
}

func TestStepZero(t *testing.T) {
	f := newFake(t, Config{Model: model.Config{RealTime: true}})
	m := f.Send("POST", f.ServicesPath(), map[string]any{"name": "x"}).Must(t, 202).Obj(t)
	if m["status"] != "QUEUED" {
		t.Errorf("create response status %v", m["status"])
	}
	id := m["service_id"].(string)
	f.WantStatus(id, "READY")
	if s := f.Send("POST", f.SvcPath(id)+"/stop", nil).Must(t, 202).Obj(t)["status"]; s != "PAUSING" {
		t.Errorf("stop response status %v", s)
	}
	f.WantStatus(id, "PAUSED")
	f.Send("DELETE", f.SvcPath(id), nil).Must(t, 202)
	f.Send("GET", f.SvcPath(id), nil).MustError(t, 404, "NOT_FOUND", "service")
}

// TestServiceStateMachine walks every service transition of the doc table.
func TestServiceStateMachine(t *testing.T) {
	f := newFake(t, Config{Model: model.Config{Step: tstep}})
	post := func(id, op string, body any, want string) map[string]any {
		t.Helper()
		m := f.Send("POST", f.SvcPath(id)+"/"+op, body).Must(t, 202).Obj(t)
		if m["status"] != want {
			t.Fatalf("%s response status %v, want %s", op, m["status"], want)
		}
		return m
	}
	// advance checks the status during the tstep and after it.
	advance := func(id, during, after string) {
		t.Helper()
		f.Clock.Advance(tstep - time.Nanosecond)
		f.WantStatus(id, during)
		f.Clock.Advance(time.Nanosecond)
		f.WantStatus(id, after)
	}

	id := f.Create(nil)
	f.WantStatus(id, "QUEUED")
	advance(id, "QUEUED", "CONFIGURING")
	advance(id, "CONFIGURING", "READY")

	post(id, "stop", nil, "PAUSING")
	advance(id, "PAUSING", "PAUSED")
	post(id, "start", nil, "RESUMING")
	advance(id, "RESUMING", "READY")

	m := post(id, "resize", map[string]any{"cpu_millis": "1000", "memory_gbs": "4"}, "CONFIGURING")
	spec := apitest.Sub(t, m["resources"].([]any)[0].(map[string]any), "spec")
	if apitest.Num(t, spec, "cpu_millis") != 1000 || apitest.Num(t, spec, "memory_gbs") != 4 {
		t.Errorf("resize response spec %v", spec)
	}
	if _, ok := m["metrics"]; ok {
		t.Error("metrics while CONFIGURING")
	}
	advance(id, "CONFIGURING", "READY")

	m = post(id, "setHA", map[string]any{"replica_count": 2, "sync_replica_count": 1}, "CONFIGURING")
	if ha := apitest.Sub(t, m, "ha_replicas"); apitest.Num(t, ha, "replica_count") != 2 || apitest.Num(t, ha, "sync_replica_count") != 1 {
		t.Errorf("setHA response %v", ha)
	}
	advance(id, "CONFIGURING", "READY")
	m = post(id, "setHA", map[string]any{"sync_replica_count": 0}, "CONFIGURING")
	if ha := apitest.Sub(t, m, "ha_replicas"); apitest.Num(t, ha, "replica_count") != 2 || apitest.Num(t, ha, "sync_replica_count") != 0 {
		t.Errorf("setHA with one field %v", ha)
	}
	advance(id, "CONFIGURING", "READY")

	if r := f.Send("DELETE", f.SvcPath(id), nil).Must(t, 202); len(r.Raw) != 0 {
		t.Errorf("delete body %q", r.Raw)
	}
	f.Clock.Advance(tstep - time.Nanosecond)
	f.WantStatus(id, "DELETING")
	if n := len(f.Send("GET", f.ServicesPath(), nil).List(t)); n != 1 {
		t.Errorf("list while DELETING has %d", n)
	}
	f.Clock.Advance(time.Nanosecond)
	f.Send("GET", f.SvcPath(id), nil).MustError(t, 404, "NOT_FOUND", "service")
	f.Send("POST", f.SvcPath(id)+"/start", nil).MustError(t, 404, "NOT_FOUND", "service")
	if n := len(f.Send("GET", f.ServicesPath(), nil).List(t)); n != 0 {
		t.Errorf("list after deletion has %d", n)
	}
	if _, err := f.model.Logs(id); err == nil {
		t.Error("Logs of a deleted service")
	}
}

// TestServiceConflicts checks every 409 rule of the services.
func TestServiceConflicts(t *testing.T) {
	// vpcRef(i) is the body naming the test's i-th VPC.
	type vpcRef int
	vpc := func(f *fake, i vpcRef) map[string]any {
		return map[string]any{"vpc_id": f.Send("GET", f.VPCsPath(), nil).List(t)[i].(map[string]any)["id"]}
	}
	resize := map[string]any{"cpu_millis": "1000", "memory_gbs": "4"}
	ha := map[string]any{"replica_count": 1}
	fork := map[string]any{"fork_strategy": "NOW"}
	for _, tc := range []struct {
		name  string
		setup func(f *fake, id string) // from READY
		op    string
		body  any
	}{
		{"stop QUEUED", func(f *fake, id string) { f.model.SetStatus(id, "QUEUED") }, "stop", nil},
		{"stop PAUSED", func(f *fake, id string) {
			f.Send("POST", f.SvcPath(id)+"/stop", nil).Must(t, 202)
			f.Clock.Advance(time.Hour)
		}, "stop", nil},
		{"stop PAUSING", func(f *fake, id string) { f.Send("POST", f.SvcPath(id)+"/stop", nil).Must(t, 202) }, "stop", nil},
		{"start READY", func(*fake, string) {}, "start", nil},
		{"start RESUMING", func(f *fake, id string) {
			f.Send("POST", f.SvcPath(id)+"/stop", nil).Must(t, 202)
			f.Clock.Advance(time.Hour)
			f.Send("POST", f.SvcPath(id)+"/start", nil).Must(t, 202)
		}, "start", nil},
		{"resize CONFIGURING", func(f *fake, id string) { f.Send("POST", f.SvcPath(id)+"/resize", resize).Must(t, 202) }, "resize", resize},
		{"resize UNSTABLE", func(f *fake, id string) { f.model.SetStatus(id, "UNSTABLE") }, "resize", resize},
		{"setHA PAUSED", func(f *fake, id string) { f.model.SetStatus(id, "PAUSED") }, "setHA", ha},
		{"fork CONFIGURING", func(f *fake, id string) { f.model.SetStatus(id, "CONFIGURING") }, "forkService", fork},
		{"enablePooler twice", func(f *fake, id string) { f.Send("POST", f.SvcPath(id)+"/enablePooler", nil).Must(t, 200) }, "enablePooler", nil},
		{"disablePooler when off", func(*fake, string) {}, "disablePooler", nil},
		{"attach twice", func(f *fake, id string) { f.Send("POST", f.SvcPath(id)+"/attachToVPC", vpc(f, 0)).Must(t, 202) }, "attachToVPC", vpcRef(1)},
		{"detach when not attached", func(*fake, string) {}, "detachFromVPC", vpcRef(0)},
		{"detach another VPC", func(f *fake, id string) { f.Send("POST", f.SvcPath(id)+"/attachToVPC", vpc(f, 0)).Must(t, 202) }, "detachFromVPC", vpcRef(1)},
		{"create replica set PAUSED", func(f *fake, id string) { f.model.SetStatus(id, "PAUSED") },
			"replicaSets", map[string]any{"name": "r", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, Config{Model: model.Config{Step: tstep}})
			id := f.Ready(nil)
			f.VPC()
			f.VPC()
			tc.setup(f, id)
			before := f.Get(id)
			body := tc.body
			if ref, ok := body.(vpcRef); ok {
				body = vpc(f, ref)
			}
			f.Send("POST", f.SvcPath(id)+"/"+tc.op, body).MustError(t, 409, "CONFLICT", "")
			if after := f.Get(id); !jsonEqual(before, after) {
				t.Errorf("a refused %s changed the service:\n%v\n%v", tc.op, before, after)
			}
		})
	}
}

// Everything but reads is refused while a service is being deleted.
func TestDeletingConflicts(t *testing.T) {
	for _, status := range []string{"DELETING", "DELETED"} {
		f := newFake(t, Config{Model: model.Config{Step: tstep}})
		id := f.Ready(nil)
		vpc := f.VPC()
		f.Send("POST", f.SvcPath(id)+"/replicaSets", map[string]any{"name": "r", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}).Must(t, 202)
		f.Clock.Advance(time.Hour)
		rs := f.Send("GET", f.SvcPath(id)+"/replicaSets", nil).List(t)[0].(map[string]any)["id"].(string)
		if status == "DELETING" {
			f.Send("DELETE", f.SvcPath(id), nil).Must(t, 202)
			sets := f.Send("GET", f.SvcPath(id)+"/replicaSets", nil).Must(t, 200).List(t)
			if st := sets[0].(map[string]any)["status"]; st != "deleting" {
				t.Errorf("replica set of a DELETING service is %v", st)
			}
		} else if err := f.model.SetStatus(id, status); err != nil {
			t.Fatal(err)
		}
		for _, op := range []struct {
			method, path string
			body         any
		}{
			{"DELETE", "", nil},
			{"POST", "/stop", nil},
			{"POST", "/resize", map[string]any{"cpu_millis": "1000", "memory_gbs": "4"}},
			{"POST", "/enablePooler", nil},
			{"POST", "/disablePooler", nil},
			{"POST", "/attachToVPC", map[string]any{"vpc_id": vpc}},
			{"POST", "/detachFromVPC", map[string]any{"vpc_id": vpc}},
			{"POST", "/rename", map[string]any{"name": "other"}},
			{"POST", "/updatePassword", map[string]any{"password": "new-password-1"}},
			{"POST", "/setEnvironment", map[string]any{"environment": "PROD"}},
			{"POST", "/forkService", map[string]any{"fork_strategy": "NOW"}},
			{"POST", "/setHA", map[string]any{"replica_count": 1}},
			{"POST", "/replicaSets", map[string]any{"name": "r", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}},
			{"DELETE", "/replicaSets/" + rs, nil},
			{"POST", "/replicaSets/" + rs + "/resize", map[string]any{"cpu_millis": "1000", "memory_gbs": "4"}},
			{"POST", "/replicaSets/" + rs + "/enablePooler", nil},
			{"POST", "/replicaSets/" + rs + "/setEnvironment", map[string]any{"environment": "PROD"}},
		} {
			t.Run(status+" "+op.method+op.path, func(t *testing.T) {
				f.Send(op.method, f.SvcPath(id)+op.path, op.body).MustError(t, 409, "CONFLICT", "")
			})
		}
		f.Send("GET", f.SvcPath(id)+"/logs", nil).Must(t, 200)
		f.WantStatus(id, status)
	}
}

func TestDeleteFromAnyStatus(t *testing.T) {
	for _, status := range []string{"QUEUED", "CONFIGURING", "PAUSED", "UNSTABLE", "UPGRADING"} {
		t.Run(status, func(t *testing.T) {
			f := newFake(t, Config{Model: model.Config{Step: tstep}})
			id := f.Create(nil)
			if err := f.model.SetStatus(id, status); err != nil {
				t.Fatal(err)
			}
			f.Send("DELETE", f.SvcPath(id), nil).Must(t, 202)
			f.WantStatus(id, "DELETING")
		})
	}
}

func TestPoolerAndVPCFields(t *testing.T) {
	f := newFake(t, Config{})
	id := f.Ready(nil)
	vpc, other := f.VPC(), f.VPC()
	msg := func(r *apitest.Resp) {
		t.Helper()
		if s, ok := r.Obj(t)["message"].(string); !ok || s == "" {
			t.Errorf("message body %s", r.Raw)
		}
	}
	msg(f.Send("POST", f.SvcPath(id)+"/enablePooler", nil).Must(t, 200))
	p := apitest.Sub(t, apitest.Sub(t, f.Get(id), "connection_pooler"), "endpoint")
	if apitest.Num(t, p, "port") != 6432 || p["host"] == "" {
		t.Errorf("pooler endpoint %v", p)
	}
	msg(f.Send("POST", f.SvcPath(id)+"/disablePooler", nil).Must(t, 200))
	if _, ok := f.Get(id)["connection_pooler"]; ok {
		t.Error("connection_pooler after disable")
	}

	msg(f.Send("POST", f.SvcPath(id)+"/attachToVPC", map[string]any{"vpc_id": vpc}).Must(t, 202))
	m := f.Get(id)
	v1, v2 := apitest.Sub(t, m, "vpc_endpoint"), apitest.Sub(t, m, "vpcEndpoint")
	if v1["vpc_id"] != vpc || apitest.Num(t, v1, "port") != 5432 || v1["host"] == "" || !jsonEqual(v1, v2) {
		t.Errorf("vpc_endpoint %v, vpcEndpoint %v", v1, v2)
	}
	msg(f.Send("POST", f.SvcPath(id)+"/detachFromVPC", map[string]any{"vpc_id": vpc}).Must(t, 202))
	m = f.Get(id)
	for _, k := range []string{"vpc_endpoint", "vpcEndpoint"} {
		if _, ok := m[k]; ok {
			t.Errorf("%s after detach", k)
		}
	}
	// Synchronous operations need no READY status.
	f.model.SetStatus(id, "PAUSED")
	f.Send("POST", f.SvcPath(id)+"/enablePooler", nil).Must(t, 200)
	f.Send("POST", f.SvcPath(id)+"/attachToVPC", map[string]any{"vpc_id": other}).Must(t, 202)
}

func TestPasswordAndEnvironment(t *testing.T) {
	f := newFake(t, Config{})
	id := f.Ready(nil)
	r := f.Send("POST", f.SvcPath(id)+"/updatePassword", map[string]any{"password": "Sup3r-Secret-Pass"}).Must(t, 204)
	if len(r.Raw) != 0 {
		t.Errorf("updatePassword body %q", r.Raw)
	}
	logs, _ := f.model.Logs(id)
	if logs[0].Message != `password of role "tsdbadmin" changed` {
		t.Errorf("newest log %q", logs[0].Message)
	}
	for _, e := range logs {
		if regexp.MustCompile(`Sup3r`).MatchString(e.Message) {
			t.Errorf("password logged: %q", e.Message)
		}
	}
	r = f.Send("POST", f.SvcPath(id)+"/setEnvironment", map[string]any{"environment": "PROD"}).Must(t, 200)
	if r.Obj(t)["message"] == "" {
		t.Error("no message")
	}
	if env := apitest.Sub(t, f.Get(id), "metadata")["environment"]; env != "PROD" {
		t.Errorf("environment %v", env)
	}
}

func TestFork(t *testing.T) {
	f := newFake(t, Config{Model: model.Config{Step: tstep}})
	parent := f.Ready(map[string]any{"name": "main", "addons": []string{"time-series"}, "region_code": "eu-central-1",
		"cpu_millis": "2000", "memory_gbs": "8", "replica_count": 2, "environment_tag": "PROD"})
	created := apitest.Epoch
	for _, tc := range []struct {
		name     string
		body     map[string]any
		wantName string
		wantEnv  string
		cpu, mem int
	}{
		{"defaults", map[string]any{"fork_strategy": "LAST_SNAPSHOT"}, "main-fork", "DEV", 2000, 8},
		{"now named", map[string]any{"fork_strategy": "NOW", "name": "copy", "environment_tag": "PROD"}, "copy", "PROD", 2000, 8},
		{"sizes", map[string]any{"fork_strategy": "NOW", "cpu_millis": "500"}, "main-fork", "DEV", 500, 8},
		{"shared", map[string]any{"fork_strategy": "NOW", "cpu_millis": "shared", "memory_gbs": "shared"}, "main-fork", "DEV", 250, 1},
		{"pitr at creation", map[string]any{"fork_strategy": "PITR", "target_time": created.Format(time.RFC3339)}, "main-fork", "DEV", 2000, 8},
		{"pitr now", map[string]any{"fork_strategy": "PITR", "target_time": "NOW-PLACEHOLDER"}, "main-fork", "DEV", 2000, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.body["target_time"] == "NOW-PLACEHOLDER" {
				tc.body["target_time"] = f.Clock.Now().Format(time.RFC3339Nano)
			}
			m := f.Send("POST", f.SvcPath(parent)+"/forkService", tc.body).Must(t, 202).Obj(t)
			id := m["service_id"].(string)
			if id == parent || m["status"] != "QUEUED" || m["name"] != tc.wantName || m["service_type"] != "TIMESERIESDB" ||
				m["region_code"] != "eu-central-1" || apitest.Sub(t, m, "metadata")["environment"] != tc.wantEnv {
				t.Errorf("fork %v", m)
			}
			if pw, _ := m["initial_password"].(string); len(pw) < 16 {
				t.Errorf("initial_password %q", pw)
			}
			from := apitest.Sub(t, m, "forked_from")
			if from["service_id"] != parent || from["project_id"] != f.Proj || from["is_standby"] != false {
				t.Errorf("forked_from %v", from)
			}
			if ha := apitest.Sub(t, m, "ha_replicas"); apitest.Num(t, ha, "replica_count") != 0 || apitest.Num(t, ha, "sync_replica_count") != 0 {
				t.Errorf("fork ha_replicas %v", ha)
			}
			spec := apitest.Sub(t, m["resources"].([]any)[0].(map[string]any), "spec")
			if apitest.Num(t, spec, "cpu_millis") != tc.cpu || apitest.Num(t, spec, "memory_gbs") != tc.mem {
				t.Errorf("fork spec %v", spec)
			}
			f.Clock.Advance(tstep)
			f.WantStatus(id, "CONFIGURING")
			f.Clock.Advance(tstep)
			f.WantStatus(id, "READY")
			f.WantStatus(parent, "READY")
			if _, ok := f.Get(id)["initial_password"]; ok {
				t.Error("get of a fork shows initial_password")
			}
		})
	}
}

func TestSetStatusHelper(t *testing.T) {
	f := newFake(t, Config{Model: model.Config{Step: tstep}})
	id := f.Create(nil)
	for _, s := range []string{"UNSTABLE", "OPTIMIZING", "HIBERNATING", "DELETED"} {
		if err := f.model.SetStatus(id, s); err != nil {
			t.Fatal(err)
		}
		f.Clock.Advance(time.Hour) // pending transitions are cancelled
		f.WantStatus(id, s)
	}
	if err := f.model.SetStatus("nope", "READY"); err == nil {
		t.Error("SetStatus of an unknown service")
	}
	if err := f.model.SetStatus(id, ""); err == nil {
		t.Error("SetStatus with an empty status")
	}
}

func TestDeterministicSeed(t *testing.T) {
	run := func(seed uint64) (ids []string, pw string, logs []logstore.Entry) {
		f := newFake(t, Config{Model: model.Config{Seed: seed}})
		a := f.Create(nil)
		m := f.Send("POST", f.ServicesPath(), map[string]any{"name": "b"}).Must(t, 202).Obj(t)
		if err := f.model.SeedLogs(a, 50); err != nil {
			t.Fatal(err)
		}
		logs, _ = f.model.Logs(a)
		return []string{a, m["service_id"].(string)}, m["initial_password"].(string), logs
	}
	ids1, pw1, logs1 := run(7)
	ids2, pw2, logs2 := run(7)
	ids3, _, _ := run(8)
	if !jsonEqual(ids1, ids2) || pw1 != pw2 || !jsonEqual(logs1, logs2) {
		t.Error("same seed, different results")
	}
	if jsonEqual(ids1, ids3) {
		t.Error("different seeds, same ids")
	}
}

func jsonEqual(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
