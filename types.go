package dbcloud

import "time"

// ServiceType is the kind of database a service runs (see Addon); unknown
// values are kept as sent. TIMESERIESDB (the API's document) and TIMESCALEDB
// (the live service) both decode as ServiceTypeTimeSeries.
type ServiceType string

// Service types.
const (
	ServiceTypeTimeSeries ServiceType = "TIMESERIESDB"
	ServiceTypePostgres   ServiceType = "POSTGRES"
	ServiceTypeVector     ServiceType = "VECTOR"
)

// ServiceStatus is a service's status; unknown values are kept as sent.
type ServiceStatus string

// Service statuses.
const (
	StatusQueued      ServiceStatus = "QUEUED"
	StatusDeleting    ServiceStatus = "DELETING"
	StatusConfiguring ServiceStatus = "CONFIGURING"
	StatusReady       ServiceStatus = "READY"
	StatusDeleted     ServiceStatus = "DELETED"
	StatusUnstable    ServiceStatus = "UNSTABLE"
	StatusPausing     ServiceStatus = "PAUSING"
	StatusPaused      ServiceStatus = "PAUSED"
	StatusResuming    ServiceStatus = "RESUMING"
	StatusUpgrading   ServiceStatus = "UPGRADING"
	StatusOptimizing  ServiceStatus = "OPTIMIZING"
)

// ReplicaSetStatus is a replica set's status; unknown ones are kept as sent.
type ReplicaSetStatus string

// Read replica set statuses.
const (
	ReplicaSetCreating ReplicaSetStatus = "creating"
	ReplicaSetActive   ReplicaSetStatus = "active"
	ReplicaSetResizing ReplicaSetStatus = "resizing"
	ReplicaSetDeleting ReplicaSetStatus = "deleting"
	ReplicaSetError    ReplicaSetStatus = "error"
)

// WaitStatus is a status a wait can see; only the SDK's status types have
// it, so WithStopOn takes both kinds in one call and nothing else compiles.
type WaitStatus interface {
	waitStatus() string
}

func (s ServiceStatus) waitStatus() string    { return string(s) }
func (s ReplicaSetStatus) waitStatus() string { return string(s) }

// ResourceKind names a kind of resource in waits, observers and the deploy
// package.
type ResourceKind string

// Kinds of resource.
const (
	KindService    ResourceKind = "service"
	KindReplicaSet ResourceKind = "replica set"
	KindFork       ResourceKind = "fork" // deploy's name for a fork; waits and calls say KindService
	KindVPC        ResourceKind = "VPC"
	KindPeering    ResourceKind = "VPC peering"
	KindProject    ResourceKind = "project" // calls about identity and projects
)

// Environment is the environment tag of a service or replica set.
type Environment string

// Environments.
const (
	EnvironmentDev  Environment = "DEV"
	EnvironmentProd Environment = "PROD"
)

// ForkStrategy says which data a fork starts from.
type ForkStrategy string

// Fork strategies.
const (
	ForkLastSnapshot ForkStrategy = "LAST_SNAPSHOT" // the existing snapshot: fast, maybe stale
	ForkNow          ForkStrategy = "NOW"           // a fresh snapshot: slower, up to date
	ForkPITR         ForkStrategy = "PITR"          // as of ForkServiceRequest.TargetTime
)

// Addon is an extension enabled at creation. The addons decide the type
// (none: ServiceTypePostgres; AddonTimeSeries: ServiceTypeTimeSeries;
// AddonAI: ServiceTypeVector); a fork takes its parent's, and it never changes.
type Addon string

// Addons.
const (
	AddonTimeSeries Addon = "time-series"
	AddonAI         Addon = "ai"
)

// Service is a hosted database service; optional parts not sent are nil.
type Service struct {
	ServiceID        string            `json:"service_id"`
	ProjectID        string            `json:"project_id"`
	Name             string            `json:"name"`
	RegionCode       string            `json:"region_code"`
	ServiceType      ServiceType       `json:"service_type"`
	Status           ServiceStatus     `json:"status"`
	Created          time.Time         `json:"created"`
	Resources        []Resource        `json:"resources"`
	Endpoint         *Endpoint         `json:"endpoint,omitempty"`
	ConnectionPooler *ConnectionPooler `json:"connection_pooler,omitempty"`
	ForkedFrom       *ForkedFrom       `json:"forked_from,omitempty"`
	HAReplicas       *HAReplicas       `json:"ha_replicas,omitempty"`
	InitialPassword  Secret            `json:"initial_password,omitempty"` // only from Create and Fork
	Metadata         *Metadata         `json:"metadata,omitempty"`
	Metrics          *Metrics          `json:"metrics,omitempty"`
	ReadReplicaSets  []ReadReplicaSet  `json:"read_replica_sets,omitempty"`
	VPCEndpoint      *VPCEndpoint      `json:"vpc_endpoint,omitempty"` // or the deprecated vpcEndpoint
}

// Resource is a unit of resources allocated to a service.
type Resource struct {
	ID   string        `json:"id,omitempty"`
	Spec *ResourceSpec `json:"spec,omitempty"`
}

// ResourceSpec is the size of a Resource.
type ResourceSpec struct {
	CPUMillis  int    `json:"cpu_millis,omitempty"`
	MemoryGBs  int    `json:"memory_gbs,omitempty"`
	VolumeType string `json:"volume_type,omitempty"`
}

// Endpoint is a host and port to connect to.
type Endpoint struct {
	Host string `json:"host,omitempty"`
	Port int    `json:"port,omitempty"`
}

// ConnectionPooler is a service's or replica set's pooler, set when enabled.
type ConnectionPooler struct {
	Endpoint *Endpoint `json:"endpoint,omitempty"`
}

// ForkedFrom names the parent of a forked service.
type ForkedFrom struct {
	ProjectID string `json:"project_id,omitempty"`
	ServiceID string `json:"service_id,omitempty"`
	IsStandby bool   `json:"is_standby,omitempty"`
}

// HAReplicas is a service's high-availability replica configuration.
type HAReplicas struct {
	ReplicaCount     int `json:"replica_count"`
	SyncReplicaCount int `json:"sync_replica_count"`
}

// Metadata holds the environment tag of a service or replica set.
type Metadata struct {
	Environment Environment `json:"environment,omitempty"`
}

// Metrics is a service's resource usage.
type Metrics struct {
	MemoryMB  int `json:"memory_mb"`
	MilliCPU  int `json:"milli_cpu"`
	StorageMB int `json:"storage_mb"`
}

// VPCEndpoint is the endpoint of a service reached over VPC peering.
type VPCEndpoint struct {
	Host  string `json:"host,omitempty"`
	Port  int    `json:"port,omitempty"`
	VPCID string `json:"vpc_id,omitempty"`
}

// ReadReplicaSet is a set of read-only replicas of a service.
type ReadReplicaSet struct {
	ID               string            `json:"id"`
	Name             string            `json:"name"`
	Status           ReplicaSetStatus  `json:"status"`
	Nodes            int               `json:"nodes"`
	CPUMillis        int               `json:"cpu_millis"`
	MemoryGBs        int               `json:"memory_gbs"`
	Endpoint         *Endpoint         `json:"endpoint,omitempty"`
	ConnectionPooler *ConnectionPooler `json:"connection_pooler,omitempty"`
	Metadata         *Metadata         `json:"metadata,omitempty"`
}

// VPC is a project's private network; it has no status: usable once created.
type VPC struct {
	ID         string `json:"id"` // digits; the vpcID that AttachToVPC and VPCEndpoint.VPCID name
	Name       string `json:"name"`
	CIDR       string `json:"cidr"` // its IPv4 range, such as "10.0.0.0/16"
	RegionCode string `json:"region_code"`
}

// Peering is a peering connection of a VPC.
type Peering struct {
	ID             string        `json:"id"`
	PeerAccountID  string        `json:"peer_account_id"`
	PeerRegionCode string        `json:"peer_region_code"`
	PeerVPCID      string        `json:"peer_vpc_id"`              // in the peer's cloud
	Status         PeeringStatus `json:"status,omitempty"`         // "" when not sent
	ProvisionedID  string        `json:"provisioned_id,omitempty"` // the cloud's id, which the peer accepts
	ErrorMessage   string        `json:"error_message,omitempty"`  // why it failed
}

// PeeringStatus is a peering's status: free text in the API, which names only
// "active"; other values are kept as sent.
type PeeringStatus string

// Peering statuses, read in any case.
const (
	PeeringPending PeeringStatus = "pending"
	PeeringActive  PeeringStatus = "active"
	PeeringFailed  PeeringStatus = "failed"
)

func (s PeeringStatus) waitStatus() string { return string(s) }

// LogEntry is one line of a service's log. Its Severity is as the API sent
// it: compare levels with AtLeast, which reads any case.
type LogEntry struct {
	Timestamp time.Time `json:"timestamp"`
	Severity  Severity  `json:"severity"`
	Message   string    `json:"message"`
}
