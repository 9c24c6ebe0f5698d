package dbcloudtest

import (
	"regexp"
	"testing"
	"time"
)

func (f *fake) setPath(svc, rs string) string { return f.svcPath(svc) + "/replicaSets/" + rs }

func (f *fake) sets(svc string) []map[string]any {
	f.t.Helper()
	var out []map[string]any
	for _, v := range f.send("GET", f.svcPath(svc)+"/replicaSets", nil).must(f.t, 200).list(f.t) {
		out = append(out, v.(map[string]any))
	}
	return out
}

func (f *fake) setStatus(svc, rs string) string {
	f.t.Helper()
	for _, s := range f.sets(svc) {
		if s["id"] == rs {
			return s["status"].(string)
		}
	}
	return "gone"
}

func TestReplicaSetLifecycle(t *testing.T) {
	f := newFake(t, config{step: tstep})
	svc := f.ready(map[string]any{"name": "main", "environment_tag": "PROD"})
	if got := f.sets(svc); len(got) != 0 {
		t.Fatalf("new service has sets %v", got)
	}
	m := f.send("POST", f.svcPath(svc)+"/replicaSets", map[string]any{"name": "readers", "nodes": 2, "cpu_millis": 1000, "memory_gbs": 4}).must(t, 202).obj(t)
	rs, _ := m["id"].(string)
	if !regexp.MustCompile(`^rs-[a-z0-9]{6}$`).MatchString(rs) {
		t.Errorf("id %q", rs)
	}
	if m["name"] != "readers" || m["status"] != "creating" || num(t, m, "nodes") != 2 || num(t, m, "cpu_millis") != 1000 ||
		num(t, m, "memory_gbs") != 4 || sub(t, m, "metadata")["environment"] != "PROD" {
		t.Errorf("create response %v", m)
	}
	if ep := sub(t, m, "endpoint"); num(t, ep, "port") != 5432 || ep["host"] == "" {
		t.Errorf("endpoint %v", ep)
	}
	if _, ok := m["connection_pooler"]; ok {
		t.Error("pooler on a new set")
	}
	f.clock.advance(tstep - time.Nanosecond)
	if s := f.setStatus(svc, rs); s != "creating" {
		t.Errorf("status %s, want creating", s)
	}
	f.clock.advance(time.Nanosecond)
	if s := f.setStatus(svc, rs); s != "active" {
		t.Errorf("status %s, want active", s)
	}
	// The service lists its sets.
	in := f.get(svc)["read_replica_sets"].([]any)
	if len(in) != 1 || in[0].(map[string]any)["id"] != rs || in[0].(map[string]any)["status"] != "active" {
		t.Errorf("read_replica_sets %v", in)
	}

	r := f.send("POST", f.setPath(svc, rs)+"/resize", map[string]any{"cpu_millis": "2000", "memory_gbs": "8"}).must(t, 202)
	if r.obj(t)["message"] == "" {
		t.Error("resize message")
	}
	got := f.sets(svc)[0]
	if got["status"] != "resizing" || num(t, got, "cpu_millis") != 2000 || num(t, got, "memory_gbs") != 8 {
		t.Errorf("after resize %v", got)
	}
	f.clock.advance(tstep)
	if s := f.setStatus(svc, rs); s != "active" {
		t.Errorf("after resize step: %s", s)
	}

	f.send("POST", f.setPath(svc, rs)+"/enablePooler", nil).must(t, 200)
	p := sub(t, sub(t, f.sets(svc)[0], "connection_pooler"), "endpoint")
	if num(t, p, "port") != 6432 {
		t.Errorf("pooler %v", p)
	}
	f.send("POST", f.setPath(svc, rs)+"/enablePooler", nil).mustError(t, 409, "CONFLICT", "already")
	f.send("POST", f.setPath(svc, rs)+"/disablePooler", nil).must(t, 200)
	if _, ok := f.sets(svc)[0]["connection_pooler"]; ok {
		t.Error("pooler after disable")
	}
	f.send("POST", f.setPath(svc, rs)+"/disablePooler", nil).mustError(t, 409, "CONFLICT", "already")

	f.send("POST", f.setPath(svc, rs)+"/setEnvironment", map[string]any{"environment": "DEV"}).must(t, 200)
	if env := sub(t, f.sets(svc)[0], "metadata")["environment"]; env != "DEV" {
		t.Errorf("environment %v", env)
	}

	if r := f.send("DELETE", f.setPath(svc, rs), nil).must(t, 202); len(r.raw) != 0 {
		t.Errorf("delete body %q", r.raw)
	}
	if s := f.setStatus(svc, rs); s != "deleting" {
		t.Errorf("after delete: %s", s)
	}
	f.send("DELETE", f.setPath(svc, rs), nil).mustError(t, 409, "CONFLICT", "deleting")
	f.send("POST", f.setPath(svc, rs)+"/enablePooler", nil).mustError(t, 409, "CONFLICT", "deleting")
	f.send("POST", f.setPath(svc, rs)+"/setEnvironment", map[string]any{"environment": "PROD"}).mustError(t, 409, "CONFLICT", "deleting")
	f.send("POST", f.setPath(svc, rs)+"/resize", map[string]any{"cpu_millis": "1000", "memory_gbs": "4"}).mustError(t, 409, "CONFLICT", "deleting")
	f.clock.advance(tstep)
	if s := f.setStatus(svc, rs); s != "gone" {
		t.Errorf("after delete step: %s", s)
	}
	f.send("DELETE", f.setPath(svc, rs), nil).mustError(t, 404, "NOT_FOUND", "replica set")
	if sets := f.get(svc)["read_replica_sets"].([]any); len(sets) != 0 {
		t.Errorf("read_replica_sets after delete %v", sets)
	}
}

func TestReplicaSetConflicts(t *testing.T) {
	f := newFake(t, config{step: tstep})
	svc := f.ready(nil)
	rs := f.send("POST", f.svcPath(svc)+"/replicaSets", map[string]any{"name": "r", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}).must(t, 202).obj(t)["id"].(string)
	resize := map[string]any{"cpu_millis": "1000", "memory_gbs": "4"}
	f.send("POST", f.setPath(svc, rs)+"/resize", resize).mustError(t, 409, "CONFLICT", "creating")
	f.clock.advance(tstep)
	f.send("POST", f.setPath(svc, rs)+"/resize", resize).must(t, 202)
	f.send("POST", f.setPath(svc, rs)+"/resize", resize).mustError(t, 409, "CONFLICT", "resizing")
	f.clock.advance(tstep)
	if err := f.api.setReplicaSetStatus(svc, rs, "error"); err != nil {
		t.Fatal(err)
	}
	f.clock.advance(time.Hour)
	if s := f.setStatus(svc, rs); s != "error" {
		t.Errorf("forced status %s", s)
	}
	f.send("POST", f.setPath(svc, rs)+"/resize", resize).mustError(t, 409, "CONFLICT", "error")
	// A set in error can still be deleted.
	f.send("DELETE", f.setPath(svc, rs), nil).must(t, 202)

	if err := f.api.setReplicaSetStatus(svc, "rs-none", "error"); err == nil {
		t.Error("SetReplicaSetStatus of an unknown set")
	}
	if err := f.api.setReplicaSetStatus(svc, rs, ""); err == nil {
		t.Error("SetReplicaSetStatus with an empty status")
	}
	if err := f.api.setReplicaSetStatus("nope", rs, "error"); err == nil {
		t.Error("SetReplicaSetStatus of an unknown service")
	}
}

// Deleting a service takes its replica sets with it.
func TestServiceDeletionRemovesSets(t *testing.T) {
	f := newFake(t, config{step: tstep})
	svc := f.ready(nil)
	other := f.ready(nil)
	body := map[string]any{"name": "r", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}
	rs := f.send("POST", f.svcPath(svc)+"/replicaSets", body).must(t, 202).obj(t)["id"].(string)
	f.send("POST", f.svcPath(other)+"/replicaSets", body).must(t, 202)
	f.clock.advance(tstep)
	f.send("DELETE", f.svcPath(svc), nil).must(t, 202)
	if s := f.setStatus(svc, rs); s != "deleting" {
		t.Errorf("set of a deleting service is %s", s)
	}
	f.clock.advance(tstep)
	f.send("GET", f.svcPath(svc)+"/replicaSets", nil).mustError(t, 404, "NOT_FOUND", "service")
	if n := len(f.sets(other)); n != 1 {
		t.Errorf("the other service has %d sets", n)
	}
	// Ids of other services' sets are not found through this one.
	otherSet := f.sets(other)[0]["id"].(string)
	third := f.ready(nil)
	f.send("DELETE", f.setPath(third, otherSet), nil).mustError(t, 404, "NOT_FOUND", "replica set")
}
