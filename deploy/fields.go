package deploy

import (
	"cmp"
	"context"
	"fmt"
	"net/netip"
	"strconv"

	"github.com/dbcloud/dbcloud-go"
)

// Field names what an update changes, a problem is about, or a stale plan
// found changed.
type Field string

// The fields of a change or a problem.
const (
	// FieldStatus is a service's or replica set's status: a paused
	// service is started; one in passing (QUEUED, CONFIGURING...) or a set
	// creating or resizing is waited for until READY (active).
	FieldStatus      Field = "status"
	FieldSize        Field = "size" // CPU and memory
	FieldHAReplicas  Field = "ha_replicas"
	FieldEnvironment Field = "environment"
	FieldPooler      Field = "pooler"
	FieldVPC         Field = "vpc"
	// FieldName is a VPC's name: a plan renames a VPC that its state
	// names by id.
	FieldName Field = "name"
	// FieldNodes, FieldType, FieldCIDR and FieldRegion name what the API
	// cannot change: a replica set's node count, a service's type (its
	// addons), a VPC's range and region. Only problems name them.
	FieldNodes  Field = "nodes"
	FieldType   Field = "type"
	FieldCIDR   Field = "cidr"
	FieldRegion Field = "region"
)

// field is how one Field of Values is compared, copied, shown and sent
// (serviceValues and setValues, below, read them from a resource): the
// planner, a saved plan's check, the preconditions and the steps all go
// through this table, and nothing compares a field's text.
type field struct {
	// value is the field's value in v, comparable with ==, and whether v
	// sets it.
	value func(v *Values) (any, bool)
	// copy sets the field of dst to src's.
	copy func(dst, src *Values)
	// show is the set value as a plan line shows it.
	show func(v *Values) string
	// send sends the update of the field from from to to, to the resource
	// at; nil for a field no request changes (a status, which a run waits
	// for).
	send func(ctx context.Context, c *dbcloud.Client, at target, from, to *Values) error
}

// target is the resource an update is sent to: a service, a replica set
// (set) of a service, or a VPC (vpc).
type target struct{ project, service, set, vpc string }

// stateVPC is the value of FieldVPC for an attachment to a VPC of the
// state that the plan creates, whose id a run learns: no id read equals
// it.
type stateVPC string

// fieldDefs are the fields of Values that a change, a plan's Seen or a stale
// plan names.
var fieldDefs = map[Field]field{
	FieldStatus: {
		value: func(v *Values) (any, bool) { return v.Status, v.Status != "" },
		copy:  func(dst, src *Values) { dst.Status = src.Status },
		show:  func(v *Values) string { return v.Status },
	},
	FieldSize: {
		value: func(v *Values) (any, bool) {
			return [2]int{v.CPUMillis, v.MemoryGBs}, v.CPUMillis != 0 || v.MemoryGBs != 0
		},
		copy: func(dst, src *Values) { dst.CPUMillis, dst.MemoryGBs = src.CPUMillis, src.MemoryGBs },
		show: func(v *Values) string { return fmt.Sprintf("%dm CPU / %d GB", v.CPUMillis, v.MemoryGBs) },
		send: func(ctx context.Context, c *dbcloud.Client, at target, _, to *Values) error {
			req := &dbcloud.ResizeRequest{CPUMillis: to.CPUMillis, MemoryGBs: to.MemoryGBs}
			if at.set != "" {
				return c.ReplicaSets.Resize(ctx, at.project, at.service, at.set, req)
			}
			_, err := c.Services.Resize(ctx, at.project, at.service, req)
			return err
		},
	},
	FieldHAReplicas: {
		value: func(v *Values) (any, bool) { return deref(v.HAReplicas), v.HAReplicas != nil },
		copy:  func(dst, src *Values) { dst.HAReplicas = src.HAReplicas },
		show:  func(v *Values) string { return strconv.Itoa(*v.HAReplicas) },
		send: func(ctx context.Context, c *dbcloud.Client, at target, _, to *Values) error {
			_, err := c.Services.SetHA(ctx, at.project, at.service, &dbcloud.SetHARequest{ReplicaCount: to.HAReplicas})
			return err
		},
	},
	FieldEnvironment: {
		value: func(v *Values) (any, bool) { return v.Environment, v.Environment != "" },
		copy:  func(dst, src *Values) { dst.Environment = src.Environment },
		show:  func(v *Values) string { return string(v.Environment) },
		send: func(ctx context.Context, c *dbcloud.Client, at target, _, to *Values) error {
			if at.set != "" {
				return c.ReplicaSets.SetEnvironment(ctx, at.project, at.service, at.set, to.Environment)
			}
			return c.Services.SetEnvironment(ctx, at.project, at.service, to.Environment)
		},
	},
	FieldPooler: {
		value: func(v *Values) (any, bool) { return deref(v.Pooler), v.Pooler != nil },
		copy:  func(dst, src *Values) { dst.Pooler = src.Pooler },
		show:  func(v *Values) string { return map[bool]string{true: "on", false: "off"}[*v.Pooler] },
		send: func(ctx context.Context, c *dbcloud.Client, at target, _, to *Values) error {
			switch {
			case at.set != "" && *to.Pooler:
				return c.ReplicaSets.EnablePooler(ctx, at.project, at.service, at.set)
			case at.set != "":
				return c.ReplicaSets.DisablePooler(ctx, at.project, at.service, at.set)
			case *to.Pooler:
				return c.Services.EnablePooler(ctx, at.project, at.service)
			}
			return c.Services.DisablePooler(ctx, at.project, at.service)
		},
	},
	FieldVPC: {
		value: func(v *Values) (any, bool) {
			if v.VPCID == nil && v.VPC != "" {
				return stateVPC(v.VPC), true
			}
			return deref(v.VPCID), v.VPCID != nil
		},
		copy: func(dst, src *Values) { dst.VPCID, dst.VPC = src.VPCID, src.VPC },
		show: func(v *Values) string {
			switch {
			case v.VPC != "" && v.VPCID != nil:
				return fmt.Sprintf("%q (%s)", v.VPC, *v.VPCID)
			case v.VPC != "":
				return strconv.Quote(v.VPC)
			}
			return cmp.Or(*v.VPCID, "none")
		},
		// to's VPCID is set: a run resolves an attachment to a VPC it
		// creates (see run.resolve) before it sends it.
		send: func(ctx context.Context, c *dbcloud.Client, at target, from, to *Values) error {
			if *to.VPCID != "" {
				return c.Services.AttachToVPC(ctx, at.project, at.service, *to.VPCID)
			}
			return c.Services.DetachFromVPC(ctx, at.project, at.service, *from.VPCID)
		},
	},
	FieldName: {
		value: func(v *Values) (any, bool) { return v.Name, v.Name != "" },
		copy:  func(dst, src *Values) { dst.Name = src.Name },
		show:  func(v *Values) string { return strconv.Quote(v.Name) },
		send: func(ctx context.Context, c *dbcloud.Client, at target, _, to *Values) error {
			return c.VPCs.Rename(ctx, at.project, at.vpc, to.Name)
		},
	},
	FieldNodes: {
		value: func(v *Values) (any, bool) { return v.Nodes, v.Nodes != 0 },
		copy:  func(dst, src *Values) { dst.Nodes = src.Nodes },
		show:  func(v *Values) string { return strconv.Itoa(v.Nodes) },
	},
	FieldCIDR: {
		// The range as netip writes it: the API may write it its own way.
		value: func(v *Values) (any, bool) {
			if p, err := netip.ParsePrefix(v.CIDR); err == nil {
				return p.Masked(), true
			}
			return v.CIDR, v.CIDR != ""
		},
		copy: func(dst, src *Values) { dst.CIDR = src.CIDR },
		show: func(v *Values) string { return v.CIDR },
	},
	FieldRegion: {
		value: func(v *Values) (any, bool) { return v.RegionCode, v.RegionCode != "" },
		copy:  func(dst, src *Values) { dst.RegionCode = src.RegionCode },
		show:  func(v *Values) string { return v.RegionCode },
	},
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// has reports whether v sets field f.
func (v *Values) has(f Field) bool {
	if v == nil {
		return false
	}
	fd, ok := fieldDefs[f]
	if !ok {
		return false
	}
	_, set := fd.value(v)
	return set
}

// same reports whether v and o both set field f, to the same value.
func (v *Values) same(f Field, o *Values) bool {
	if !v.has(f) || !o.has(f) {
		return false
	}
	a, _ := fieldDefs[f].value(v)
	b, _ := fieldDefs[f].value(o)
	return a == b
}

// show is field f of v as a plan line shows it: "none" when v does not
// set it.
func (v *Values) show(f Field) string {
	if !v.has(f) {
		return "none"
	}
	return fieldDefs[f].show(v)
}

// only returns the part of v that is field f.
func (v *Values) only(f Field) *Values {
	out := &Values{}
	out.copyField(f, v)
	return out
}

// copyField sets field f of v to src's.
func (v *Values) copyField(f Field, src *Values) {
	if fd, ok := fieldDefs[f]; ok && src != nil {
		fd.copy(v, src)
	}
}

// managed returns the fields of have that want sets, in the order of
// fields: what a plan records of a resource as it saw it.
func managed(want, have *Values, fields []Field) *Values {
	out := &Values{}
	for _, f := range fields {
		if want.has(f) {
			out.copyField(f, have)
		}
	}
	return out
}

// The fields a state manages, in the order of a plan's updates.
var (
	serviceFields = []Field{FieldSize, FieldHAReplicas, FieldEnvironment, FieldPooler, FieldVPC}
	setFields     = []Field{FieldSize, FieldEnvironment, FieldPooler}
)

// serviceValues are the settings of a service (or fork) as read.
func serviceValues(svc *dbcloud.Service) *Values {
	cpu, mem := svc.Size()
	vpc := ""
	if svc.VPCEndpoint != nil {
		vpc = svc.VPCEndpoint.VPCID
	}
	return &Values{Status: string(svc.Status), CPUMillis: cpu, MemoryGBs: mem, HAReplicas: new(svc.ReplicaCount()),
		Environment: svc.Environment(), Pooler: new(svc.ConnectionPooler != nil), VPCID: &vpc}
}

// vpcValues are the settings of a VPC as read.
func vpcValues(v *dbcloud.VPC) *Values {
	return &Values{Name: v.Name, CIDR: v.CIDR, RegionCode: v.RegionCode}
}

// peeringValues are the settings of a peering as read.
func peeringValues(p *dbcloud.Peering) *Values {
	return &Values{Status: string(p.Status), PeerAccountID: p.PeerAccountID, PeerRegionCode: p.PeerRegionCode, PeerVPCID: p.PeerVPCID}
}

// setValues are the settings of a replica set as read.
func setValues(rs *dbcloud.ReadReplicaSet) *Values {
	return &Values{Status: string(rs.Status), Nodes: rs.Nodes, CPUMillis: rs.CPUMillis, MemoryGBs: rs.MemoryGBs,
		Environment: rs.Environment(), Pooler: new(rs.ConnectionPooler != nil)}
}
