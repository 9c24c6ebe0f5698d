package deploy

import (
	"strconv"
	"strings"
	"time"

	"github.com/dbcloud/dbcloud-go"
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
	if v.has(FieldSize) {
		parts = append(parts, v.show(FieldSize))
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
