package dbcloud_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

// Bad input to the calls on VPCs, peerings and renames is a
// *ValidationError naming the field, with nothing sent.
func TestLiveValidation(t *testing.T) {
	t.Parallel()
	s := newLiveServer(t)
	c := s.client(t)
	vpc := func(name, cidr, region string) error {
		_, err := c.VPCs.Create(t.Context(), "p1", &dbcloud.CreateVPCRequest{Name: name, CIDR: cidr, RegionCode: region})
		return err
	}
	peer := func(account, region, id string) error {
		_, err := c.Peerings.Create(t.Context(), "p1", "42", &dbcloud.CreatePeeringRequest{PeerAccountID: account, PeerRegionCode: region, PeerVPCID: id})
		return err
	}
	for _, tt := range []struct {
		field string
		err   error
	}{
		{"req", func() error { _, err := c.VPCs.Create(t.Context(), "p1", nil); return err }()},
		{"Name", vpc("", "10.0.0.0/16", "us-east-1")},
		{"Name", vpc("\xff", "10.0.0.0/16", "us-east-1")},
		{"CIDR", vpc("v", "", "us-east-1")},
		{"CIDR", vpc("v", "10.0.0.0", "us-east-1")},
		{"CIDR", vpc("v", "fd00::/64", "us-east-1")},
		{"CIDR", vpc("v", "10.0.0.1/16", "us-east-1")},
		{"RegionCode", vpc("v", "10.0.0.0/16", "")},
		{"projectID", func() error { _, err := c.VPCs.List(t.Context(), ""); return err }()},
		{"vpcID", func() error { _, err := c.VPCs.Get(t.Context(), "p1", "vpc-1"); return err }()},
		{"vpcID", c.VPCs.Delete(t.Context(), "p1", "")},
		{"vpcID", c.VPCs.Rename(t.Context(), "p1", "4 2", "v")},
		{"name", c.VPCs.Rename(t.Context(), "p1", "42", "")},
		{"req", func() error { _, err := c.Peerings.Create(t.Context(), "p1", "42", nil); return err }()},
		{"PeerAccountID", peer("", "us-east-1", "vpc-1")},
		{"PeerRegionCode", peer("1", "", "vpc-1")},
		{"PeerVPCID", peer("1", "us-east-1", "")},
		{"vpcID", func() error { _, err := c.Peerings.List(t.Context(), "p1", "x"); return err }()},
		{"peeringID", func() error { _, err := c.Peerings.Get(t.Context(), "p1", "42", ""); return err }()},
		{"peeringID", c.Peerings.Delete(t.Context(), "p1", "42", "")},
		{"name", func() error {
			_, err := c.Services.Rename(t.Context(), "p1", "s1", strings.Repeat("n", 129))
			return err
		}()},
		{"serviceID", func() error { _, err := c.Services.Rename(t.Context(), "p1", "", "n"); return err }()},
		{"serviceID", func() error { _, err := c.Metrics.ListSeries(t.Context(), "p1", ""); return err }()},
	} {
		var v *dbcloud.ValidationError
		if !errors.As(tt.err, &v) || v.Field != tt.field {
			t.Errorf("err = %v, want a *ValidationError for %s", tt.err, tt.field)
		}
	}
	if got := s.requests(); len(got) != 0 {
		t.Errorf("requests %v, want none", got)
	}
}

// No id can change the route of a VPC or peering call: each is one escaped
// path segment.
func TestLiveEscapesIDs(t *testing.T) {
	t.Parallel()
	s := newLiveServer(t)
	c := s.client(t, dbcloud.WithRetryMax(0))
	ctx := context.Background()
	_, _ = c.VPCs.List(ctx, "..")
	_, _ = c.Peerings.Get(ctx, "p/1", "42", "a/b?c#d")
	_ = c.Peerings.Delete(ctx, "p1", "42", ".")
	want := []string{"GET /projects/%2E%2E/vpcs", "GET /projects/p%2F1/vpcs/42/peerings/a%2Fb%3Fc%23d", "DELETE /projects/p1/vpcs/42/peerings/%2E"}
	if diff := cmp.Diff(want, s.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// A rename whose first attempt may have acted is retried; the retry's 409
// is a success when the resource has the new name, as it does here. A
// service's rename whose 2xx body was cut off reads the service.
func TestLiveRenameIsSafeToRepeat(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t)
	vpcURL := mockBase + "/projects/p1/vpcs/42"
	mt.RegisterResponder("POST", vpcURL+"/rename", statusResponder(503).Then(statusResponder(409)))
	mt.RegisterResponder("GET", vpcURL, func(*http.Request) (*http.Response, error) {
		return httpmock.NewStringResponse(200, `{"id":"42","name":"renamed","cidr":"10.0.0.0/16","region_code":"us-east-1"}`), nil
	})
	if err := c.VPCs.Rename(t.Context(), "p1", "42", "renamed"); err != nil {
		t.Errorf("VPCs.Rename: %v, want the earlier attempt's success", err)
	}
	if err := c.VPCs.Rename(t.Context(), "p1", "42", "other"); !errors.Is(err, dbcloud.ErrConflict) {
		t.Errorf("VPCs.Rename to a name it does not have: %v, want the 409", err)
	}

	renamed := strings.Replace(serviceJSON, `"name":"db"`, `"name":"db2"`, 1)
	mt.RegisterResponder("POST", serviceURL+"/rename", httpmock.NewErrorResponder(errReset).Then(statusResponder(409)))
	mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(200, renamed))
	if svc, err := c.Services.Rename(t.Context(), "p1", "s1", "db2"); err != nil || svc.Name != "db2" {
		t.Errorf("Services.Rename = %+v, %v; want the service read, renamed", svc, err)
	}
	mt.RegisterResponder("POST", serviceURL+"/rename", httpmock.NewStringResponder(200, `{"service_id":`))
	if svc, err := c.Services.Rename(t.Context(), "p1", "s1", "db2"); err != nil || svc.Name != "db2" {
		t.Errorf("Services.Rename with its answer cut off = %+v, %v; want the service read", svc, err)
	}
}
