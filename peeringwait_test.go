package dbcloud_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

var peeringPolls = dbcloud.WithPollInterval(time.Millisecond, 2*time.Millisecond)

// A peering waited from pending: accepted on the peer's side, it is
// returned active; failed there, it is returned with its error message and
// an error matching ErrPeeringFailed. The test moves the server's state
// from the wait's progress callback, between two polls.
func TestPeeringWaitForActive(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name    string
		status  dbcloud.PeeringStatus
		message string
		failed  string // what the error says; "" for success
	}{
		{"accepted", dbcloud.PeeringActive, "", ""},
		{"accepted, in upper case", "ACTIVE", "", ""},
		{"failed with a message", dbcloud.PeeringFailed, "CIDR 10.0.0.0/16 overlaps the peer's", "overlaps the peer's"},
		{"an error message whatever the status", dbcloud.PeeringPending, "the peer account does not exist", "does not exist"},
		{"rejected", "rejected", "", "status rejected"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newLiveServer(t)
			vpc := s.addVPC("private", "10.0.0.0/16", "us-east-1")
			id := s.addPeering(vpc, dbcloud.Peering{PeerAccountID: "1", PeerRegionCode: "us-east-1", PeerVPCID: "vpc-1"})
			var seen []dbcloud.WaitStatus
			progress := dbcloud.WithProgress(func(p dbcloud.WaitProgress) {
				seen = append(seen, p.Status)
				if p.Kind != dbcloud.KindPeering || p.ID != id || p.Name != "vpc-1" {
					t.Errorf("progress %+v, want the peering, named by its peer VPC", p)
				}
				if p.Status == dbcloud.PeeringPending && len(seen) == 1 {
					s.setPeering(vpc, id, tt.status, tt.message)
				}
			})
			got, err := s.client(t).Peerings.WaitForActive(t.Context(), "p1", vpc, id, peeringPolls, progress)
			if len(seen) != 2 || seen[0] != dbcloud.PeeringPending || seen[1] != tt.status {
				t.Errorf("statuses seen %v, want pending, then %s", seen, tt.status)
			}
			if got == nil || got.ID != id || got.Status != tt.status || got.ErrorMessage != tt.message {
				t.Fatalf("WaitForActive = %+v, %v; want the peering as the server holds it", got, err)
			}
			if tt.failed == "" {
				if err != nil {
					t.Fatalf("WaitForActive: %v", err)
				}
				return
			}
			var w *dbcloud.WaitError
			if !errors.As(err, &w) || !errors.Is(err, dbcloud.ErrPeeringFailed) || !errors.Is(err, dbcloud.ErrUnexpectedStatus) {
				t.Fatalf("err = %v, want a *WaitError matching ErrPeeringFailed", err)
			}
			if w.Resource != string(dbcloud.KindPeering) || w.ID != id || w.LastStatus != string(tt.status) || !strings.Contains(err.Error(), tt.failed) {
				t.Errorf("err = %v (%+v), want the peering, its status and %q", err, w, tt.failed)
			}
		})
	}
}

// A peering deleted while waited for ends the wait with ErrNotFound, and
// bad ids are refused before anything is sent.
func TestPeeringWaitEnds(t *testing.T) {
	t.Parallel()
	s := newLiveServer(t)
	vpc := s.addVPC("private", "10.0.0.0/16", "us-east-1")
	c := s.client(t)
	_, err := c.Peerings.WaitForActive(t.Context(), "p1", vpc, "pcx-gone", peeringPolls)
	var w *dbcloud.WaitError
	if !errors.As(err, &w) || !errors.Is(err, dbcloud.ErrNotFound) || errors.Is(err, dbcloud.ErrPeeringFailed) {
		t.Errorf("err = %v, want a *WaitError matching ErrNotFound", err)
	}
	before := s.count("GET", "/projects/p1/vpcs/"+vpc+"/peerings/pcx-gone")
	for _, ids := range [][3]string{{"", vpc, "x"}, {"p1", "vpc-1", "x"}, {"p1", vpc, ""}} {
		var v *dbcloud.ValidationError
		if _, err := c.Peerings.WaitForActive(t.Context(), ids[0], ids[1], ids[2], peeringPolls); !errors.As(err, &v) {
			t.Errorf("WaitForActive%q: %v, want a *ValidationError", ids, err)
		}
	}
	if got := s.count("GET", "/projects/p1/vpcs/"+vpc+"/peerings/pcx-gone"); got != before || before != 1 {
		t.Errorf("reads = %d then %d, want 1 and nothing more", before, got)
	}
}

// Two waits on the peerings of one VPC share the client's poller: once
// both have joined, each tick is one list of the VPC's peerings.
func TestPeeringWaitsShareAPoller(t *testing.T) {
	t.Parallel()
	s := newLiveServer(t)
	vpc := s.addVPC("private", "10.0.0.0/16", "us-east-1")
	ids := []string{
		s.addPeering(vpc, dbcloud.Peering{PeerAccountID: "1", PeerRegionCode: "us-east-1", PeerVPCID: "vpc-1"}),
		s.addPeering(vpc, dbcloud.Peering{PeerAccountID: "2", PeerRegionCode: "us-east-1", PeerVPCID: "vpc-2"}),
	}
	list := "/projects/p1/vpcs/" + vpc + "/peerings"
	// Both connections are accepted once the poller has read them together.
	accept := dbcloud.WithProgress(func(dbcloud.WaitProgress) {
		if s.count("GET", list) > 0 {
			for _, id := range ids {
				s.setPeering(vpc, id, dbcloud.PeeringActive, "")
			}
		}
	})
	c := s.client(t)
	errs := make(chan error, len(ids))
	for _, id := range ids {
		go func() {
			_, err := c.Peerings.WaitForActive(t.Context(), "p1", vpc, id, peeringPolls, accept, dbcloud.WithWaitTimeout(10*time.Second))
			errs <- err
		}()
	}
	for range ids {
		if err := <-errs; err != nil {
			t.Errorf("WaitForActive: %v", err)
		}
	}
	if s.count("GET", list) == 0 {
		t.Error("no list of the VPC's peerings: the waits did not share a poller")
	}
}

// The observer is told what each call on VPCs, peerings and identity is
// about: its kind, its path template and its ids, none in the template.
func TestObserverSeesVPCCalls(t *testing.T) {
	t.Parallel()
	s := newLiveServer(t)
	s.authInfo = scopedAuthInfo
	vpc := s.addVPC("private", "10.0.0.0/16", "us-east-1")
	id := s.addPeering(vpc, dbcloud.Peering{PeerAccountID: "1", PeerRegionCode: "us-east-1", PeerVPCID: "vpc-1"})
	rec := &callRecorder{}
	c := s.client(t, dbcloud.WithObserver(rec))
	if _, err := c.Peerings.Get(t.Context(), "p1", vpc, id); err != nil {
		t.Fatal(err)
	}
	if err := c.VPCs.Rename(t.Context(), "p1", vpc, "renamed"); err != nil {
		t.Fatal(err)
	}
	if vpcs, _ := s.state(vpc); vpcs[0].Name != "renamed" {
		t.Errorf("VPC %+v, want it renamed", vpcs[0])
	}
	if _, err := c.AuthInfo(t.Context()); err != nil {
		t.Fatal(err)
	}
	want := []dbcloud.CallInfo{
		{Operation: "Peerings.Get", Method: "GET", Path: "/projects/{project_id}/vpcs/{vpc_id}/peerings/{peering_id}",
			Kind: dbcloud.KindPeering, ProjectID: "p1", VPCID: vpc, PeeringID: id},
		{Operation: "VPCs.Rename", Method: "POST", Path: "/projects/{project_id}/vpcs/{vpc_id}/rename",
			Kind: dbcloud.KindVPC, ProjectID: "p1", VPCID: vpc},
		{Operation: "Client.AuthInfo", Method: "GET", Path: "/auth/info", Kind: dbcloud.KindProject},
	}
	if diff := cmp.Diff(want, rec.calls); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

// A wait given the peering its create returned polls through the API not
// showing it yet (a 404); without WithCreated the 404 ends the wait.
func TestPeeringWaitWithCreated(t *testing.T) {
	t.Parallel()
	url := mockBase + "/projects/p1/vpcs/42/peerings/pcx-1"
	active := `{"id":"pcx-1","peer_account_id":"1","peer_region_code":"us-east-1","peer_vpc_id":"vpc-1","status":"active"}`
	created := &dbcloud.Peering{ID: "pcx-1", Status: dbcloud.PeeringPending}
	for _, tt := range []struct {
		name string
		opts []dbcloud.WaitOption
		ok   bool
	}{
		{"with WithCreated", []dbcloud.WaitOption{dbcloud.WithCreated(created)}, true},
		{"without", nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, mt := mockClient(t)
			mt.RegisterResponder("GET", url, statusResponder(404).Then(httpmock.NewStringResponder(200, active)))
			got, err := c.Peerings.WaitForActive(t.Context(), "p1", "42", "pcx-1", append(tt.opts, peeringPolls)...)
			if tt.ok && (err != nil || got.Status != dbcloud.PeeringActive) {
				t.Errorf("WaitForActive = %+v, %v; want it active after the 404", got, err)
			}
			if !tt.ok && !errors.Is(err, dbcloud.ErrNotFound) {
				t.Errorf("WaitForActive: %v, want ErrNotFound", err)
			}
		})
	}
	c, _ := mockClient(t)
	if _, err := c.Peerings.WaitForActive(t.Context(), "p1", "42", "pcx-2", dbcloud.WithCreated(created)); err == nil {
		t.Error("WithCreated of another peering was accepted")
	}
}

// A server that echoes the key in a peering's error message does not put
// it in the wait's error.
func TestPeeringWaitKeepsTheKeyOut(t *testing.T) {
	t.Parallel()
	s := newLiveServer(t)
	vpc := s.addVPC("private", "10.0.0.0/16", "us-east-1")
	id := s.addPeering(vpc, dbcloud.Peering{PeerAccountID: "1", PeerRegionCode: "us-east-1", PeerVPCID: "vpc-1"})
	s.setPeering(vpc, id, dbcloud.PeeringFailed, "refused for vpc-test-key")
	got, err := s.client(t).Peerings.WaitForActive(t.Context(), "p1", vpc, id, peeringPolls)
	if !errors.Is(err, dbcloud.ErrPeeringFailed) || strings.Contains(err.Error(), "vpc-test-key") || !strings.Contains(err.Error(), "[redacted]") {
		t.Errorf("err = %v, want the failure with the key redacted", err)
	}
	if got == nil || got.ErrorMessage != "refused for vpc-test-key" {
		t.Errorf("peering %+v, want it as the server sent it", got)
	}
}
