package dbcloud_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
)

// The faults of the creates and deletes of VPCs and peerings, end to end
// on dbcloudtest: what the caller got, how many requests the fake saw, and
// what it holds afterwards, read through a client the faults do not touch.

// faultAttempt is the attempt timeout of the clients that meet a held
// connection: long enough for a loaded machine's requests, short for a test.
const faultAttempt = 500 * time.Millisecond

// e2eCreate is one of the two creates: its path (as Fault.Path matches
// it), the call, and the resources on the fake alike in every field that
// tells them apart to create recovery.
type e2eCreate struct {
	name, path string
	call       func(ctx context.Context, c *dbcloud.Client, p, vpc string) (id string, err error)
	held       func(t *testing.T, c *dbcloud.Client, p, vpc string) (ids []string)
}

var e2eCreates = []e2eCreate{
	{"VPCs.Create", "/projects/*/vpcs",
		func(ctx context.Context, c *dbcloud.Client, p, _ string) (string, error) {
			v, err := c.VPCs.Create(ctx, p, &dbcloud.CreateVPCRequest{Name: "private", CIDR: "10.0.0.0/16", RegionCode: "us-east-1"})
			if v == nil {
				return "", err
			}
			return v.ID, err
		},
		func(t *testing.T, c *dbcloud.Client, p, _ string) []string {
			t.Helper()
			vpcs, err := c.VPCs.List(t.Context(), p)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, v := range vpcs {
				if v.Name == "private" && v.CIDR == "10.0.0.0/16" && v.RegionCode == "us-east-1" {
					ids = append(ids, v.ID)
				}
			}
			return ids
		}},
	{"Peerings.Create", "/projects/*/vpcs/*/peerings",
		func(ctx context.Context, c *dbcloud.Client, p, vpc string) (string, error) {
			pc, err := c.Peerings.Create(ctx, p, vpc, &dbcloud.CreatePeeringRequest{PeerAccountID: "123456789012", PeerRegionCode: "eu-central-1", PeerVPCID: "vpc-0a1b"})
			if pc == nil {
				return "", err
			}
			return pc.ID, err
		},
		func(t *testing.T, c *dbcloud.Client, p, vpc string) []string {
			t.Helper()
			list, err := c.Peerings.List(t.Context(), p, vpc)
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, pc := range list {
				if pc.PeerAccountID == "123456789012" && pc.PeerRegionCode == "eu-central-1" && pc.PeerVPCID == "vpc-0a1b" {
					ids = append(ids, pc.ID)
				}
			}
			return ids
		}},
}

// vpcWithPeering creates, through c, a VPC of project p (in us-east-1)
// and a peering connection of it with peer.
func vpcWithPeering(t *testing.T, c *dbcloud.Client, p, name, cidr string, peer dbcloud.CreatePeeringRequest) (*dbcloud.VPC, *dbcloud.Peering) {
	t.Helper()
	vpc, err := c.VPCs.Create(t.Context(), p, &dbcloud.CreateVPCRequest{Name: name, CIDR: cidr, RegionCode: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	peering, err := c.Peerings.Create(t.Context(), p, vpc.ID, &peer)
	if err != nil {
		t.Fatal(err)
	}
	return vpc, peering
}

// newNetwork creates, through setup (a client the faults do not reach
// yet), a VPC and the look-alikes a create's recovery must not take for
// its own: a VPC with the same name and region in another range, and a
// peering with the same peer account and VPC in another region.
func newNetwork(t *testing.T, setup *dbcloud.Client, p string) (vpcID string) {
	t.Helper()
	vpc, _ := vpcWithPeering(t, setup, p, "private", "10.1.0.0/16", dbcloud.CreatePeeringRequest{PeerAccountID: "123456789012", PeerRegionCode: "us-west-2", PeerVPCID: "vpc-0a1b"})
	return vpc.ID
}

// A create whose answer is lost, refused with a 503, reset, or held until
// the attempt timeout: without recovery, ErrMaybeCreated (with its cause)
// after one send, and the fake holds the resource only when it acted; with
// WithCreateRecovery, the caller gets the resource (found by listing when
// the fake acted, sent again when it had not), and the fake holds exactly
// one.
func TestFakeNetworkCreateFaults(t *testing.T) {
	t.Parallel()
	for _, cr := range e2eCreates {
		for _, tt := range []struct {
			name  string
			fault dbcloudtest.Fault
			acted bool  // the fake made the resource before the failure
			cause error // what the error also matches, without recovery
		}{
			{"answer lost", dbcloudtest.Fault{Drop: true, AfterHandling: true}, true, nil},
			{"503", dbcloudtest.Fault{Status: 503}, false, dbcloud.ErrServer},
			{"reset", dbcloudtest.Fault{Drop: true}, false, nil},
			{"held until the attempt timeout", dbcloudtest.Fault{Delay: time.Hour}, false, dbcloud.ErrAttemptTimeout},
		} {
			for _, recovery := range []bool{false, true} {
				name := cr.name + "/" + tt.name
				if recovery {
					name += "/recovered"
				}
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					setup, srv := fixture.NewFake(t, nil)
					p := srv.ProjectID
					vpc := newNetwork(t, setup, p)
					opts := []dbcloud.Option{fixture.TinyRetries, dbcloud.WithAttemptTimeout(faultAttempt)}
					if recovery {
						opts = append(opts, dbcloud.WithCreateRecovery())
					}
					c := srv.Client(opts...)
					f := tt.fault
					f.Method, f.Path = "POST", cr.path
					srv.InjectFault(f)

					id, err := cr.call(t.Context(), c, p, vpc)
					held := cr.held(t, setup, p, vpc)
					sends := srv.Count("POST", cr.path) - 1 // less newNetwork's
					if !recovery {
						if id != "" || !errors.Is(err, dbcloud.ErrMaybeCreated) || tt.cause != nil && !errors.Is(err, tt.cause) {
							t.Fatalf("got %q, %v; want ErrMaybeCreated (and %v)", id, err, tt.cause)
						}
						if errors.Is(err, context.DeadlineExceeded) {
							t.Errorf("err = %v: the caller's deadline has not passed", err)
						}
						if sends != 1 {
							t.Errorf("creates sent = %d, want 1: a create is never repeated blindly", sends)
						}
						if want := map[bool]int{true: 1, false: 0}[tt.acted]; len(held) != want {
							t.Errorf("the fake holds %v, want %d", held, want)
						}
						return
					}
					if err != nil || len(held) != 1 || id != held[0] {
						t.Fatalf("got %q, %v; the fake holds %v; want the one resource", id, err, held)
					}
					if want := map[bool]int{true: 1, false: 2}[tt.acted]; sends != want {
						t.Errorf("creates sent = %d, want %d (found by listing, or sent again)", sends, want)
					}
				})
			}
		}
	}
}

// A delete whose first attempt's answer is lost, refused with a 503,
// reset or held until the attempt timeout is retried: the caller gets
// nil, the fake saw two deletes, and it holds the resource no more (and
// still holds the others).
func TestFakeNetworkDeleteFaults(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"VPCs.Delete", "Peerings.Delete"} {
		for _, tt := range []struct {
			name  string
			fault dbcloudtest.Fault
		}{
			{"answer lost", dbcloudtest.Fault{Drop: true, AfterHandling: true}},
			{"503", dbcloudtest.Fault{Status: 503}},
			{"reset", dbcloudtest.Fault{Drop: true}},
			{"held until the attempt timeout", dbcloudtest.Fault{Delay: time.Hour}},
		} {
			t.Run(kind+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				setup, srv := fixture.NewFake(t, nil)
				ctx, p := t.Context(), srv.ProjectID
				kept := newNetwork(t, setup, p)
				vpc, peering := vpcWithPeering(t, setup, p, "doomed", "10.2.0.0/16", dbcloud.CreatePeeringRequest{PeerAccountID: "1", PeerRegionCode: "us-east-1", PeerVPCID: "vpc-1"})
				c := srv.Client(fixture.TinyRetries, dbcloud.WithAttemptTimeout(faultAttempt))
				path, del := "/projects/"+p+"/vpcs/"+vpc.ID, func() error { return c.VPCs.Delete(ctx, p, vpc.ID) }
				if kind == "Peerings.Delete" {
					path, del = path+"/peerings/"+peering.ID, func() error { return c.Peerings.Delete(ctx, p, vpc.ID, peering.ID) }
				}
				f := tt.fault
				f.Method, f.Path = "DELETE", path
				srv.InjectFault(f)

				if err := del(); err != nil {
					t.Fatalf("Delete: %v", err)
				}
				if got := srv.Count("DELETE", path); got != 2 {
					t.Errorf("deletes sent = %d, want 2 (the fault, then the retry)", got)
				}
				vpcs, err := setup.VPCs.List(ctx, p)
				if err != nil {
					t.Fatal(err)
				}
				wantVPCs := []string{kept}
				if kind == "Peerings.Delete" {
					wantVPCs = append(wantVPCs, vpc.ID)
					left, err := setup.Peerings.List(ctx, p, vpc.ID)
					if err != nil || len(left) != 0 {
						t.Errorf("the VPC's peerings = %+v, %v; want none", left, err)
					}
				}
				var ids []string
				for _, v := range vpcs {
					ids = append(ids, v.ID)
				}
				if !slices.Equal(ids, wantVPCs) {
					t.Errorf("the fake holds the VPCs %v, want %v", ids, wantVPCs)
				}
				if others, err := setup.Peerings.List(ctx, p, kept); err != nil || len(others) != 1 {
					t.Errorf("the other VPC's peerings = %+v, %v; want its one", others, err)
				}
			})
		}
	}
}

// A first attempt's own 404 is returned as it is: ErrNotFound.
func TestFakeNetworkDeleteOfNothingIsNotFound(t *testing.T) {
	t.Parallel()
	setup, srv := fixture.NewFake(t, nil)
	ctx, p := t.Context(), srv.ProjectID
	c := srv.Client()
	if err := c.VPCs.Delete(ctx, p, "999"); !errors.Is(err, dbcloud.ErrNotFound) {
		t.Errorf("VPCs.Delete: %v, want ErrNotFound", err)
	}
	vpc, err := setup.VPCs.Create(ctx, p, &dbcloud.CreateVPCRequest{Name: "private", CIDR: "10.0.0.0/16", RegionCode: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Peerings.Delete(ctx, p, vpc.ID, "pcx-404"); !errors.Is(err, dbcloud.ErrNotFound) {
		t.Errorf("Peerings.Delete: %v, want ErrNotFound", err)
	}
	if _, err := c.VPCs.Get(ctx, p, "999"); !errors.Is(err, dbcloud.ErrNotFound) {
		t.Errorf("VPCs.Get: %v, want ErrNotFound", err)
	}
}
