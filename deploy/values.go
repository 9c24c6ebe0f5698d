package deploy

import (
	"fmt"
	"strconv"
	"strings"
	"time"

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
	// FieldNodes and FieldType name what the API cannot change: a
	// replica set's node count and a service's type (its addons). Only
	// problems name them.
	FieldNodes Field = "nodes"
	FieldType  Field = "type"
)

// Values are the settings of a resource, typed: what a create makes (a
// Change's To), what an update changes from and to (only the Change's
// Field is set), what a plan saw (Seen). A zero or nil field is not set:
// not managed, or not part of the change.
type Values struct {
	// Status is a dbcloud.ServiceStatus or a dbcloud.ReplicaSetStatus.
	Status      string              `json:"status,omitempty"`
	Addons      []dbcloud.Addon     `json:"addons,omitempty"`
	RegionCode  string              `json:"region_code,omitempty"`
	Nodes       int                 `json:"nodes,omitempty"`
	CPUMillis   int                 `json:"cpu_millis,omitempty"`
	MemoryGBs   int                 `json:"memory_gbs,omitempty"`
	HAReplicas  *int                `json:"ha_replicas,omitempty"`
	Environment dbcloud.Environment `json:"environment,omitempty"`
	Pooler      *bool               `json:"pooler,omitempty"`
	// VPCID is the VPC the service is attached to; "" (not nil) is none.
	VPCID    *string              `json:"vpc_id,omitempty"`
	Strategy dbcloud.ForkStrategy `json:"strategy,omitempty"`
	// TargetTime is a PITR fork's target; zero with dbcloud.ForkPITR is
	// the moment the fork step runs.
	TargetTime time.Time `json:"target_time,omitzero"`
}

// text is the value of one field as a plan line shows it and as
// preconditions compare it; "" when v does not set it.
func (v *Values) text(f Field) string {
	if v == nil {
		return ""
	}
	switch f {
	case FieldStatus:
		return v.Status
	case FieldSize:
		if v.CPUMillis == 0 && v.MemoryGBs == 0 {
			return ""
		}
		return fmt.Sprintf("%dm CPU / %d GB", v.CPUMillis, v.MemoryGBs)
	case FieldHAReplicas:
		if v.HAReplicas == nil {
			return ""
		}
		return strconv.Itoa(*v.HAReplicas)
	case FieldEnvironment:
		return string(v.Environment)
	case FieldPooler:
		switch {
		case v.Pooler == nil:
			return ""
		case *v.Pooler:
			return "on"
		}
		return "off"
	case FieldVPC:
		switch {
		case v.VPCID == nil:
			return ""
		case *v.VPCID == "":
			return "none"
		}
		return *v.VPCID
	case FieldNodes:
		if v.Nodes == 0 {
			return ""
		}
		return strconv.Itoa(v.Nodes)
	}
	return ""
}

// only returns the part of v that is field f.
func (v *Values) only(f Field) *Values {
	out := &Values{}
	out.copyField(f, v)
	return out
}

// copyField sets field f of v to src's.
func (v *Values) copyField(f Field, src *Values) {
	switch f {
	case FieldStatus:
		v.Status = src.Status
	case FieldSize:
		v.CPUMillis, v.MemoryGBs = src.CPUMillis, src.MemoryGBs
	case FieldHAReplicas:
		v.HAReplicas = src.HAReplicas
	case FieldEnvironment:
		v.Environment = src.Environment
	case FieldPooler:
		v.Pooler = src.Pooler
	case FieldVPC:
		v.VPCID = src.VPCID
	case FieldNodes:
		v.Nodes = src.Nodes
	}
}

// managed returns the fields of have that want sets, in the order of
// fields: what a plan records of a resource as it saw it.
func managed(want, have *Values, fields []Field) *Values {
	out := &Values{}
	for _, f := range fields {
		if want.text(f) != "" {
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

// setValues are the settings of a replica set as read.
func setValues(rs *dbcloud.ReadReplicaSet) *Values {
	return &Values{Status: string(rs.Status), Nodes: rs.Nodes, CPUMillis: rs.CPUMillis, MemoryGBs: rs.MemoryGBs,
		Environment: rs.Environment(), Pooler: new(rs.ConnectionPooler != nil)}
}

// describe is a create's values as a plan line shows them.
func (v *Values) describe() string {
	var parts []string
	if v.Strategy != "" {
		s := string(v.Strategy)
		if v.Strategy == dbcloud.ForkPITR {
			if v.TargetTime.IsZero() {
				s += " as of when the fork step runs"
			} else {
				s += " as of " + v.TargetTime.UTC().Format(time.RFC3339)
			}
		}
		parts = append(parts, s)
	}
	if len(v.Addons) > 0 {
		var as []string
		for _, a := range v.Addons {
			as = append(as, string(a))
		}
		parts = append(parts, "addons "+strings.Join(as, ","))
	}
	if v.Nodes > 0 {
		parts = append(parts, strconv.Itoa(v.Nodes)+" node(s)")
	}
	if s := v.text(FieldSize); s != "" {
		parts = append(parts, s)
	}
	if v.HAReplicas != nil {
		parts = append(parts, strconv.Itoa(*v.HAReplicas)+" HA replica(s)")
	}
	if v.Environment != "" {
		parts = append(parts, string(v.Environment))
	}
	if v.RegionCode != "" {
		parts = append(parts, "region "+v.RegionCode)
	}
	return strings.Join(parts, ", ")
}
