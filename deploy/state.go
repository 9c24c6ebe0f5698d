package deploy

import (
	"fmt"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// State is what should exist in a project: one service, its read replica
// sets and its forks. A field left zero is not managed: a run leaves that
// setting as it is (or as the API makes it, at creation).
type State struct {
	// ProjectID is the project; "" is the client's (dbcloud.WithProjectID).
	ProjectID   string       `json:"project_id,omitempty"`
	Service     Service      `json:"service"`
	ReplicaSets []ReplicaSet `json:"replica_sets,omitempty"`
	Forks       []Fork       `json:"forks,omitempty"`
	// Prune deletes the service's replica sets and forks that the state
	// does not name. Off by default: a deploy deletes only when told to.
	Prune bool `json:"prune,omitempty"`
}

// Service is the service of a State.
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
	// VPCID is the VPC the service is attached to; "": not managed. A
	// service attached to another VPC is detached from it, then attached:
	// two changes of the plan.
	VPCID string `json:"vpc_id,omitempty"`
}

// ReplicaSet is a read replica set of the service.
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

// Fork is a fork of the service. A fork is made once, and every field but
// Name is used at its creation only: an existing fork (found by name and
// parent) is kept as it is, since the API reports neither its strategy nor
// its target, and a copy made for a purpose is the user's to change.
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

// check returns what is wrong with the state itself, before any request.
func (s *State) check() error {
	if s.Service.Name == "" {
		return fmt.Errorf("deploy: the state's service has no name")
	}
	if (s.Service.CPUMillis == 0) != (s.Service.MemoryGBs == 0) {
		return fmt.Errorf("deploy: service %q: CPUMillis and MemoryGBs go together", s.Service.Name)
	}
	// What the API would refuse is refused here, before a run's first
	// step rather than at the step that sends it.
	for _, a := range s.Service.Addons {
		if a != dbcloud.AddonTimeSeries && a != dbcloud.AddonAI {
			return fmt.Errorf("deploy: service %q: addon %q is neither %q nor %q", s.Service.Name, a, dbcloud.AddonTimeSeries, dbcloud.AddonAI)
		}
	}
	if err := checkEnvironment(dbcloud.KindService, s.Service.Name, s.Service.Environment); err != nil {
		return err
	}
	if s.Service.CPUMillis < 0 || s.Service.MemoryGBs < 0 || s.Service.HAReplicas != nil && *s.Service.HAReplicas < 0 {
		return fmt.Errorf("deploy: service %q: a size or a number of HA replicas is negative", s.Service.Name)
	}
	seen := map[string]bool{}
	for _, rs := range s.ReplicaSets {
		if rs.Name == "" || seen[rs.Name] {
			return fmt.Errorf("deploy: replica set name %q is empty or repeated", rs.Name)
		}
		seen[rs.Name] = true
		if (rs.CPUMillis == 0) != (rs.MemoryGBs == 0) || rs.Nodes < 0 || rs.CPUMillis < 0 || rs.MemoryGBs < 0 {
			return fmt.Errorf("deploy: replica set %q: CPUMillis and MemoryGBs go together, and no size is negative", rs.Name)
		}
		if err := checkEnvironment(dbcloud.KindReplicaSet, rs.Name, rs.Environment); err != nil {
			return err
		}
	}
	seen = map[string]bool{}
	for _, f := range s.Forks {
		if f.Name == "" || seen[f.Name] || f.Name == s.Service.Name {
			return fmt.Errorf("deploy: fork name %q is empty, repeated or the service's", f.Name)
		}
		seen[f.Name] = true
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
func (s *Service) wanted() *Values {
	v := &Values{CPUMillis: s.CPUMillis, MemoryGBs: s.MemoryGBs, HAReplicas: s.HAReplicas, Environment: s.Environment, Pooler: s.Pooler}
	if s.VPCID != "" {
		v.VPCID = &s.VPCID
	}
	return v
}

// created is what the service's create sends.
func (s *Service) created() *Values {
	return &Values{Addons: s.Addons, RegionCode: s.RegionCode, CPUMillis: s.CPUMillis, MemoryGBs: s.MemoryGBs,
		HAReplicas: s.HAReplicas, Environment: s.Environment}
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
