package dbcloud_test

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
	"github.com/jarcoal/httpmock"
)

// mutation is one method that changes something, called on p1/s1/rs1.
type mutation struct {
	name string
	call func(ctx context.Context, c *dbcloud.Client) error
}

func mutations() []mutation {
	resize := &dbcloud.ResizeRequest{CPUMillis: 1000, MemoryGBs: 4}
	return []mutation{
		{"Services.Create", func(ctx context.Context, c *dbcloud.Client) error {
			return errOf(c.Services.Create(ctx, "p1", &dbcloud.CreateServiceRequest{Name: "db"}))
		}},
		{"Services.Delete", func(ctx context.Context, c *dbcloud.Client) error { return c.Services.Delete(ctx, "p1", "s1") }},
		{"Services.Start", func(ctx context.Context, c *dbcloud.Client) error { return errOf(c.Services.Start(ctx, "p1", "s1")) }},
		{"Services.Stop", func(ctx context.Context, c *dbcloud.Client) error { return errOf(c.Services.Stop(ctx, "p1", "s1")) }},
		{"Services.Resize", func(ctx context.Context, c *dbcloud.Client) error {
			return errOf(c.Services.Resize(ctx, "p1", "s1", resize))
		}},
		{"Services.Fork", func(ctx context.Context, c *dbcloud.Client) error {
			return errOf(c.Services.Fork(ctx, "p1", "s1", &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow}))
		}},
		{"Services.UpdatePassword", func(ctx context.Context, c *dbcloud.Client) error {
			return c.Services.UpdatePassword(ctx, "p1", "s1", "N3w-Passw0rd-xyz")
		}},
		{"Services.SetEnvironment", func(ctx context.Context, c *dbcloud.Client) error {
			return c.Services.SetEnvironment(ctx, "p1", "s1", dbcloud.EnvironmentDev)
		}},
		{"Services.SetHA", func(ctx context.Context, c *dbcloud.Client) error {
			return errOf(c.Services.SetHA(ctx, "p1", "s1", &dbcloud.SetHARequest{ReplicaCount: new(1)}))
		}},
		{"Services.EnablePooler", func(ctx context.Context, c *dbcloud.Client) error { return c.Services.EnablePooler(ctx, "p1", "s1") }},
		{"Services.DisablePooler", func(ctx context.Context, c *dbcloud.Client) error { return c.Services.DisablePooler(ctx, "p1", "s1") }},
		{"Services.AttachToVPC", func(ctx context.Context, c *dbcloud.Client) error {
			return c.Services.AttachToVPC(ctx, "p1", "s1", "42")
		}},
		{"Services.DetachFromVPC", func(ctx context.Context, c *dbcloud.Client) error {
			return c.Services.DetachFromVPC(ctx, "p1", "s1", "42")
		}},
		{"ReplicaSets.Create", func(ctx context.Context, c *dbcloud.Client) error {
			return errOf(c.ReplicaSets.Create(ctx, "p1", "s1", &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 500, MemoryGBs: 2}))
		}},
		{"ReplicaSets.Delete", func(ctx context.Context, c *dbcloud.Client) error {
			return c.ReplicaSets.Delete(ctx, "p1", "s1", "rs1")
		}},
		{"ReplicaSets.Resize", func(ctx context.Context, c *dbcloud.Client) error {
			return c.ReplicaSets.Resize(ctx, "p1", "s1", "rs1", resize)
		}},
		{"ReplicaSets.EnablePooler", func(ctx context.Context, c *dbcloud.Client) error {
			return c.ReplicaSets.EnablePooler(ctx, "p1", "s1", "rs1")
		}},
		{"ReplicaSets.DisablePooler", func(ctx context.Context, c *dbcloud.Client) error {
			return c.ReplicaSets.DisablePooler(ctx, "p1", "s1", "rs1")
		}},
		{"ReplicaSets.SetEnvironment", func(ctx context.Context, c *dbcloud.Client) error {
			return c.ReplicaSets.SetEnvironment(ctx, "p1", "s1", "rs1", dbcloud.EnvironmentDev)
		}},
		{"Services.Rename", func(ctx context.Context, c *dbcloud.Client) error {
			return errOf(c.Services.Rename(ctx, "p1", "s1", "db2"))
		}},
		{"VPCs.Create", func(ctx context.Context, c *dbcloud.Client) error {
			return errOf(c.VPCs.Create(ctx, "p1", &dbcloud.CreateVPCRequest{Name: "v", CIDR: "10.0.0.0/16", RegionCode: "us-east-1"}))
		}},
		{"VPCs.Delete", func(ctx context.Context, c *dbcloud.Client) error { return c.VPCs.Delete(ctx, "p1", "42") }},
		{"VPCs.Rename", func(ctx context.Context, c *dbcloud.Client) error { return c.VPCs.Rename(ctx, "p1", "42", "v2") }},
		{"Peerings.Create", func(ctx context.Context, c *dbcloud.Client) error {
			return errOf(c.Peerings.Create(ctx, "p1", "42", &dbcloud.CreatePeeringRequest{PeerAccountID: "1", PeerRegionCode: "us-east-1", PeerVPCID: "vpc-1"}))
		}},
		{"Peerings.Delete", func(ctx context.Context, c *dbcloud.Client) error { return c.Peerings.Delete(ctx, "p1", "42", "pcx-1") }},
	}
}

// reads are the methods that only read; with mutations() they must name
// every method, so a new method cannot escape the test unsorted.
var reads = []string{
	"Services.List", "Services.Get", "Services.ListLogs", "Services.AllLogs", "Services.FollowLogs", "Services.TailLogs",
	"Services.WaitForReady", "Services.WaitForStatus", "Services.WaitForAll", "Services.WaitForDeleted", "Services.WaitForConnectable",
	"ReplicaSets.List", "ReplicaSets.WaitForActive", "ReplicaSets.WaitForDeleted", "ReplicaSets.WaitForConnectable",
	"VPCs.List", "VPCs.Get", "Peerings.List", "Peerings.Get", "Peerings.WaitForActive",
	"Metrics.ListSeries", "Metrics.Query", "Projects.List",
}

func TestReadOnlyTestCoversEveryMethod(t *testing.T) {
	t.Parallel()
	sorted := slices.Clone(reads)
	for _, m := range mutations() {
		sorted = append(sorted, m.name)
	}
	for prefix, v := range map[string]any{
		"Services.": &dbcloud.ServicesClient{}, "ReplicaSets.": &dbcloud.ReplicaSetsClient{},
		"VPCs.": &dbcloud.VPCsClient{}, "Peerings.": &dbcloud.PeeringsClient{}, "Metrics.": &dbcloud.MetricsClient{}, "Projects.": &dbcloud.ProjectsClient{},
	} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumMethod() {
			if name := prefix + typ.Method(i).Name; !slices.Contains(sorted, name) {
				t.Errorf("%s is neither a read nor a mutation of this test: sort it", name)
			}
		}
	}
}

// Under WithReadOnly every mutating method fails with ErrReadOnly and sends
// nothing (the mock fails the test on any request).
func TestReadOnlyRefusesEveryChange(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t, dbcloud.WithReadOnly())
	for _, m := range mutations() {
		err := m.call(t.Context(), c)
		var roe *dbcloud.ReadOnlyError
		if !errors.Is(err, dbcloud.ErrReadOnly) || !errors.As(err, &roe) {
			t.Errorf("%s: err = %v, want a *ReadOnlyError matching ErrReadOnly", m.name, err)
			continue
		}
		if roe.Method == http.MethodGet || roe.Reason == "" {
			t.Errorf("%s: %+v", m.name, roe)
		}
	}
	if n := mt.GetTotalCallCount(); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

// Reads, logs and waits of a read-only client work as before, end to end.
func TestReadOnlyReadsWork(t *testing.T) {
	t.Parallel()
	rw, srv, svc, set := fixture.NewFakeWithSet(t)
	ctx, p := t.Context(), srv.ProjectID
	ro := srv.Client(fixture.TinyRetries, dbcloud.WithReadOnly())
	if list, err := ro.Services.List(ctx, p); err != nil || len(list) != 1 {
		t.Errorf("List: %d, %v", len(list), err)
	}
	if _, err := ro.Services.Get(ctx, p, svc.ServiceID); err != nil {
		t.Errorf("Get: %v", err)
	}
	if _, err := ro.Services.WaitForReady(ctx, p, svc.ServiceID, fixture.FastPolls); err != nil {
		t.Errorf("WaitForReady: %v", err)
	}
	if _, err := ro.Services.ListLogs(ctx, p, svc.ServiceID, nil); err != nil {
		t.Errorf("ListLogs: %v", err)
	}
	for _, err := range ro.Services.AllLogs(ctx, p, svc.ServiceID, nil) {
		if err != nil {
			t.Errorf("AllLogs: %v", err)
		}
	}
	if _, err := ro.ReplicaSets.WaitForActive(ctx, p, svc.ServiceID, set.ID, fixture.FastPolls); err != nil {
		t.Errorf("WaitForActive: %v", err)
	}
	if _, err := ro.Services.Stop(ctx, p, svc.ServiceID); !errors.Is(err, dbcloud.ErrReadOnly) {
		t.Errorf("Stop: %v, want ErrReadOnly", err)
	}
	if got, _ := rw.Services.Get(ctx, p, svc.ServiceID); got == nil || got.Status != dbcloud.StatusReady {
		t.Errorf("the service is %v after the refused Stop; want it READY", got)
	}
}

// withEnvironment is serviceJSON tagged env ("" = no metadata).
func withEnvironment(env string) string {
	if env == "" {
		return serviceJSON
	}
	return strings.Replace(serviceJSON, `"resources":[]}`, `"resources":[],"metadata":{"environment":"`+env+`"}}`, 1)
}

// Under WithReadOnlyProd, a change to a PROD service (or its replica sets,
// or a fork of it) reads the service once, then is refused with nothing
// else sent; Services.Create and the calls on VPCs and peerings (which
// have no tag) read nothing and are sent.
func TestReadOnlyProdReadsThenRefuses(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t, dbcloud.WithReadOnlyProd())
	mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(200, withEnvironment("PROD")))
	mt.RegisterResponder("POST", servicesURL, httpmock.NewStringResponder(202, serviceJSON))
	vpcs := mockBase + "/projects/p1/vpcs"
	mt.RegisterResponder("POST", vpcs, httpmock.NewStringResponder(201, `{"id":"42","name":"v","cidr":"10.0.0.0/16","region_code":"us-east-1"}`))
	mt.RegisterResponder("DELETE", vpcs+"/42", httpmock.NewStringResponder(204, ""))
	mt.RegisterResponder("POST", vpcs+"/42/rename", httpmock.NewStringResponder(200, `{"message":"renamed"}`))
	mt.RegisterResponder("POST", vpcs+"/42/peerings", httpmock.NewStringResponder(201, `{"id":"pcx-1","peer_account_id":"1","peer_region_code":"us-east-1","peer_vpc_id":"vpc-1"}`))
	mt.RegisterResponder("DELETE", vpcs+"/42/peerings/pcx-1", httpmock.NewStringResponder(204, ""))
	for _, m := range mutations() {
		mt.ZeroCallCounters()
		err := m.call(t.Context(), c)
		info := mt.GetCallCountInfo()
		if m.name == "Services.Create" || strings.HasPrefix(m.name, "VPCs.") || strings.HasPrefix(m.name, "Peerings.") {
			if err != nil || mt.GetTotalCallCount() != 1 || info["GET "+serviceURL] != 0 {
				t.Errorf("%s: err = %v, calls %v; want it sent, nothing read", m.name, err, info)
			}
			continue
		}
		if !errors.Is(err, dbcloud.ErrReadOnly) || !strings.Contains(err.Error(), "PROD") {
			t.Errorf("%s: err = %v, want ErrReadOnly because of PROD", m.name, err)
		}
		if n := mt.GetTotalCallCount(); n != 1 || info["GET "+serviceURL] != 1 {
			t.Errorf("%s: calls %v; want exactly the read of the service", m.name, info)
		}
	}
}

func TestReadOnlyProdLetsOtherServicesChange(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t, dbcloud.WithReadOnlyProd())
	mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(200, withEnvironment("DEV")))
	mt.RegisterResponder("POST", startURL, httpmock.NewStringResponder(202, serviceJSON))
	mt.RegisterResponder("DELETE", replicasURL+"/rs1", httpmock.NewStringResponder(202, ""))
	if _, err := c.Services.Start(t.Context(), "p1", "s1"); err != nil {
		t.Errorf("Start of a DEV service: %v", err)
	}
	if err := c.ReplicaSets.Delete(t.Context(), "p1", "s1", "rs1"); err != nil {
		t.Errorf("ReplicaSets.Delete on a DEV service: %v", err)
	}
	info := mt.GetCallCountInfo()
	if info["GET "+serviceURL] != 2 || info["POST "+startURL] != 1 || info["DELETE "+replicasURL+"/rs1"] != 1 {
		t.Errorf("calls %v; want a read before each change, and both changes sent", info)
	}
}

// A guard that cannot tell refuses: the read failed, or the answer has no
// tag. The read's error is kept.
func TestReadOnlyProdRefusesWhenItCannotTell(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		status int
		body   string
		also   error
	}{
		{"not found", 404, `{"code":"NOT_FOUND","message":"no such service"}`, dbcloud.ErrNotFound},
		{"server error", 500, `{"code":"X","message":"down"}`, dbcloud.ErrServer},
		{"no tag", 200, withEnvironment(""), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, mt := mockClient(t, dbcloud.WithReadOnlyProd(), dbcloud.WithRetryMax(0))
			mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(tc.status, tc.body))
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			_, err := c.Services.Stop(ctx, "p1", "s1")
			if !errors.Is(err, dbcloud.ErrReadOnly) || (tc.also != nil && !errors.Is(err, tc.also)) {
				t.Errorf("err = %v, want ErrReadOnly (and %v)", err, tc.also)
			}
			if n := mt.GetTotalCallCount(); n != 1 {
				t.Errorf("%d requests, want only the read", n)
			}
		})
	}
}
