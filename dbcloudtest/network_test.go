package dbcloudtest_test

import (
	"errors"
	"fmt"
	"sync"
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

// VPCs, peering connections and metric series under many goroutines, with
// the test answering peerings and recording samples meanwhile: every
// request succeeds and the state adds up (run with -race).
func TestConcurrentNetworkAndMetrics(t *testing.T) {
	srv := newServer(t)
	svc := createReady(t, srv.Client(), srv.ProjectID)
	do := func(method, path, body string, want int, out any) error {
		return request(t.Context(), srv, method, path, body, want, out)
	}
	vpcs := "/projects/" + srv.ProjectID + "/vpcs"
	peerings := make(chan string, 64)
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			var vpc struct{ ID string }
			if err := do("POST", vpcs, fmt.Sprintf(`{"name": "net-%d", "cidr": "10.%d.0.0/16", "region_code": "us-east-1"}`, w, w), 201, &vpc); err != nil {
				t.Error(err)
				return
			}
			for range 4 {
				var p struct{ ID string }
				if err := do("POST", vpcs+"/"+vpc.ID+"/peerings", `{"peer_account_id": "1", "peer_region_code": "r", "peer_vpc_id": "v"}`, 201, &p); err != nil {
					t.Error(err)
					return
				}
				peerings <- p.ID
			}
			q := fmt.Sprintf(`{"name": %q, "from": %q, "to": %q}`, cpuSeries, srv.Now().Add(-time.Hour).Format(time.RFC3339), srv.Now().Format(time.RFC3339))
			for range 4 {
				if err := do("POST", "/projects/"+srv.ProjectID+"/services/"+svc.ServiceID+"/metrics/series", q, 200, nil); err != nil {
					t.Error(err)
				}
			}
			if err := do("POST", vpcs+"/"+vpc.ID+"/rename", `{"name": "renamed"}`, 200, nil); err != nil {
				t.Error(err)
			}
		})
	}
	go func() { wg.Wait(); close(peerings) }()
	accepted := 0
	for id := range peerings {
		if err := srv.AcceptPeering(id); err != nil {
			t.Error(err)
		}
		if err := srv.RecordMetrics(svc.ServiceID, cpuSeries, dbcloudtest.MetricSample{Value: float64(accepted)}); err != nil {
			t.Error(err)
		}
		accepted++
	}
	var list []struct{ ID, Name string }
	send(t, srv, "GET", vpcs, "", 200, &list)
	if len(list) != 8 || accepted != 32 {
		t.Errorf("%d VPCs and %d peerings, want 8 and 32", len(list), accepted)
	}
	for _, v := range list {
		var ps []peering
		send(t, srv, "GET", vpcs+"/"+v.ID+"/peerings", "", 200, &ps)
		if v.Name != "renamed" || len(ps) != 4 || ps[0].Status != "active" {
			t.Errorf("VPC %s %q with peerings %+v", v.ID, v.Name, ps)
		}
	}
}
