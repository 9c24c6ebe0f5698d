package httpapi

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

var digitsOnly = regexp.MustCompile(`^[0-9]+$`)

// A VPC is created 201 with a digit-string id, listed, read, renamed with a
// message, and deleted 204 with its peering connections, after which it is
// 404 for every route under it.
func TestVPCLifecycle(t *testing.T) {
	f := newFake(t, Config{})
	if got := f.Send("GET", f.VPCsPath(), nil).Must(t, 200).List(t); len(got) != 0 {
		t.Fatalf("a new project has VPCs: %v", got)
	}
	want := map[string]any{"name": "prod", "cidr": "10.2.0.0/16", "region_code": "eu-west-1"}
	r := f.Send("POST", f.VPCsPath(), want).Must(t, 201)
	if ct := r.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q", ct)
	}
	v := r.Obj(t)
	id, _ := v["id"].(string)
	if !digitsOnly.MatchString(id) {
		t.Fatalf("id %q is not digits", v["id"])
	}
	want["id"] = id
	if !jsonEqual(v, want) {
		t.Errorf("create answered %v, want %v", v, want)
	}
	other := f.VPC()
	if other == id {
		t.Fatal("two VPCs share an id")
	}
	path := f.VPCsPath() + "/" + id
	if got := f.Send("GET", path, nil).Must(t, 200).Obj(t); !jsonEqual(got, want) {
		t.Errorf("get %v, want %v", got, want)
	}
	list := f.Send("GET", f.VPCsPath(), nil).Must(t, 200).List(t)
	if len(list) != 2 || !jsonEqual(list[0], want) || list[1].(map[string]any)["id"] != other {
		t.Errorf("list %v, want the two VPCs oldest first", list)
	}

	msg := f.Send("POST", path+"/rename", map[string]any{"name": "prod-2"}).Must(t, 200).Obj(t)
	if s, _ := msg["message"].(string); s == "" || len(msg) != 1 {
		t.Errorf("rename answered %v, want a message", msg)
	}
	want["name"] = "prod-2"
	if got := f.Send("GET", path, nil).Must(t, 200).Obj(t); !jsonEqual(got, want) {
		t.Errorf("after rename %v, want %v", got, want)
	}

	peering := f.Send("POST", path+"/peerings", peerBody()).Must(t, 201).Obj(t)["id"].(string)
	r = f.Send("DELETE", path, nil).Must(t, 204)
	if len(r.Raw) != 0 {
		t.Errorf("delete answered a body %q", r.Raw)
	}
	for _, p := range []struct{ method, path string }{
		{"GET", path}, {"DELETE", path}, {"POST", path + "/rename"},
		{"GET", path + "/peerings"}, {"POST", path + "/peerings"},
		{"GET", path + "/peerings/" + peering}, {"DELETE", path + "/peerings/" + peering},
	} {
		var body any
		if p.method == "POST" {
			body = map[string]any{"name": "x"}
		}
		f.Send(p.method, p.path, body).MustError(t, 404, "NOT_FOUND", "vpc not found")
	}
	if list := f.Send("GET", f.VPCsPath(), nil).Must(t, 200).List(t); len(list) != 1 {
		t.Errorf("list after delete: %v", list)
	}
}

// VPCs belong to their project: another project's VPC is unknown there,
// to reads and to attachToVPC alike.
func TestVPCsOfAProject(t *testing.T) {
	f := newFake(t, Config{Projects: []string{"p1", "p2"}})
	vpc := f.VPC() // in p1
	f.Send("GET", "/projects/p2/vpcs/"+vpc, nil).MustError(t, 404, "NOT_FOUND", "vpc not found")
	if got := f.Send("GET", "/projects/p2/vpcs", nil).Must(t, 200).List(t); len(got) != 0 {
		t.Errorf("p2 lists %v", got)
	}
	svc := f.Send("POST", "/projects/p2/services", map[string]any{"name": "db"}).Must(t, 202).Obj(t)["service_id"].(string)
	f.Send("POST", "/projects/p2/services/"+svc+"/attachToVPC", map[string]any{"vpc_id": vpc}).MustError(t, 404, "NOT_FOUND", "vpc not found")
	f.Send("GET", "/projects/p3/vpcs", nil).MustError(t, 404, "NOT_FOUND", "project not found")
}

// attachToVPC and detachFromVPC answer an unknown vpc_id as an unknown id
// in a path is answered, 404, after the body's 400s and before a 409; the
// service is left as it was.
func TestAttachUnknownVPC(t *testing.T) {
	f := newFake(t, Config{})
	id := f.Ready(nil)
	before := f.Get(id)
	for _, op := range []string{"attachToVPC", "detachFromVPC"} {
		f.Send("POST", f.SvcPath(id)+"/"+op, map[string]any{"vpc_id": "999"}).MustError(t, 404, "NOT_FOUND", "vpc not found")
		f.Send("POST", f.SvcPath(id)+"/"+op, map[string]any{"vpc_id": "vpc-1"}).MustError(t, 400, "INVALID_REQUEST", "vpc_id:")
	}
	if err := f.model.SetStatus(id, "DELETED"); err != nil {
		t.Fatal(err)
	}
	f.Send("POST", f.SvcPath(id)+"/attachToVPC", map[string]any{"vpc_id": "999"}).MustError(t, 404, "NOT_FOUND", "vpc not found")
	before["status"] = "DELETED"
	delete(before, "metrics") // only while READY
	if after := f.Get(id); !jsonEqual(before, after) {
		t.Errorf("refused attaches changed the service:\n%v\n%v", before, after)
	}
}

// A VPC with a live service attached cannot be deleted (409); once the
// service is detached, or is being deleted, it can, and a deleting
// service loses its attachment with it.
func TestDeleteVPCWithServices(t *testing.T) {
	f := newFake(t, Config{Model: model.Config{Step: tstep}})
	id := f.Ready(nil)
	vpc := f.VPC()
	path := f.VPCsPath() + "/" + vpc
	f.Send("POST", f.SvcPath(id)+"/attachToVPC", map[string]any{"vpc_id": vpc}).Must(t, 202)
	f.Send("DELETE", path, nil).MustError(t, 409, "CONFLICT", "services attached")
	f.Send("GET", path, nil).Must(t, 200)

	f.Send("POST", f.SvcPath(id)+"/detachFromVPC", map[string]any{"vpc_id": vpc}).Must(t, 202)
	f.Send("DELETE", path, nil).Must(t, 204)

	vpc = f.VPC()
	f.Send("POST", f.SvcPath(id)+"/attachToVPC", map[string]any{"vpc_id": vpc}).Must(t, 202)
	f.Send("DELETE", f.SvcPath(id), nil).Must(t, 202) // DELETING for a step
	f.Send("DELETE", f.VPCsPath()+"/"+vpc, nil).Must(t, 204)
	if _, ok := f.Get(id)["vpc_endpoint"]; ok {
		t.Error("a deleting service still names the deleted VPC")
	}
}

// renameService answers the service, renamed; its checks are a name's.
func TestRenameService(t *testing.T) {
	f := newFake(t, Config{})
	id := f.Ready(nil)
	got := f.Send("POST", f.SvcPath(id)+"/rename", map[string]any{"name": "orders-2"}).Must(t, 200).Obj(t)
	if got["name"] != "orders-2" || got["service_id"] != id || got["status"] != "READY" {
		t.Errorf("rename answered %v", got)
	}
	if _, ok := got["initial_password"]; ok {
		t.Error("rename answered the initial password")
	}
	if !jsonEqual(got, f.Get(id)) {
		t.Errorf("rename answered %v, a GET %v", got, f.Get(id))
	}
	f.Send("POST", f.SvcPath("nope")+"/rename", map[string]any{"name": "x"}).MustError(t, 404, "NOT_FOUND", "service not found")
}

func peerBody() map[string]any {
	return map[string]any{"peer_account_id": "123456789012", "peer_region_code": "us-west-2", "peer_vpc_id": "vpc-0abc"}
}

// A peering connection is created 201 pending, with a provider id, listed
// and read under its VPC, answered by the peer's side (active, or failed
// with a message), and deleted 204 whatever its status.
func TestPeeringLifecycle(t *testing.T) {
	f := newFake(t, Config{})
	vpc := f.VPCsPath() + "/" + f.VPC()
	p := f.Send("POST", vpc+"/peerings", peerBody()).Must(t, 201).Obj(t)
	id, _ := p["id"].(string)
	if !digitsOnly.MatchString(id) {
		t.Errorf("id %q", p["id"])
	}
	if pid, _ := p["provisioned_id"].(string); !strings.HasPrefix(pid, "pcx-") {
		t.Errorf("provisioned_id %q", p["provisioned_id"])
	}
	want := peerBody()
	want["id"], want["status"], want["provisioned_id"] = id, "pending", p["provisioned_id"]
	if !jsonEqual(p, want) {
		t.Errorf("create answered %v, want %v", p, want)
	}
	path := vpc + "/peerings/" + id
	if got := f.Send("GET", path, nil).Must(t, 200).Obj(t); !jsonEqual(got, want) {
		t.Errorf("get %v", got)
	}
	second := f.Send("POST", vpc+"/peerings", peerBody()).Must(t, 201).Obj(t)["id"].(string)
	if list := f.Send("GET", vpc+"/peerings", nil).Must(t, 200).List(t); len(list) != 2 || !jsonEqual(list[0], want) {
		t.Errorf("list %v", list)
	}

	if err := f.model.AnswerPeering(id, ""); err != nil {
		t.Fatal(err)
	}
	want["status"] = "active"
	if got := f.Send("GET", path, nil).Must(t, 200).Obj(t); !jsonEqual(got, want) {
		t.Errorf("accepted: %v", got)
	}
	if err := f.model.AnswerPeering(id, "too late"); err == nil {
		t.Error("an active connection was answered again")
	}
	if err := f.model.AnswerPeering(second, "peer VPC CIDR overlaps"); err != nil {
		t.Fatal(err)
	}
	failed := f.Send("GET", vpc+"/peerings/"+second, nil).Must(t, 200).Obj(t)
	if failed["status"] != "failed" || failed["error_message"] != "peer VPC CIDR overlaps" {
		t.Errorf("failed: %v", failed)
	}
	if err := f.model.AnswerPeering("404", ""); err == nil {
		t.Error("an unknown connection was answered")
	}

	f.Send("DELETE", path, nil).Must(t, 204)
	f.Send("GET", path, nil).MustError(t, 404, "NOT_FOUND", "peering not found")
	f.Send("DELETE", path, nil).MustError(t, 404, "NOT_FOUND", "peering not found")
	f.Send("DELETE", vpc+"/peerings/"+second, nil).Must(t, 204)
	if list := f.Send("GET", vpc+"/peerings", nil).Must(t, 200).List(t); len(list) != 0 {
		t.Errorf("list after deletes %v", list)
	}
}

// Each rule of the VPC, rename and peering bodies: a 400 whose message
// starts with the field, and nothing made or changed.
func TestVPCValidation(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(nil)
	vpc := f.VPCsPath() + "/" + f.VPC()
	long := strings.Repeat("x", 129)
	for _, tc := range []struct{ path, body, field string }{
		{f.VPCsPath(), `{"cidr": "10.0.0.0/16", "region_code": "r"}`, "name"},
		{f.VPCsPath(), `{"name": "", "cidr": "10.0.0.0/16", "region_code": "r"}`, "name"},
		{f.VPCsPath(), `{"name": "n", "region_code": "r"}`, "cidr"},
		{f.VPCsPath(), `{"name": "n", "cidr": 10, "region_code": "r"}`, "cidr"},
		{f.VPCsPath(), `{"name": "n", "cidr": "10.0.0.0", "region_code": "r"}`, "cidr"},
		{f.VPCsPath(), `{"name": "n", "cidr": "10.0.0.1/16", "region_code": "r"}`, "cidr"},
		{f.VPCsPath(), `{"name": "n", "cidr": "fd00::/64", "region_code": "r"}`, "cidr"},
		{f.VPCsPath(), `{"name": "n", "cidr": "10.0.0.0/33", "region_code": "r"}`, "cidr"},
		{f.VPCsPath(), `{"name": "n", "cidr": "10.0.0.0/16"}`, "region_code"},
		{f.VPCsPath(), `{"name": "n", "cidr": "10.0.0.0/16", "region_code": ""}`, "region_code"},
		{f.VPCsPath(), `[]`, "body"},
		{vpc + "/rename", `{}`, "name"},
		{vpc + "/rename", `{"name": ""}`, "name"},
		{vpc + "/rename", `{"name": 1}`, "name"},
		{f.SvcPath(svc) + "/rename", `{}`, "name"},
		{f.SvcPath(svc) + "/rename", `{"name": "` + long + `"}`, "name"},
		{vpc + "/peerings", `{"peer_region_code": "r", "peer_vpc_id": "v"}`, "peer_account_id"},
		{vpc + "/peerings", `{"peer_account_id": "", "peer_region_code": "r", "peer_vpc_id": "v"}`, "peer_account_id"},
		{vpc + "/peerings", `{"peer_account_id": "a", "peer_vpc_id": "v"}`, "peer_region_code"},
		{vpc + "/peerings", `{"peer_account_id": "a", "peer_region_code": "r", "peer_vpc_id": 5}`, "peer_vpc_id"},
	} {
		f.Send("POST", tc.path, tc.body).MustError(t, 400, "INVALID_REQUEST", tc.field+": ")
	}
	if n := len(f.Send("GET", f.VPCsPath(), nil).List(t)); n != 1 {
		t.Errorf("%d VPCs after refused creates, want 1", n)
	}
	if n := len(f.Send("GET", vpc+"/peerings", nil).List(t)); n != 0 {
		t.Errorf("%d peerings after refused creates", n)
	}
	if got := f.Send("GET", vpc, nil).Obj(t)["name"]; got != "net" {
		t.Errorf("refused renames renamed the VPC %v", got)
	}
	if got := f.Get(svc)["name"]; got != "db" {
		t.Errorf("refused renames renamed the service %v", got)
	}
}

// With PeerAccept, the peer's side accepts a connection by itself that
// long after its create: the create answers pending, and a read once the
// clock has moved on shows active; a connection answered sooner keeps its
// answer.
func TestPeeringAcceptedOnSchedule(t *testing.T) {
	for _, after := range []time.Duration{0, tstep} {
		f := newFake(t, Config{Model: model.Config{PeerAccept: &after}})
		vpc := f.VPCsPath() + "/" + f.VPC()
		status := func(id string) any { return f.Send("GET", vpc+"/peerings/"+id, nil).Must(t, 200).Obj(t)["status"] }
		p := f.Send("POST", vpc+"/peerings", peerBody()).Must(t, 201).Obj(t)
		failed := f.Send("POST", vpc+"/peerings", peerBody()).Must(t, 201).Obj(t)["id"].(string)
		if p["status"] != "pending" {
			t.Errorf("after %s: create answered %v", after, p["status"])
		}
		id := p["id"].(string)
		if after > 0 {
			if got := status(id); got != "pending" {
				t.Errorf("after %s: %v before the clock moved", after, got)
			}
			if err := f.model.AnswerPeering(failed, "rejected"); err != nil {
				t.Fatal(err)
			}
			f.Clock.Advance(after)
		}
		if got := status(id); got != "active" {
			t.Errorf("after %s: %v once accepted", after, got)
		}
		if after > 0 {
			if got := status(failed); got != "failed" {
				t.Errorf("a connection failed before its acceptance is %v", got)
			}
		}
		if err := f.model.AnswerPeering(id, ""); err == nil {
			t.Errorf("after %s: an accepted connection was answered again", after)
		}
	}
}

// The further routes answer 405, with Allow, for a method they do not take.
func TestFurtherRoutesMethods(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(nil)
	v := f.VPCsPath() + "/" + f.VPC()
	for _, tc := range []struct{ method, path, allow string }{
		{"POST", "/auth/info", "GET"},
		{"DELETE", "/projects", "GET"},
		{"GET", f.SvcPath(svc) + "/rename", "POST"},
		{"PUT", f.VPCsPath(), "GET, POST"},
		{"PATCH", v, "DELETE, GET"},
		{"GET", v + "/rename", "POST"},
		{"DELETE", v + "/peerings", "GET, POST"},
		{"POST", v + "/peerings/1", "DELETE, GET"},
		{"POST", f.SvcPath(svc) + "/metrics/available-series", "GET"},
		{"GET", f.SvcPath(svc) + "/metrics/series", "POST"},
	} {
		r := f.Send(tc.method, tc.path, nil)
		r.MustError(t, 405, "METHOD_NOT_ALLOWED", tc.method)
		if got := r.Header.Get("Allow"); got != tc.allow {
			t.Errorf("%s %s: Allow %q, want %q", tc.method, tc.path, got, tc.allow)
		}
	}
}
