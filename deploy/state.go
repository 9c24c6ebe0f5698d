package deploy

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// State is what should exist in a project: its fleet of services, each
// with its read replica sets and its forks, and the VPCs they attach to,
// each with its peering connections. A field left zero is not managed: a
// run leaves that setting as it is (or as the API makes it, at creation).
// A service or VPC of the project that the state does not name is left
// alone, unless PruneServices (PruneVPCs).
type State struct {
	// ProjectID is the project; "" is the client's (dbcloud.WithProjectID).
	ProjectID string    `json:"project_id,omitempty"`
	Services  []Service `json:"services"`
	// VPCs are the project's VPCs the state manages: a run makes each
	// before any service attaches to it.
	VPCs []VPC `json:"vpcs,omitempty"`
	// Prune deletes, of each service of the state, the replica sets and
	// forks that the state does not name, and of each VPC of the state,
	// the peering connections it does not name. Off by default: a deploy
	// deletes only when told to.
	Prune bool `json:"prune,omitempty"`
	// PruneServices deletes the project's services that the state does
	// not name (a fork of a service of the state is Prune's, not this
	// one's): deleting a service, and its data, is never a side effect of
	// Prune.
	PruneServices bool `json:"prune_services,omitempty"`
	// PruneVPCs deletes the project's VPCs that the state does not name
	// (neither in VPCs nor by a service's VPCID), once every service
	// attached to them is detached: a VPC, and the private network of the
	// services on it, is never deleted as a side effect of another prune.
	PruneVPCs bool `json:"prune_vpcs,omitempty"`
	// Protected names services and VPCs that no plan of this state
	// deletes, named by the state or not: a plan that would
	// (PruneServices, PruneVPCs, a destroy) has a Problem instead, as
	// Terraform's prevent_destroy.
	Protected []string `json:"protected,omitempty"`
}

// Service is a service of a State, with its replica sets and forks.
type Service struct {
	Name string `json:"name"` // required; the service's identity in the project
	// Addons decide the service's type, at creation (see dbcloud.Addon).
	// An existing service of another type than addons given here make is
	// a problem, since a type cannot change; none given manages nothing.
	Addons []dbcloud.Addon `json:"addons,omitempty"`
	// RegionCode is used at creation only; "" lets the API choose.
	RegionCode string `json:"region_code,omitempty"`
	// CPUMillis and MemoryGBs are the size, both or neither; 0: not
	// managed.
	CPUMillis int `json:"cpu_millis,omitempty"`
	MemoryGBs int `json:"memory_gbs,omitempty"`
	// HAReplicas is the number of HA replicas; nil: not managed.
	HAReplicas *int `json:"ha_replicas,omitempty"`
	// Pooler is whether the connection pooler is on; nil: not managed.
	Pooler      *bool               `json:"pooler,omitempty"`
	Environment dbcloud.Environment `json:"environment,omitempty"` // "": not managed (the API creates DEV)
	// VPC names the VPC of the state (its VPC.Name) the service is
	// attached to, and VPCID a VPC by its id; one or neither: "" for
	// both is not managed. A service attached to another VPC is detached
	// from it, then attached: two changes of the plan.
	VPC         string       `json:"vpc,omitempty"`
	VPCID       string       `json:"vpc_id,omitempty"`
	ReplicaSets []ReplicaSet `json:"replica_sets,omitempty"`
	// Forks are forks of this service: a run makes them once the service
	// is as the state wants it.
	Forks []Fork `json:"forks,omitempty"`
}

// ReplicaSet is a read replica set of a service.
type ReplicaSet struct {
	Name string `json:"name"` // required; the set's identity in the service
	// Nodes, CPUMillis and MemoryGBs are required to create the set, and
	// only then: an existing set named with none is kept at its size. The
	// API has no call that changes Nodes: an existing set with other Nodes
	// is a problem; a size (both or neither) is resized to.
	Nodes       int                 `json:"nodes,omitempty"`
	CPUMillis   int                 `json:"cpu_millis,omitempty"`
	MemoryGBs   int                 `json:"memory_gbs,omitempty"`
	Pooler      *bool               `json:"pooler,omitempty"`      // nil: not managed
	Environment dbcloud.Environment `json:"environment,omitempty"` // "": not managed (a set starts with its service's)
}

// Fork is a fork of the service that lists it, its parent. A fork is made
// once, and every field but Name is used at its creation only: an existing
// fork (found by name and parent) is kept as it is, since the API reports
// neither its strategy nor its target, and a copy made for a purpose is
// the user's to change.
type Fork struct {
	Name     string               `json:"name"`     // required; the fork's identity with its parent
	Strategy dbcloud.ForkStrategy `json:"strategy"` // required
	// TargetTime is the instant a dbcloud.ForkPITR fork restores (see
	// dbcloud.ForkServiceRequest.TargetTime for the API's window). Zero
	// with ForkPITR means the moment the fork step runs, once the parent
	// is READY: the parent as this run left it.
	TargetTime  time.Time           `json:"target_time,omitzero"`
	CPUMillis   int                 `json:"cpu_millis,omitempty"` // 0: the parent's
	MemoryGBs   int                 `json:"memory_gbs,omitempty"`
	Environment dbcloud.Environment `json:"environment,omitempty"` // "": the API's default, DEV
}

// VPC is a VPC of a State, with its peering connections. Its CIDR and
// region are chosen at creation and never change: an existing VPC with
// others is a problem.
type VPC struct {
	// Name is required: the VPC's identity in the project, and the name
	// a Service's VPC gives.
	Name string `json:"name"`
	// ID, when given, finds the VPC by its id instead of its name, and
	// renames it to Name when its name is another: the one way a plan
	// renames a VPC.
	ID string `json:"id,omitempty"`
	// CIDR (an IPv4 range such as "10.0.0.0/16") and RegionCode are
	// required.
	CIDR       string    `json:"cidr"`
	RegionCode string    `json:"region_code"`
	Peerings   []Peering `json:"peerings,omitempty"`
}

// Peering is a peering connection of a VPC with a VPC in another cloud
// account, found by its three peer fields, all required: the API gives a
// connection no name. A run creates it and waits until the peer's side
// has accepted it (active); one that fails ends its run's chain with the
// API's message.
type Peering struct {
	PeerAccountID  string `json:"peer_account_id"`
	PeerRegionCode string `json:"peer_region_code"`
	PeerVPCID      string `json:"peer_vpc_id"`
}

// name is the peering's name in a plan: its peer, account/region/VPC.
func (p *Peering) name() string { return p.PeerAccountID + "/" + p.PeerRegionCode + "/" + p.PeerVPCID }

// values are what the peering's create sends.
func (p *Peering) values() *Values {
	return &Values{PeerAccountID: p.PeerAccountID, PeerRegionCode: p.PeerRegionCode, PeerVPCID: p.PeerVPCID}
}

// vpc returns the state's VPC of a name, nil when it names none.
func (s *State) vpc(name string) *VPC {
	i := slices.IndexFunc(s.VPCs, func(v VPC) bool { return v.Name == name })
	if i < 0 {
		return nil
	}
	return &s.VPCs[i]
}

// vpcNamed reports whether the state names the VPC of a name and id: in
// VPCs, or by a service's VPCID.
func (s *State) vpcNamed(name, id string) bool {
	return slices.ContainsFunc(s.VPCs, func(v VPC) bool { return v.ID == id || v.ID == "" && v.Name == name }) ||
		slices.ContainsFunc(s.Services, func(svc Service) bool { return svc.VPCID == id })
}

// service returns the state's service of a name, nil when it names none.
func (s *State) service(name string) *Service {
	i := slices.IndexFunc(s.Services, func(svc Service) bool { return svc.Name == name })
	if i < 0 {
		return nil
	}
	return &s.Services[i]
}

// check returns what is wrong with the state itself, before any request.
func (s *State) check() error {
	if len(s.Services) == 0 && len(s.VPCs) == 0 {
		return fmt.Errorf("deploy: the state names no service and no VPC")
	}
	names := map[string]string{} // every service and fork name, to what it is
	for i := range s.Services {
		svc := &s.Services[i]
		if svc.Name == "" || names[svc.Name] != "" {
			return fmt.Errorf("deploy: service name %q is empty or repeated", svc.Name)
		}
		names[svc.Name] = "service"
	}
	for i := range s.Services {
		if err := s.Services[i].check(names); err != nil {
			return err
		}
		if svc := &s.Services[i]; svc.VPC != "" && (svc.VPCID != "" || s.vpc(svc.VPC) == nil) {
			return fmt.Errorf("deploy: service %q: vpc %q is not a VPC of the state, or vpc_id is given too", svc.Name, svc.VPC)
		}
	}
	return s.checkVPCs()
}

// checkVPCs returns what is wrong with the state's VPCs.
func (s *State) checkVPCs() error {
	names, ids := map[string]bool{}, map[string]bool{}
	for _, v := range s.VPCs {
		if v.Name == "" || names[v.Name] || v.ID != "" && ids[v.ID] {
			return fmt.Errorf("deploy: VPC name %q (id %q) is empty or repeated", v.Name, v.ID)
		}
		names[v.Name], ids[v.ID] = true, v.ID != ""
		if p, err := netip.ParsePrefix(v.CIDR); err != nil || !p.Addr().Is4() || p.Masked() != p || v.RegionCode == "" {
			return fmt.Errorf("deploy: VPC %q: cidr %q is not an IPv4 range such as 10.0.0.0/16, or region_code is empty", v.Name, v.CIDR)
		}
		peers := map[string]bool{}
		for _, p := range v.Peerings {
			// A "/" would make two peers one name (see Peering.name).
			if p.PeerAccountID == "" || p.PeerRegionCode == "" || p.PeerVPCID == "" || strings.Count(p.name(), "/") != 2 || peers[p.name()] {
				return fmt.Errorf("deploy: VPC %q: peering %q lacks a peer field, has a \"/\" in one, or is repeated", v.Name, p.name())
			}
			peers[p.name()] = true
		}
	}
	return nil
}

// check returns what is wrong with one service of the state; names are
// the names of the state's services and of the forks checked so far,
// which a fork's name must not repeat.
func (svc *Service) check(names map[string]string) error {
	if (svc.CPUMillis == 0) != (svc.MemoryGBs == 0) {
		return fmt.Errorf("deploy: service %q: CPUMillis and MemoryGBs go together", svc.Name)
	}
	// What the API would refuse is refused here, before a run's first
	// step rather than at the step that sends it.
	for _, a := range svc.Addons {
		if a != dbcloud.AddonTimeSeries && a != dbcloud.AddonAI {
			return fmt.Errorf("deploy: service %q: addon %q is neither %q nor %q", svc.Name, a, dbcloud.AddonTimeSeries, dbcloud.AddonAI)
		}
	}
	if err := checkEnvironment(dbcloud.KindService, svc.Name, svc.Environment); err != nil {
		return err
	}
	if svc.CPUMillis < 0 || svc.MemoryGBs < 0 || svc.HAReplicas != nil && *svc.HAReplicas < 0 {
		return fmt.Errorf("deploy: service %q: a size or a number of HA replicas is negative", svc.Name)
	}
	seen := map[string]bool{}
	for _, rs := range svc.ReplicaSets {
		if rs.Name == "" || seen[rs.Name] {
			return fmt.Errorf("deploy: service %q: replica set name %q is empty or repeated", svc.Name, rs.Name)
		}
		seen[rs.Name] = true
		if (rs.CPUMillis == 0) != (rs.MemoryGBs == 0) || rs.Nodes < 0 || rs.CPUMillis < 0 || rs.MemoryGBs < 0 {
			return fmt.Errorf("deploy: replica set %q: CPUMillis and MemoryGBs go together, and no size is negative", rs.Name)
		}
		if err := checkEnvironment(dbcloud.KindReplicaSet, rs.Name, rs.Environment); err != nil {
			return err
		}
	}
	for _, f := range svc.Forks {
		if f.Name == "" || names[f.Name] != "" {
			return fmt.Errorf("deploy: service %q: fork name %q is empty, or repeats a service's or fork's of the state", svc.Name, f.Name)
		}
		names[f.Name] = "fork"
		if err := forkRequest(f.Name, f.values(), time.Now()).Validate(nil); err != nil {
			return fmt.Errorf("deploy: fork %q: %w", f.Name, err)
		}
	}
	return nil
}

// checkEnvironment refuses an environment tag the API does not have.
func checkEnvironment(kind dbcloud.ResourceKind, name string, env dbcloud.Environment) error {
	if env != "" && env != dbcloud.EnvironmentDev && env != dbcloud.EnvironmentProd {
		return fmt.Errorf("deploy: %s %q: environment %q is neither %s nor %s", kind, name, env, dbcloud.EnvironmentDev, dbcloud.EnvironmentProd)
	}
	return nil
}

// wanted are the settings the state manages of the service.
func (svc *Service) wanted() *Values {
	v := &Values{CPUMillis: svc.CPUMillis, MemoryGBs: svc.MemoryGBs, HAReplicas: svc.HAReplicas, Environment: svc.Environment, Pooler: svc.Pooler, VPC: svc.VPC}
	if svc.VPCID != "" {
		v.VPCID = &svc.VPCID
	}
	return v
}

// created is what the service's create sends.
func (svc *Service) created() *Values {
	return &Values{Addons: svc.Addons, RegionCode: svc.RegionCode, CPUMillis: svc.CPUMillis, MemoryGBs: svc.MemoryGBs,
		HAReplicas: svc.HAReplicas, Environment: svc.Environment}
}

// wanted are the settings the state manages of the set.
func (rs *ReplicaSet) wanted() *Values {
	return &Values{CPUMillis: rs.CPUMillis, MemoryGBs: rs.MemoryGBs, Environment: rs.Environment, Pooler: rs.Pooler}
}

// values is what the fork's create sends.
func (f *Fork) values() *Values {
	return &Values{Strategy: f.Strategy, TargetTime: f.TargetTime, CPUMillis: f.CPUMillis, MemoryGBs: f.MemoryGBs, Environment: f.Environment}
}

// forkRequest is the create request of a fork of values v, a zero PITR
// target being now.
func forkRequest(name string, v *Values, now time.Time) *dbcloud.ForkServiceRequest {
	req := &dbcloud.ForkServiceRequest{Strategy: v.Strategy, TargetTime: v.TargetTime, Name: name,
		CPUMillis: v.CPUMillis, MemoryGBs: v.MemoryGBs, EnvironmentTag: v.Environment}
	if v.Strategy == dbcloud.ForkPITR && req.TargetTime.IsZero() {
		req.TargetTime = now
	}
	return req
}
