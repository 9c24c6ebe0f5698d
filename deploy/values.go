package deploy

import (
	"strconv"
	"strings"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// Values are the settings of a resource (a service, replica set, fork,
// VPC or peering), typed: what a create makes (a
// Change's To), what an update changes from and to (only the Change's
// Field is set), what a plan saw (Seen). A zero or nil field is not set:
// not managed, or not part of the change.
type Values struct {
	// Status is a dbcloud.ServiceStatus, a dbcloud.ReplicaSetStatus or a
	// dbcloud.PeeringStatus.
	Status string `json:"status,omitempty"`
	// Name is a VPC's name, which a rename changes.
	Name        string              `json:"name,omitempty"`
	Addons      []dbcloud.Addon     `json:"addons,omitempty"`
	RegionCode  string              `json:"region_code,omitempty"`
	Nodes       int                 `json:"nodes,omitempty"`
	CPUMillis   int                 `json:"cpu_millis,omitempty"`
	MemoryGBs   int                 `json:"memory_gbs,omitempty"`
	HAReplicas  *int                `json:"ha_replicas,omitempty"`
	Environment dbcloud.Environment `json:"environment,omitempty"`
	Pooler      *bool               `json:"pooler,omitempty"`
	// VPCID is the VPC the service is attached to; "" (not nil) is none.
	VPCID *string `json:"vpc_id,omitempty"`
	// VPC is the state's VPC (by its name) that a service is attached
	// to, when the plan does not know its id yet (it creates the VPC):
	// a run attaches to the id the VPC's create gives it.
	VPC string `json:"vpc,omitempty"`
	// CIDR is a VPC's IPv4 range, as a create sends it.
	CIDR string `json:"cidr,omitempty"`
	// PeerAccountID, PeerRegionCode and PeerVPCID are a peering's peer.
	PeerAccountID  string               `json:"peer_account_id,omitempty"`
	PeerRegionCode string               `json:"peer_region_code,omitempty"`
	PeerVPCID      string               `json:"peer_vpc_id,omitempty"`
	Strategy       dbcloud.ForkStrategy `json:"strategy,omitempty"`
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
	if v.CIDR != "" {
		parts = append(parts, v.CIDR)
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
