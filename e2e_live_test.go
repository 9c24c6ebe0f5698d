package dbcloud_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
	"github.com/google/go-cmp/cmp"
)

// The SDK and dbcloudtest agree on each of the 14 operations beyond the
// API's first 23 (identity, projects, a service's rename, VPCs, peerings,
// metric series): each call sends one request, which the fake answers with
// the operation's success status, and the SDK returns what the fake's
// model (its package doc) says it holds. TestFakeAgreesOnEveryLiveOperation
// runs 13 of them with the API key; TestFakeAgreesOnAuthInfo runs
// AuthInfo (and Projects.List) with each kind of credentials.

// oneRequest checks that, since the last ResetRequests, srv saw exactly
// one request, method path, answered status.
func oneRequest(t *testing.T, srv *dbcloudtest.Server, method, path string, status int) {
	t.Helper()
	want := []dbcloudtest.Request{{Method: method, Path: path, Status: status}}
	if diff := cmp.Diff(want, srv.Requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	srv.ResetRequests()
}

var digits = regexp.MustCompile(`^[0-9]+$`)

func TestFakeAgreesOnEveryLiveOperation(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	c, srv := fixture.NewFake(t, []dbcloudtest.Option{dbcloudtest.WithStartTime(start), dbcloudtest.WithProjects("proj-a", "proj-b")})
	ctx, p := t.Context(), srv.ProjectID
	svc := fixture.CreateReady(t, c, p, "orders")
	srv.Advance(10 * time.Minute)
	srv.ResetRequests()
	projectPath := "/projects/" + p

	t.Run("Projects.List", func(t *testing.T) {
		got, err := c.Projects.List(ctx)
		want := []dbcloud.Project{{ID: "proj-a", Name: "proj-a"}, {ID: "proj-b", Name: "proj-b"}}
		if diff := cmp.Diff(want, got); err != nil || diff != "" {
			t.Errorf("Projects.List: %v; (-want +got):\n%s", err, diff)
		}
		oneRequest(t, srv, "GET", "/projects", 200)
	})
	t.Run("Services.Rename", func(t *testing.T) {
		got, err := c.Services.Rename(ctx, p, svc.ServiceID, "orders-eu")
		if err != nil || got.Name != "orders-eu" || got.ServiceID != svc.ServiceID || got.Status != dbcloud.StatusReady {
			t.Errorf("Rename = %+v, %v; want the service, renamed", got, err)
		}
		oneRequest(t, srv, "POST", projectPath+"/services/"+svc.ServiceID+"/rename", 200)
		if held, _ := srv.Service(svc.ServiceID); held.Name != "orders-eu" {
			t.Errorf("the fake holds the service named %q", held.Name)
		}
	})

	var vpc *dbcloud.VPC
	t.Run("VPCs.Create", func(t *testing.T) {
		var err error
		vpc, err = c.VPCs.Create(ctx, p, &dbcloud.CreateVPCRequest{Name: "private", CIDR: "10.0.0.0/16", RegionCode: "us-east-1"})
		if err != nil {
			t.Fatalf("VPCs.Create: %v", err)
		}
		if !digits.MatchString(vpc.ID) {
			t.Errorf("id %q, want digits", vpc.ID)
		}
		want := &dbcloud.VPC{ID: vpc.ID, Name: "private", CIDR: "10.0.0.0/16", RegionCode: "us-east-1"}
		if diff := cmp.Diff(want, vpc); diff != "" {
			t.Errorf("VPCs.Create (-want +got):\n%s", diff)
		}
		oneRequest(t, srv, "POST", projectPath+"/vpcs", 201)
	})
	if vpc == nil {
		t.FailNow()
	}
	vpcPath := projectPath + "/vpcs/" + vpc.ID
	t.Run("VPCs.List", func(t *testing.T) {
		got, err := c.VPCs.List(ctx, p)
		if diff := cmp.Diff([]dbcloud.VPC{*vpc}, got); err != nil || diff != "" {
			t.Errorf("VPCs.List: %v; (-want +got):\n%s", err, diff)
		}
		oneRequest(t, srv, "GET", projectPath+"/vpcs", 200)
	})
	t.Run("VPCs.Get", func(t *testing.T) {
		got, err := c.VPCs.Get(ctx, p, vpc.ID)
		if diff := cmp.Diff(vpc, got); err != nil || diff != "" {
			t.Errorf("VPCs.Get: %v; (-want +got):\n%s", err, diff)
		}
		oneRequest(t, srv, "GET", vpcPath, 200)
	})
	t.Run("VPCs.Rename", func(t *testing.T) {
		if err := c.VPCs.Rename(ctx, p, vpc.ID, "private-eu"); err != nil {
			t.Errorf("VPCs.Rename: %v", err)
		}
		oneRequest(t, srv, "POST", vpcPath+"/rename", 200)
		if got, err := c.VPCs.Get(ctx, p, vpc.ID); err != nil || got.Name != "private-eu" {
			t.Errorf("after the rename, VPCs.Get = %+v, %v", got, err)
		}
		srv.ResetRequests()
	})

	var peering *dbcloud.Peering
	t.Run("Peerings.Create", func(t *testing.T) {
		var err error
		peering, err = c.Peerings.Create(ctx, p, vpc.ID, &dbcloud.CreatePeeringRequest{PeerAccountID: "123456789012", PeerRegionCode: "eu-central-1", PeerVPCID: "vpc-0a1b2c3d"})
		if err != nil {
			t.Fatalf("Peerings.Create: %v", err)
		}
		if !digits.MatchString(peering.ID) || !regexp.MustCompile(`^pcx-[0-9a-f]{17}$`).MatchString(peering.ProvisionedID) {
			t.Errorf("id %q, provisioned id %q; want digits and the cloud's pcx- id", peering.ID, peering.ProvisionedID)
		}
		want := &dbcloud.Peering{ID: peering.ID, PeerAccountID: "123456789012", PeerRegionCode: "eu-central-1", PeerVPCID: "vpc-0a1b2c3d",
			Status: dbcloud.PeeringPending, ProvisionedID: peering.ProvisionedID}
		if diff := cmp.Diff(want, peering); diff != "" {
			t.Errorf("Peerings.Create (-want +got):\n%s", diff)
		}
		oneRequest(t, srv, "POST", vpcPath+"/peerings", 201)
	})
	if peering == nil {
		t.FailNow()
	}
	peeringPath := vpcPath + "/peerings/" + peering.ID
	t.Run("Peerings.List", func(t *testing.T) {
		got, err := c.Peerings.List(ctx, p, vpc.ID)
		if diff := cmp.Diff([]dbcloud.Peering{*peering}, got); err != nil || diff != "" {
			t.Errorf("Peerings.List: %v; (-want +got):\n%s", err, diff)
		}
		oneRequest(t, srv, "GET", vpcPath+"/peerings", 200)
	})
	t.Run("Peerings.Get", func(t *testing.T) {
		if err := srv.FailPeering(peering.ID, "the peer account rejected the request"); err != nil {
			t.Fatal(err)
		}
		got, err := c.Peerings.Get(ctx, p, vpc.ID, peering.ID)
		want := *peering
		want.Status, want.ErrorMessage = dbcloud.PeeringFailed, "the peer account rejected the request"
		if diff := cmp.Diff(&want, got); err != nil || diff != "" {
			t.Errorf("Peerings.Get: %v; (-want +got):\n%s", err, diff)
		}
		oneRequest(t, srv, "GET", peeringPath, 200)
	})
	t.Run("Peerings.Delete", func(t *testing.T) {
		if err := c.Peerings.Delete(ctx, p, vpc.ID, peering.ID); err != nil {
			t.Errorf("Peerings.Delete: %v", err)
		}
		oneRequest(t, srv, "DELETE", peeringPath, 204)
		if _, err := c.Peerings.Get(ctx, p, vpc.ID, peering.ID); !errors.Is(err, dbcloud.ErrNotFound) {
			t.Errorf("after the delete, Peerings.Get: %v, want ErrNotFound", err)
		}
		srv.ResetRequests()
	})
	t.Run("VPCs.Delete", func(t *testing.T) {
		if err := c.VPCs.Delete(ctx, p, vpc.ID); err != nil {
			t.Errorf("VPCs.Delete: %v", err)
		}
		oneRequest(t, srv, "DELETE", vpcPath, 204)
		if got, err := c.VPCs.List(ctx, p); err != nil || len(got) != 0 {
			t.Errorf("after the delete, VPCs.List = %+v, %v; want none", got, err)
		}
		srv.ResetRequests()
	})

	const series = "timescale_cloud_database_transactions_total"
	t.Run("Metrics.ListSeries", func(t *testing.T) {
		got, err := c.Metrics.ListSeries(ctx, p, svc.ServiceID)
		want := []string{
			"timescale_cloud_database_job_duration_usecs", "timescale_cloud_database_job_success",
			"timescale_cloud_database_num_connections", "timescale_cloud_database_qps",
			"timescale_cloud_database_query_duration_ms", series,
			"timescale_cloud_system_cpu_usage_millicores", "timescale_cloud_system_disk_io_read_bytes",
			"timescale_cloud_system_disk_io_write_bytes", "timescale_cloud_system_disk_usage_bytes",
			"timescale_cloud_system_memory_usage_bytes",
		}
		if diff := cmp.Diff(want, got); err != nil || diff != "" {
			t.Errorf("Metrics.ListSeries: %v; (-want +got):\n%s", err, diff)
		}
		oneRequest(t, srv, "GET", projectPath+"/services/"+svc.ServiceID+"/metrics/available-series", 200)
	})
	t.Run("Metrics.Query", func(t *testing.T) {
		minute := func(n int) time.Time { return start.Add(time.Duration(n) * time.Minute) }
		if err := srv.RecordMetrics(svc.ServiceID, series,
			dbcloudtest.MetricSample{Time: minute(0), Value: 10},
			dbcloudtest.MetricSample{Time: minute(0).Add(30 * time.Second), Value: 30},
			dbcloudtest.MetricSample{Time: minute(2), Value: 0},
			dbcloudtest.MetricSample{Time: minute(3), Value: 7.25}); err != nil {
			t.Fatal(err)
		}
		got, err := c.Metrics.Query(ctx, p, svc.ServiceID, &dbcloud.MetricsQuery{
			Series: series, From: minute(0), To: minute(4), Bucket: time.Minute, Aggregation: dbcloud.AggMax,
			Filters: []dbcloud.MetricFilter{{Key: "role", Value: "PRIMARY"}},
		})
		want := []dbcloud.MetricSeries{{
			Labels: map[string]string{"role": "primary", "ordinal": "0"},
			Points: []dbcloud.MetricPoint{
				{Time: minute(0), Value: 30, Valid: true},
				{Time: minute(1)}, // a gap
				{Time: minute(2), Value: 0, Valid: true},
				{Time: minute(3), Value: 7.25, Valid: true},
			},
		}}
		if diff := cmp.Diff(want, got); err != nil || diff != "" {
			t.Errorf("Metrics.Query: %v; (-want +got):\n%s", err, diff)
		}
		oneRequest(t, srv, "POST", projectPath+"/services/"+svc.ServiceID+"/metrics/series", 200)
	})
}

// Client.AuthInfo, the 14th operation, for each kind of credentials the
// fake has: a personal access token's project (the first of the server's
// only) and issuer; the API key's user (sent as {"type": "oauth",
// "oauth": {"user": {...}}}, as the API's document has it).
func TestFakeAgreesOnAuthInfo(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	user := dbcloud.User{ID: "1001", Name: "Fake User", Email: "user@fake.dbcloud.test"}
	for _, tt := range []struct {
		name     string
		opts     []dbcloudtest.Option
		want     *dbcloud.AuthInfo
		projects []dbcloud.Project
	}{
		{"personal access token", []dbcloudtest.Option{dbcloudtest.WithPersonalAccessToken("pk-ci", "sk-ci-secret")},
			&dbcloud.AuthInfo{Kind: dbcloud.AuthKindAPIKey, APIKey: &dbcloud.APIKeyInfo{
				PublicKey: "pk-ci", Name: "dbcloudtest", Created: start,
				Project: dbcloud.Project{ID: "proj-a", Name: "proj-a", PlanType: "FREE"}, IssuingUser: user,
			}},
			[]dbcloud.Project{{ID: "proj-a", Name: "proj-a"}}},
		{"API key (the fake's user)", nil,
			&dbcloud.AuthInfo{Kind: dbcloud.AuthKindOAuth, User: &user},
			[]dbcloud.Project{{ID: "proj-a", Name: "proj-a"}, {ID: "proj-b", Name: "proj-b"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, srv := fixture.NewFake(t, append([]dbcloudtest.Option{dbcloudtest.WithStartTime(start), dbcloudtest.WithProjects("proj-a", "proj-b")}, tt.opts...))
			info, err := c.AuthInfo(t.Context())
			if diff := cmp.Diff(tt.want, info); err != nil || diff != "" {
				t.Errorf("AuthInfo: %v; (-want +got):\n%s", err, diff)
			}
			oneRequest(t, srv, "GET", "/auth/info", 200)
			projects, err := c.Projects.List(t.Context())
			if diff := cmp.Diff(tt.projects, projects); err != nil || diff != "" {
				t.Errorf("Projects.List: %v; (-want +got):\n%s", err, diff)
			}
			oneRequest(t, srv, "GET", "/projects", 200)
		})
	}
}

// A VPC name the SDK sends is one the fake takes, and a name the fake
// refuses the SDK refuses before sending, in a create and in a rename.
func TestFakeAgreesOnVPCNames(t *testing.T) {
	t.Parallel()
	c, srv := fixture.NewFake(t, nil)
	ctx, p := t.Context(), srv.ProjectID
	vpc, err := c.VPCs.Create(ctx, p, &dbcloud.CreateVPCRequest{Name: "private", CIDR: "10.0.0.0/16", RegionCode: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{strings.Repeat("v", 128), strings.Repeat("é", 128), strings.Repeat("v", 129), "x\u00a0y"} {
		for op, call := range map[string]func() error{
			"VPCs.Create": func() error {
				_, err := c.VPCs.Create(ctx, p, &dbcloud.CreateVPCRequest{Name: name, CIDR: "10.1.0.0/16", RegionCode: "us-east-1"})
				return err
			},
			"VPCs.Rename": func() error { return c.VPCs.Rename(ctx, p, vpc.ID, name) },
		} {
			srv.ResetRequests()
			err := call()
			var invalid *dbcloud.ValidationError
			if err != nil && !(errors.As(err, &invalid) && srv.Count("", "") == 0) {
				t.Errorf("%s with a name of %d characters: %v; want it taken by the fake, or refused before it is sent", op, utf8.RuneCountInString(name), err)
			}
		}
	}
}
