package httpapi

import (
	"regexp"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apitest"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

func (f *fake) sets(svc string) []map[string]any {
	f.T.Helper()
	var out []map[string]any
	for _, v := range f.Send("GET", f.SvcPath(svc)+"/replicaSets", nil).Must(f.T, 200).List(f.T) {
		out = append(out, v.(map[string]any))
	}
	return out
}

func (f *fake) setStatus(svc, rs string) string {
	f.T.Helper()
	for _, s := range f.sets(svc) {
		if s["id"] == rs {
			return s["status"].(string)
		}
	}
	return "gone"
}

func TestReplicaSetLifecycle(t *testing.T) {
	f := newFake(t, Config{Model: model.Config{Step: tstep}})
	svc := f.Ready(map[string]any{"name": "main", "environment_tag": "PROD"})
	if got := f.sets(svc); len(got) != 0 {
		t.Fatalf("new service has sets %v", got)
	}
	m := f.Send("POST", f.SvcPath(svc)+"/replicaSets", map[string]any{"name": "readers", "nodes": 2, "cpu_millis": 1000, "memory_gbs": 4}).Must(t, 202).Obj(t)
	rs, _ := m["id"].(string)
	if !regexp.MustCompile(`^rs-[a-z0-9]{6}$`).MatchString(rs) {
		t.Errorf("id %q", rs)
	}
	if m["name"] != "readers" || m["status"] != "creating" || apitest.Num(t, m, "nodes") != 2 || apitest.Num(t, m, "cpu_millis") != 1000 ||
		apitest.Num(t, m, "memory_gbs") != 4 || apitest.Sub(t, m, "metadata")["environment"] != "PROD" {
		t.Errorf("create response %v", m)
	}
	if ep := apitest.Sub(t, m, "endpoint"); apitest.Num(t, ep, "port") != 5432 || ep["host"] == "" {
		t.Errorf("endpoint %v", ep)
	}
	if _, ok := m["connection_pooler"]; ok {
		t.Error("pooler on a new set")
	}
	f.Clock.Advance(tstep - time.Nanosecond)
	if s := f.setStatus(svc, rs); s != "creating" {
		t.Errorf("status %s, want creating", s)
	}
	f.Clock.Advance(time.Nanosecond)
	if s := f.setStatus(svc, rs); s != "active" {
		t.Errorf("status %s, want active", s)
	}
	// The service lists its sets.
	in := f.Get(svc)["read_replica_sets"].([]any)
	if len(in) != 1 || in[0].(map[string]any)["id"] != rs || in[0].(map[string]any)["status"] != "active" {
		t.Errorf("read_replica_sets %v", in)
	}

	r := f.Send("POST", f.SetPath(svc, rs)+"/resize", map[string]any{"cpu_millis": "2000", "memory_gbs": "8"}).Must(t, 202)
	if r.Obj(t)["message"] == "" {
		t.Error("resize message")
	}
	got := f.sets(svc)[0]
	if got["status"] != "resizing" || apitest.Num(t, got, "cpu_millis") != 2000 || apitest.Num(t, got, "memory_gbs") != 8 {
		t.Errorf("after resize %v", got)
	}
	f.Clock.Advance(tstep)
	if s := f.setStatus(svc, rs); s != "active" {
		t.Errorf("after resize step: %s", s)
	}

	f.Send("POST", f.SetPath(svc, rs)+"/enablePooler", nil).Must(t, 200)
	p := apitest.Sub(t, apitest.Sub(t, f.sets(svc)[0], "connection_pooler"), "endpoint")
	if apitest.Num(t, p, "port") != 6432 {
		t.Errorf("pooler %v", p)
	}
	f.Send("POST", f.SetPath(svc, rs)+"/enablePooler", nil).MustError(t, 409, "CONFLICT", "already")
	f.Send("POST", f.SetPath(svc, rs)+"/disablePooler", nil).Must(t, 200)
	if _, ok := f.sets(svc)[0]["connection_pooler"]; ok {
		t.Error("pooler after disable")
	}
	f.Send("POST", f.SetPath(svc, rs)+"/disablePooler", nil).MustError(t, 409, "CONFLICT", "already")

	f.Send("POST", f.SetPath(svc, rs)+"/setEnvironment", map[string]any{"environment": "DEV"}).Must(t, 200)
	if env := apitest.Sub(t, f.sets(svc)[0], "metadata")["environment"]; env != "DEV" {
		t.Errorf("environment %v", env)
	}

	if r := f.Send("DELETE", f.SetPath(svc, rs), nil).Must(t, 202); len(r.Raw) != 0 {
		t.Errorf("delete body %q", r.Raw)
	}
	if s := f.setStatus(svc, rs); s != "deleting" {
		t.Errorf("after delete: %s", s)
	}
	f.Send("DELETE", f.SetPath(svc, rs), nil).MustError(t, 409, "CONFLICT", "deleting")
	f.Send("POST", f.SetPath(svc, rs)+"/enablePooler", nil).MustError(t, 409, "CONFLICT", "deleting")
	f.Send("POST", f.SetPath(svc, rs)+"/setEnvironment", map[string]any{"environment": "PROD"}).MustError(t, 409, "CONFLICT", "deleting")
	f.Send("POST", f.SetPath(svc, rs)+"/resize", map[string]any{"cpu_millis": "1000", "memory_gbs": "4"}).MustError(t, 409, "CONFLICT", "deleting")
	f.Clock.Advance(tstep)
	if s := f.setStatus(svc, rs); s != "gone" {
		t.Errorf("after delete step: %s", s)
	}
	f.Send("DELETE", f.SetPath(svc, rs), nil).MustError(t, 404, "NOT_FOUND", "replica set")
	if sets := f.Get(svc)["read_replica_sets"].([]any); len(sets) != 0 {
		t.Errorf("read_replica_sets after delete %v", sets)
	}
}

func TestReplicaSetConflicts(t *testing.T) {
	f := newFake(t, Config{Model: model.Config{Step: tstep}})
	svc := f.Ready(nil)
	rs := f.Send("POST", f.SvcPath(svc)+"/replicaSets", map[string]any{"name": "r", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}).Must(t, 202).Obj(t)["id"].(string)
	resize := map[string]any{"cpu_millis": "1000", "memory_gbs": "4"}
	f.Send("POST", f.SetPath(svc, rs)+"/resize", resize).MustError(t, 409, "CONFLICT", "creating")
	f.Clock.Advance(tstep)
	f.Send("POST", f.SetPath(svc, rs)+"/resize", resize).Must(t, 202)
	f.Send("POST", f.SetPath(svc, rs)+"/resize", resize).MustError(t, 409, "CONFLICT", "resizing")
	f.Clock.Advance(tstep)
	if err := f.model.SetReplicaSetStatus(svc, rs, "error"); err != nil {
		t.Fatal(err)
	}
	f.Clock.Advance(time.Hour)
	if s := f.setStatus(svc, rs); s != "error" {
		t.Errorf("forced status %s", s)
	}
	f.Send("POST", f.SetPath(svc, rs)+"/resize", resize).MustError(t, 409, "CONFLICT", "error")
	// A set in error can still be deleted.
	f.Send("DELETE", f.SetPath(svc, rs), nil).Must(t, 202)

	if err := f.model.SetReplicaSetStatus(svc, "rs-none", "error"); err == nil {
		t.Error("SetReplicaSetStatus of an unknown set")
	}
	if err := f.model.SetReplicaSetStatus(svc, rs, ""); err == nil {
		t.Error("SetReplicaSetStatus with an empty status")
	}
	if err := f.model.SetReplicaSetStatus("nope", rs, "error"); err == nil {
		t.Error("SetReplicaSetStatus of an unknown service")
	}
}

// Deleting a service takes its replica sets with it.
func TestServiceDeletionRemovesSets(t *testing.T) {
	f := newFake(t, Config{Model: model.Config{Step: tstep}})
	svc := f.Ready(nil)
	other := f.Ready(nil)
	body := map[string]any{"name": "r", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}
	rs := f.Send("POST", f.SvcPath(svc)+"/replicaSets", body).Must(t, 202).Obj(t)["id"].(string)
	f.Send("POST", f.SvcPath(other)+"/replicaSets", body).Must(t, 202)
	f.Clock.Advance(tstep)
	f.Send("DELETE", f.SvcPath(svc), nil).Must(t, 202)
	if s := f.setStatus(svc, rs); s != "deleting" {
		t.Errorf("set of a deleting service is %s", s)
	}
	f.Clock.Advance(tstep)
	f.Send("GET", f.SvcPath(svc)+"/replicaSets", nil).MustError(t, 404, "NOT_FOUND", "service")
	if n := len(f.sets(other)); n != 1 {
		t.Errorf("the other service has %d sets", n)
	}
	// Ids of other services' sets are not found through this one.
	otherSet := f.sets(other)[0]["id"].(string)
	third := f.Ready(nil)
	f.Send("DELETE", f.SetPath(third, otherSet), nil).MustError(t, 404, "NOT_FOUND", "replica set")
}
