package main

import (
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// A fleet file with a VPC, its peering, and two services attached to it by
// its name.
const vpcFile = `{
  "vpcs": [
    {"name": "net", "cidr": "10.0.0.0/16", "region_code": "us-east-1",
     "peerings": [{"peer_account_id": "123456789012", "peer_region_code": "eu-central-1", "peer_vpc_id": "vpc-0a1b2c3d"}]}
  ],
  "services": [
    {"name": "api", "vpc": "net"},
    {"name": "worker", "vpc": "net"}
  ]
}`

// The command on a file with a VPC: plan (exit 2, the VPC and its peering
// first), apply (exit 0, a line naming the VPC, the peering and each
// service), plan again (exit 0, no changes), destroy (exit 0, the VPC
// last, before the summary line; nothing left).
func TestVPCPlanApplyDestroy(t *testing.T) {
	s := newSession(t, dbcloudtest.WithPeerAcceptance(0))
	state := s.file("net.json", vpcFile)
	code, out, _ := s.run("plan", state)
	if code != exitChanges || !strings.HasPrefix(out, `project proj-fake: 6 change(s)
  + create VPC "net": 10.0.0.0/16, region us-east-1
  + create VPC peering "123456789012/eu-central-1/vpc-0a1b2c3d" of "net"
`) || !strings.Contains(out, `~ update service "worker": vpc none -> "net"`) {
		t.Fatalf("plan: exit %d\n%s", code, out)
	}
	code, _, errOut := s.run("apply", state, "-password-file", s.path("passwords"))
	for _, line := range []string{`+ create VPC "net" (`, `+ create VPC peering "123456789012/eu-central-1/vpc-0a1b2c3d" of "net" (`, `~ update service "api" (`} {
		if !strings.Contains(errOut, line) {
			t.Errorf("apply: no line %q", line)
		}
	}
	if code != exitOK {
		t.Fatalf("apply: exit %d\n%s", code, errOut)
	}
	if code, out, _ := s.run("plan", state); code != exitOK || out != "project proj-fake: no changes\n" {
		t.Errorf("plan after apply: exit %d\n%s", code, out)
	}
	code, _, errOut = s.run("destroy", state)
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if code != exitOK || len(lines) < 4 || !strings.HasPrefix(lines[len(lines)-2], `- delete VPC "net" (`) || len(s.srv.Services()) != 0 {
		t.Errorf("destroy: exit %d, %d services left\n%s", code, len(s.srv.Services()), errOut)
	}
	s.checkNoPassword(s.passwords("passwords"))
}
