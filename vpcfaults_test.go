package dbcloud_test

import (
	"context"
	"errors"
	"testing"

	"github.com/dbcloud/dbcloud-go"
)

// The fault of the creates of VPCs and peerings that dbcloudtest does not
// inject (a create handled twice), on real sockets: what the caller gets,
// how many requests the server saw, and what it ended up with. The lost
// answers, 503s, resets and held connections, and a delete's own 404, are
// e2e_vpcfaults_test.go's, on dbcloudtest.

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
	t.Parallel()
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
