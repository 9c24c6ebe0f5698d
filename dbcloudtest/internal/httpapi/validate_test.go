package httpapi

import (
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apitest"
)

// TestValidation checks each input rule: a 400 INVALID_REQUEST whose message
// starts with the field, and no change of state.
func TestValidation(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(map[string]any{"name": "main"})
	rs := f.Send("POST", f.SvcPath(svc)+"/replicaSets", map[string]any{"name": "r", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}).Must(t, 202).Obj(t)["id"].(string)
	f.Clock.Advance(time.Minute)
	before := f.Get(svc)
	future := f.Clock.Now().Add(time.Hour).Format(time.RFC3339)
	early := apitest.Epoch.Add(-time.Hour).Format(time.RFC3339)
	long := strings.Repeat("x", 129)

	create := f.ServicesPath()
	resize := f.SvcPath(svc) + "/resize"
	fork := f.SvcPath(svc) + "/forkService"
	setHA := f.SvcPath(svc) + "/setHA"
	rsCreate := f.SvcPath(svc) + "/replicaSets"
	for _, tc := range []struct {
		path, body, field string
	}{
		{create, `{}`, "name"},
		{create, `{"name": ""}`, "name"},
		{create, `{"name": "` + long + `"}`, "name"},
		{create, `{"name": 5}`, "name"},
		{create, `{"name": "a", "addons": "ai"}`, "addons"},
		{create, `{"name": "a", "addons": ["sql"]}`, "addons"},
		{create, `{"name": "a", "addons": [1]}`, "addons"},
		{create, `{"name": "a", "cpu_millis": 500}`, "cpu_millis"},
		{create, `{"name": "a", "cpu_millis": "abc"}`, "cpu_millis"},
		{create, `{"name": "a", "cpu_millis": "-5"}`, "cpu_millis"},
		{create, `{"name": "a", "cpu_millis": "0"}`, "cpu_millis"},
		{create, `{"name": "a", "cpu_millis": "1.5"}`, "cpu_millis"},
		{create, `{"name": "a", "cpu_millis": "99999999999"}`, "cpu_millis"},
		{create, `{"name": "a", "memory_gbs": 2}`, "memory_gbs"},
		{create, `{"name": "a", "cpu_millis": "shared"}`, "memory_gbs"},
		{create, `{"name": "a", "cpu_millis": "shared", "memory_gbs": "4"}`, "memory_gbs"},
		{create, `{"name": "a", "cpu_millis": "500", "memory_gbs": "shared"}`, "cpu_millis"},
		{create, `{"name": "a", "environment_tag": "STAGING"}`, "environment_tag"},
		{create, `{"name": "a", "environment_tag": "dev"}`, "environment_tag"},
		{create, `{"name": "a", "region_code": ""}`, "region_code"},
		{create, `{"name": "a", "region_code": 5}`, "region_code"},
		{create, `{"name": "a", "replica_count": -1}`, "replica_count"},
		{create, `{"name": "a", "replica_count": "2"}`, "replica_count"},
		{create, `{"name": "a", "replica_count": 1.5}`, "replica_count"},
		{create, `{"name": "a", "replica_count": 1e20}`, "replica_count"},
		{create, `{"name": "a", "replica_count": true}`, "replica_count"},
		{create, `{"name":`, "body"},
		{create, `{"name": "a"} x`, "body"},
		{create, `[]`, "body"},
		{create, `null`, "body"},
		{create, ``, "body"},
		{create, `"name"`, "body"},
		{create, `{"name": "a", "pad": "` + strings.Repeat("x", MaxBodyBytes) + `"}`, "body"},

		{resize, `{"memory_gbs": "4"}`, "cpu_millis"},
		{resize, `{"cpu_millis": "1000"}`, "memory_gbs"},
		{resize, `{"cpu_millis": "shared", "memory_gbs": "shared"}`, "cpu_millis"},
		{resize, `{"cpu_millis": 1000, "memory_gbs": "4"}`, "cpu_millis"},
		{resize, `{"cpu_millis": "1000", "memory_gbs": "4GB"}`, "memory_gbs"},
		{resize, `{"cpu_millis": "", "memory_gbs": "4"}`, "cpu_millis"},
		{resize, `{"cpu_millis": " 1000", "memory_gbs": "4"}`, "cpu_millis"},

		{fork, `{}`, "fork_strategy"},
		{fork, `{"fork_strategy": "LATEST"}`, "fork_strategy"},
		{fork, `{"fork_strategy": 1}`, "fork_strategy"},
		{fork, `{"fork_strategy": "PITR"}`, "target_time"},
		{fork, `{"fork_strategy": "PITR", "target_time": "yesterday"}`, "target_time"},
		{fork, `{"fork_strategy": "PITR", "target_time": "` + future + `"}`, "target_time"},
		{fork, `{"fork_strategy": "PITR", "target_time": "` + early + `"}`, "target_time"},
		{fork, `{"fork_strategy": "NOW", "name": ""}`, "name"},
		{fork, `{"fork_strategy": "NOW", "name": "` + long + `"}`, "name"},
		{fork, `{"fork_strategy": "NOW", "cpu_millis": "x"}`, "cpu_millis"},
		{fork, `{"fork_strategy": "NOW", "memory_gbs": 4}`, "memory_gbs"},
		{fork, `{"fork_strategy": "NOW", "memory_gbs": "shared"}`, "cpu_millis"},
		{fork, `{"fork_strategy": "NOW", "environment_tag": "QA"}`, "environment_tag"},

		{setHA, `{}`, "replica_count"},
		{setHA, `{"replica_count": -1}`, "replica_count"},
		{setHA, `{"sync_replica_count": -1}`, "sync_replica_count"},
		{setHA, `{"replica_count": 2, "sync_replica_count": 3}`, "sync_replica_count"},
		{setHA, `{"sync_replica_count": 1}`, "sync_replica_count"},
		{setHA, `{"replica_count": "1"}`, "replica_count"},

		{f.SvcPath(svc) + "/attachToVPC", `{}`, "vpc_id"},
		{f.SvcPath(svc) + "/attachToVPC", `{"vpc_id": 123}`, "vpc_id"},
		{f.SvcPath(svc) + "/attachToVPC", `{"vpc_id": "vpc-1"}`, "vpc_id"},
		{f.SvcPath(svc) + "/attachToVPC", `{"vpc_id": ""}`, "vpc_id"},
		{f.SvcPath(svc) + "/detachFromVPC", `{"vpc_id": "12a"}`, "vpc_id"},
		{f.SvcPath(svc) + "/updatePassword", `{}`, "password"},
		{f.SvcPath(svc) + "/updatePassword", `{"password": ""}`, "password"},
		{f.SvcPath(svc) + "/updatePassword", `{"password": 123}`, "password"},
		{f.SvcPath(svc) + "/setEnvironment", `{}`, "environment"},
		{f.SvcPath(svc) + "/setEnvironment", `{"environment": "prod"}`, "environment"},
		{f.SvcPath(svc) + "/setEnvironment", `{"environment": 1}`, "environment"},

		{rsCreate, `{"nodes": 1, "cpu_millis": 500, "memory_gbs": 2}`, "name"},
		{rsCreate, `{"name": "` + long + `", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2}`, "name"},
		{rsCreate, `{"name": "r", "cpu_millis": 500, "memory_gbs": 2}`, "nodes"},
		{rsCreate, `{"name": "r", "nodes": 0, "cpu_millis": 500, "memory_gbs": 2}`, "nodes"},
		{rsCreate, `{"name": "r", "nodes": "1", "cpu_millis": 500, "memory_gbs": 2}`, "nodes"},
		{rsCreate, `{"name": "r", "nodes": 1, "cpu_millis": "500", "memory_gbs": 2}`, "cpu_millis"},
		{rsCreate, `{"name": "r", "nodes": 1, "cpu_millis": 0, "memory_gbs": 2}`, "cpu_millis"},
		{rsCreate, `{"name": "r", "nodes": 1, "cpu_millis": 500, "memory_gbs": 2.5}`, "memory_gbs"},
		{rsCreate, `{"name": "r", "nodes": 1, "cpu_millis": 500, "memory_gbs": -2}`, "memory_gbs"},
		{rsCreate, `{"name": "r", "nodes": 1, "cpu_millis": 500}`, "memory_gbs"},
		{f.SetPath(svc, rs) + "/resize", `{"cpu_millis": "shared", "memory_gbs": "4"}`, "cpu_millis"},
		{f.SetPath(svc, rs) + "/resize", `{"cpu_millis": "1000", "memory_gbs": 4}`, "memory_gbs"},
		{f.SetPath(svc, rs) + "/setEnvironment", `{"environment": "TEST"}`, "environment"},
		{f.SetPath(svc, "rs") + "/resize", `{"cpu_millis": "1000", "memory_gbs": "4"}`, "replica_set_id"},
		{f.SetPath(svc, "ab") + "/enablePooler", ``, "replica_set_id"},
	} {
		t.Run(tc.field+" "+strings.TrimPrefix(tc.path, f.SvcPath(svc))+" "+truncate(tc.body), func(t *testing.T) {
			f.Send("POST", tc.path, tc.body).MustError(t, 400, "INVALID_REQUEST", tc.field+": ")
		})
	}
	f.Send("DELETE", f.SetPath(svc, "r"), nil).MustError(t, 400, "INVALID_REQUEST", "replica_set_id: ")

	// Bodies must be labelled JSON.
	for _, ct := range []string{"", "text/plain", "application/x-www-form-urlencoded", "application/jsonx"} {
		f.Send("POST", create, `{"name": "a"}`, "Content-Type", ct).MustError(t, 400, "INVALID_REQUEST", "Content-Type: ")
	}
	f.Send("POST", create, `{"name": "ok"}`, "Content-Type", "application/json; charset=utf-8").Must(t, 202)

	if n := len(f.Send("GET", create, nil).List(t)); n != 2 {
		t.Errorf("%d services after the refused requests, want 2", n)
	}
	if after := f.Get(svc); !jsonEqual(before, after) {
		t.Errorf("refused requests changed the service:\n%v\n%v", before, after)
	}
}

func TestValidationAccepts(t *testing.T) {
	f := newFake(t, Config{})
	create := f.ServicesPath()
	for _, body := range []string{
		`{"name": "` + strings.Repeat("é", 128) + `"}`,
		`{"name": "a", "cpu_millis": "0500", "memory_gbs": "04"}`,
		`{"name": "a", "replica_count": 0, "unknown_field": {"x": 1}}`,
		`{"name": "a", "addons": null, "environment_tag": null}`,
	} {
		f.Send("POST", create, body).Must(t, 202)
	}
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40]
	}
	return s
}
