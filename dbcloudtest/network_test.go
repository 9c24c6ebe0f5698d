package dbcloudtest_test

import (
	"errors"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// peering is the part of a peering connection these tests read.
type peering struct {
	ID, Status   string
	ErrorMessage string `json:"error_message"`
}

func createPeering(t *testing.T, srv *dbcloudtest.Server, vpc string) peering {
	t.Helper()
	var p peering
	send(t, srv, "POST", "/projects/"+srv.ProjectID+"/vpcs/"+vpc+"/peerings",
		`{"peer_account_id": "123456789012", "peer_region_code": "us-west-2", "peer_vpc_id": "vpc-0abc"}`, 201, &p)
	return p
}

func getPeering(t *testing.T, srv *dbcloudtest.Server, vpc, id string) peering {
	t.Helper()
	var p peering
	send(t, srv, "GET", "/projects/"+srv.ProjectID+"/vpcs/"+vpc+"/peerings/"+id, "", 200, &p)
	return p
}

// AcceptPeering and FailPeering answer a pending connection for the
// peer's side, from the next read on, and refuse anything else.
func TestAnswerPeering(t *testing.T) {
	srv := newServer(t)
	vpc := createVPC(t, srv, srv.ProjectID)
	ok, bad := createPeering(t, srv, vpc), createPeering(t, srv, vpc)
	if ok.Status != "pending" || getPeering(t, srv, vpc, ok.ID).Status != "pending" {
		t.Fatalf("a new connection is %q", ok.Status)
	}
	srv.Advance(24 * time.Hour) // nothing on this side moves it
	if got := getPeering(t, srv, vpc, ok.ID); got.Status != "pending" {
		t.Fatalf("a day later: %+v", got)
	}
	if err := srv.AcceptPeering(ok.ID); err != nil {
		t.Fatal(err)
	}
	if err := srv.FailPeering(bad.ID, "the peer rejected the request"); err != nil {
		t.Fatal(err)
	}
	if got := getPeering(t, srv, vpc, ok.ID); got != (peering{ID: ok.ID, Status: "active"}) {
		t.Errorf("accepted: %+v", got)
	}
	if got := getPeering(t, srv, vpc, bad.ID); got != (peering{ID: bad.ID, Status: "failed", ErrorMessage: "the peer rejected the request"}) {
		t.Errorf("failed: %+v", got)
	}
	checkUserError(t, "accepting an active connection", srv.AcceptPeering(ok.ID))
	checkUserError(t, "failing a failed connection", srv.FailPeering(bad.ID, "again"))
	checkUserError(t, "an unknown connection", srv.AcceptPeering("1"))
	checkUserError(t, "an empty message", srv.FailPeering(createPeering(t, srv, vpc).ID, ""))
}

// WithPeerAcceptance accepts every connection that long after its create,
// on the server's clock.
func TestWithPeerAcceptance(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithPeerAcceptance(time.Minute))
	vpc := createVPC(t, srv, srv.ProjectID)
	p := createPeering(t, srv, vpc)
	srv.Advance(59 * time.Second)
	if got := getPeering(t, srv, vpc, p.ID).Status; got != "pending" {
		t.Errorf("before the minute: %s", got)
	}
	srv.Advance(time.Second)
	if got := getPeering(t, srv, vpc, p.ID).Status; got != "active" {
		t.Errorf("after the minute: %s", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("a negative acceptance delay did not panic")
		}
	}()
	dbcloudtest.WithPeerAcceptance(-time.Second)
}

// A personal access token reaches its project only, as the live service's
// do; the API key reaches every project.
func TestPersonalAccessTokenProject(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithProjects("p1", "p2"), dbcloudtest.WithPersonalAccessToken("pub", "sec"))
	c := srv.Client()
	if _, err := c.Services.List(t.Context(), "p1"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Services.List(t.Context(), "p2"); !errors.Is(err, dbcloud.ErrNotFound) {
		t.Errorf("another project: %v, want 404", err)
	}
	srv = newServer(t, dbcloudtest.WithProjects("p1", "p2"))
	if _, err := srv.Client().Services.List(t.Context(), "p2"); err != nil {
		t.Errorf("the API key in the second project: %v", err)
	}
}
