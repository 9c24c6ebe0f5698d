package dbcloud_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dbcloud/dbcloud-go"
)

// The faults of the creates and deletes of VPCs and peerings, on real
// sockets: what the caller gets, how many requests the server saw, and
// what it ended up with.

// liveCreate is one create of the tests: its path, the call, and how many
// resources of its kind the server holds.
type liveCreate struct {
	name, path string
	call       func(ctx context.Context, c *dbcloud.Client, vpc string) (id string, err error)
	made       func(s *liveServer, vpc string) int
}

var liveCreates = []liveCreate{
	{"VPCs.Create", "/projects/p1/vpcs",
		func(ctx context.Context, c *dbcloud.Client, _ string) (string, error) {
			v, err := c.VPCs.Create(ctx, "p1", &dbcloud.CreateVPCRequest{Name: "private", CIDR: "10.0.0.0/16", RegionCode: "us-east-1"})
			if v == nil {
				return "", err
			}
			return v.ID, err
		},
		func(s *liveServer, _ string) int {
			vpcs, _ := s.state("")
			n := 0
			for _, v := range vpcs {
				if v.Name == "private" {
					n++
				}
			}
			return n
		}},
	{"Peerings.Create", "/projects/p1/vpcs/{vpc}/peerings",
		func(ctx context.Context, c *dbcloud.Client, vpc string) (string, error) {
			p, err := c.Peerings.Create(ctx, "p1", vpc, &dbcloud.CreatePeeringRequest{PeerAccountID: "000011112222", PeerRegionCode: "eu-central-1", PeerVPCID: "vpc-0a1b"})
			if p == nil {
				return "", err
			}
			return p.ID, err
		},
		func(s *liveServer, vpc string) int {
			_, peerings := s.state(vpc)
			n := 0
			for _, p := range peerings {
				if p.PeerVPCID == "vpc-0a1b" {
					n++
				}
			}
			return n
		}},
}

// Every ambiguous failure of a create is ErrMaybeCreated, sent once; with
// WithCreateRecovery it is resolved: found by listing when the server
// acted, sent again when it had not, one resource in the end either way.
func TestLiveCreateFaults(t *testing.T) {
	for _, cr := range liveCreates {
		for _, tt := range []struct {
			name  string
			fault faultKind
			acted bool // the server made the resource before failing
			cause error
		}{
			{"answer lost", faultLostAnswer, true, nil},
			{"503", fault503, false, dbcloud.ErrServer},
			{"reset", faultReset, false, nil},
			{"held until the attempt timeout", faultHold, false, dbcloud.ErrAttemptTimeout},
		} {
			t.Run(cr.name+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				for _, recovery := range []bool{false, true} {
					s := newLiveServer(t)
					// Other resources, and one the create's answer must not be mistaken for.
					vpc := s.addVPC("other", "10.9.0.0/16", "us-east-1")
					s.addPeering(vpc, dbcloud.Peering{PeerAccountID: "000011112222", PeerRegionCode: "us-west-2", PeerVPCID: "vpc-0a1b"})
					path := replaceVPC(cr.path, vpc)
					s.inject("POST", path, tt.fault, 1)
					var opts []dbcloud.Option
					if recovery {
						opts = append(opts, dbcloud.WithCreateRecovery())
					}
					id, err := cr.call(t.Context(), s.client(t, opts...), vpc)
					want := 0
					if tt.acted {
						want = 1
					}
					if recovery {
						want = 1 // found, or sent again
						if err != nil || id == "" {
							t.Fatalf("recovery: err = %v, id %q; want the resource", err, id)
						}
						sends := 1
						if !tt.acted {
							sends = 2
						}
						if got := s.count("POST", path); got != sends {
							t.Errorf("recovery: creates sent = %d, want %d", got, sends)
						}
					} else {
						if !errors.Is(err, dbcloud.ErrMaybeCreated) || (tt.cause != nil && !errors.Is(err, tt.cause)) {
							t.Fatalf("err = %v, want ErrMaybeCreated (and %v)", err, tt.cause)
						}
						if got := s.count("POST", path); got != 1 {
							t.Errorf("creates sent = %d, want 1: a create is never repeated blindly", got)
						}
					}
					if got := cr.made(s, vpc) - preexisting(cr.name); got != want {
						t.Errorf("recovery %v: the server holds %d new, want %d", recovery, got, want)
					}
				}
			})
		}
	}
}

// preexisting is how many resources like the create's the test made
// before it: the peering with the same peer VPC but another region.
func preexisting(create string) int {
	if create == "Peerings.Create" {
		return 1
	}
	return 0
}

// A delete whose first attempt fails is retried; a retry answered 404
// because the first attempt did the work is a success.
func TestLiveDeleteFaults(t *testing.T) {
	for _, kind := range []string{"VPCs.Delete", "Peerings.Delete"} {
		for _, tt := range []struct {
			name  string
			fault faultKind
		}{
			{"answer lost", faultLostAnswer},
			{"503", fault503},
			{"reset", faultReset},
			{"held until the attempt timeout", faultHold},
		} {
			t.Run(kind+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				s := newLiveServer(t)
				vpc := s.addVPC("private", "10.0.0.0/16", "us-east-1")
				peering := s.addPeering(vpc, dbcloud.Peering{PeerAccountID: "1", PeerRegionCode: "us-east-1", PeerVPCID: "vpc-1"})
				c := s.client(t)
				path, del := "/projects/p1/vpcs/"+vpc, func() error { return c.VPCs.Delete(t.Context(), "p1", vpc) }
				if kind == "Peerings.Delete" {
					path, del = path+"/peerings/"+peering, func() error { return c.Peerings.Delete(t.Context(), "p1", vpc, peering) }
				}
				s.inject("DELETE", path, tt.fault, 1)
				if err := del(); err != nil {
					t.Fatalf("Delete: %v", err)
				}
				if got := s.count("DELETE", path); got != 2 {
					t.Errorf("deletes sent = %d, want 2 (the fault, then the retry)", got)
				}
				vpcs, peerings := s.state(vpc)
				if kind == "VPCs.Delete" && len(vpcs) != 0 || kind == "Peerings.Delete" && len(peerings) != 0 {
					t.Errorf("the server holds %v and %v after the delete", vpcs, peerings)
				}
			})
		}
	}
}

// A first attempt's own 404 is returned as it is: ErrNotFound.
func TestLiveDeleteOfNothingIsNotFound(t *testing.T) {
	s := newLiveServer(t)
	c := s.client(t)
	if err := c.VPCs.Delete(t.Context(), "p1", "999"); !errors.Is(err, dbcloud.ErrNotFound) {
		t.Errorf("VPCs.Delete: %v, want ErrNotFound", err)
	}
	vpc := s.addVPC("private", "10.0.0.0/16", "us-east-1")
	if err := c.Peerings.Delete(t.Context(), "p1", vpc, "pcx-404"); !errors.Is(err, dbcloud.ErrNotFound) {
		t.Errorf("Peerings.Delete: %v, want ErrNotFound", err)
	}
	if _, err := c.VPCs.Get(t.Context(), "p1", "999"); !errors.Is(err, dbcloud.ErrNotFound) {
		t.Errorf("VPCs.Get: %v, want ErrNotFound", err)
	}
}

func replaceVPC(path, vpc string) string {
	const placeholder = "{vpc}"
	for i := 0; i+len(placeholder) <= len(path); i++ {
		if path[i:i+len(placeholder)] == placeholder {
			return path[:i] + vpc + path[i+len(placeholder):]
		}
	}
	return path
}

// When two resources alike in all that tells them apart appear after an
// ambiguous create, recovery cannot tell which is this create's: it says
// so, naming both, and sends nothing more.
func TestLiveCreateRecoveryFindsTwo(t *testing.T) {
	for _, cr := range liveCreates {
		t.Run(cr.name, func(t *testing.T) {
			s := newLiveServer(t)
			vpc := s.addVPC("other", "10.9.0.0/16", "us-east-1")
			path := replaceVPC(cr.path, vpc)
			s.inject("POST", path, faultTwice, 1)
			_, err := cr.call(t.Context(), s.client(t, dbcloud.WithCreateRecovery()), vpc)
			var maybe *dbcloud.MaybeCreatedError
			if !errors.As(err, &maybe) || !errors.Is(err, dbcloud.ErrMaybeCreated) || len(maybe.IDs) != 2 {
				t.Fatalf("err = %v, want a *MaybeCreatedError naming two", err)
			}
			if got := cr.made(s, vpc); got != 2 {
				t.Errorf("the server holds %d, want the 2 named", got)
			}
			if got := s.count("POST", path); got != 1 {
				t.Errorf("creates sent = %d, want 1", got)
			}
		})
	}
}
