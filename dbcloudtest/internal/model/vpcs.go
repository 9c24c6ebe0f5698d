package model

import (
	"slices"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/wire"
)

// The VPCs of a project. A VPC has no lifecycle status: it exists from its
// create's answer on and is gone at its delete's. Each operation runs
// inside Update, with a body already checked.

// VPC is one VPC of a project, with its peering connections.
type VPC struct {
	id, project, name, cidr, region string
	peerings                        []*Peering // creation order
}

// VPCSpec is what a VPC's create asks for, read and checked.
type VPCSpec struct{ Name, CIDR, Region string }

// View renders the VPC as a GET of it answers.
func (v *VPC) View() wire.VPC {
	return wire.VPC{ID: v.id, Name: v.name, CIDR: v.cidr, RegionCode: v.region}
}

// VPCs renders every VPC of a project, oldest first.
func (m *Model) VPCs(project string) []wire.VPC {
	out := []wire.VPC{}
	for _, v := range m.vpcs {
		if v.project == project {
			out = append(out, v.View())
		}
	}
	return out
}

// FindVPC finds a VPC of a project by id; inside Update.
func (m *Model) FindVPC(project, id string) (*VPC, error) {
	for _, v := range m.vpcs {
		if v.id == id && v.project == project {
			return v, nil
		}
	}
	return nil, apierr.NotFound("vpc", id)
}

// CreateVPC makes a VPC and renders it as the create answers.
func (m *Model) CreateVPC(project string, spec VPCSpec) wire.VPC {
	v := &VPC{id: m.uniqueDigitID(), project: project, name: spec.Name, cidr: spec.CIDR, region: spec.Region}
	m.vpcs = append(m.vpcs, v)
	return v.View()
}

// Rename gives a VPC a new name.
func (v *VPC) Rename(name string) { v.name = name }

// DeleteVPC removes a VPC and its peering connections at once. A service
// attached to it must be detached first (409), unless it is being deleted:
// such a service loses its attachment with the VPC.
func (m *Model) DeleteVPC(v *VPC, now time.Time) error {
	for _, s := range m.services {
		if st := s.sched.current(now); s.vpcID == v.id && st != statusDeleting && st != statusDeleted {
			return apierr.Conflict("vpc "+v.id+" has services attached: detach them first", "service "+s.id)
		}
	}
	for _, s := range m.services {
		if s.vpcID == v.id {
			s.vpcID = ""
		}
	}
	m.vpcs = slices.DeleteFunc(m.vpcs, func(x *VPC) bool { return x == v })
	return nil
}
