package deploy

import (
	"fmt"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// State is what should exist in a project: one service, its read replica
// sets and its forks. A field left zero is not managed: Apply leaves that
// property as it is (or as the API makes it, at creation).
type State struct {
	// ProjectID is the project; "" is the client's (dbcloud.WithProjectID).
	ProjectID   string
	Service     Service
	ReplicaSets []ReplicaSet
	Forks       []Fork
	// Prune deletes the service's replica sets and forks that the state
	// does not name. Off by default: a deploy deletes only when told to.
	Prune bool
}

// Service is the service of a State.
type Service struct {
	Name   string          // required; the service's identity in the project
	Addons []dbcloud.Addon // decide the service type; used at creation only
	// RegionCode is used at creation only; "" lets the API choose.
	RegionCode string
	// CPUMillis and MemoryGBs are the size; both 0: not managed.
	CPUMillis, MemoryGBs int
	// HAReplicas is the number of HA replicas; nil: not managed.
	HAReplicas *int
	// Pooler is whether the connection pooler is on; nil: not managed.
	Pooler      *bool
	Environment dbcloud.Environment // "": not managed (the API creates DEV)
	// VPCID is the VPC the service is attached to; "": not managed.
	VPCID string
}

// ReplicaSet is a read replica set of the service.
type ReplicaSet struct {
	Name string // required; the set's identity in the service
	// Nodes, CPUMillis and MemoryGBs are required to create the set. The
	// API has no call that changes Nodes: a set with other Nodes is a
	// problem Plan reports and Apply refuses; the size is resized.
	Nodes, CPUMillis, MemoryGBs int
	Pooler                      *bool               // nil: not managed
	Environment                 dbcloud.Environment // "": not managed (a set starts with its service's)
}

// Fork is a fork of the service. A fork is made once: an existing fork
// (found by name and parent) is kept as it is, whatever its strategy and
// target were, since the API reports neither.
type Fork struct {
	Name     string               // required; the fork's identity with its parent
	Strategy dbcloud.ForkStrategy // required
	// TargetTime is the instant a dbcloud.ForkPITR fork restores (see
	// dbcloud.ForkServiceRequest.TargetTime for the API's window). Zero
	// with ForkPITR means the moment the fork step runs, once the parent
	// is READY: the parent as this run left it.
	TargetTime           time.Time
	CPUMillis, MemoryGBs int                 // 0: the parent's
	Environment          dbcloud.Environment // "": the API's default, DEV
}

// check returns what is wrong with the state itself, before any request.
func (s *State) check() error {
	if s.Service.Name == "" {
		return fmt.Errorf("deploy: the state's service has no name")
	}
	seen := map[string]bool{}
	for _, rs := range s.ReplicaSets {
		if rs.Name == "" || seen[rs.Name] {
			return fmt.Errorf("deploy: replica set name %q is empty or repeated", rs.Name)
		}
		seen[rs.Name] = true
		if rs.Nodes < 1 || rs.CPUMillis < 1 || rs.MemoryGBs < 1 {
			return fmt.Errorf("deploy: replica set %q needs Nodes, CPUMillis and MemoryGBs of at least 1", rs.Name)
		}
	}
	seen = map[string]bool{}
	for _, f := range s.Forks {
		if f.Name == "" || seen[f.Name] || f.Name == s.Service.Name {
			return fmt.Errorf("deploy: fork name %q is empty, repeated or the service's", f.Name)
		}
		seen[f.Name] = true
		if err := f.request(time.Now()).Validate(nil); err != nil {
			return fmt.Errorf("deploy: fork %q: %w", f.Name, err)
		}
	}
	return nil
}

// request is the fork's create request, a zero PITR target being now.
func (f *Fork) request(now time.Time) *dbcloud.ForkServiceRequest {
	req := &dbcloud.ForkServiceRequest{Strategy: f.Strategy, TargetTime: f.TargetTime, Name: f.Name,
		CPUMillis: f.CPUMillis, MemoryGBs: f.MemoryGBs, EnvironmentTag: f.Environment}
	if f.Strategy == dbcloud.ForkPITR && req.TargetTime.IsZero() {
		req.TargetTime = now
	}
	return req
}
