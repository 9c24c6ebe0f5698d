package dbcloud

import "time"

// ServiceType is the kind of database a service runs, chosen at creation by
// CreateServiceRequest.Addons (see Addon). Values this version does not know
// are kept as sent. The time-series type arrives as TIMESERIESDB (the API's
// document) or TIMESCALEDB (the live service); the SDK decodes both as
// ServiceTypeTimeSeries, so one comparison covers both, and which spelling
// was sent is not kept: the two name the same type.
type ServiceType string

// Service types.
const (
	ServiceTypeTimeSeries ServiceType = "TIMESERIESDB"
	ServiceTypePostgres   ServiceType = "POSTGRES"
	ServiceTypeVector     ServiceType = "VECTOR"
)

// ServiceStatus is a service's deployment status. Values this version does
// not know are kept as sent.
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

// ReplicaSetStatus is a read replica set's status. Values this version does
// not know are kept as sent.
type ReplicaSetStatus string

// Read replica set statuses.
const (
	ReplicaSetCreating ReplicaSetStatus = "creating"
	ReplicaSetActive   ReplicaSetStatus = "active"
	ReplicaSetResizing ReplicaSetStatus = "resizing"
	ReplicaSetDeleting ReplicaSetStatus = "deleting"
	ReplicaSetError    ReplicaSetStatus = "error"
)

// WaitStatus is a status a wait can see: a ServiceStatus or a
// ReplicaSetStatus. Only those two types have it, so that WithStopOn takes
// statuses of both kinds in one call and nothing else compiles.
type WaitStatus interface {
	waitStatus() string
}

func (s ServiceStatus) waitStatus() string    { return string(s) }
func (s ReplicaSetStatus) waitStatus() string { return string(s) }

// ResourceKind names a kind of resource, as waits (WaitProgress.Kind,
// WaitError.Resource), observers (CallInfo.Kind) and the deploy package
// report it.
type ResourceKind string

// Kinds of resource.
const (
	KindService    ResourceKind = "service"
	KindReplicaSet ResourceKind = "replica set"
	// KindFork is a service made by Fork, where the deploy package tells
	// it from the service it manages; the waits and calls on a fork name
	// it KindService, as the API does.
	KindFork ResourceKind = "fork"
	// KindVPC and KindPeering are a project's VPCs and their peering
	// connections; KindProject names the calls about the caller's identity
	// and projects.
	KindVPC     ResourceKind = "VPC"
	KindPeering ResourceKind = "VPC peering"
	KindProject ResourceKind = "project"
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
	// ForkLastSnapshot forks from the existing snapshot: fast, maybe stale.
	ForkLastSnapshot ForkStrategy = "LAST_SNAPSHOT"
	// ForkNow takes a fresh snapshot first: slower, up to date.
	ForkNow ForkStrategy = "NOW"
	// ForkPITR restores the parent as of ForkServiceRequest.TargetTime.
	ForkPITR ForkStrategy = "PITR"
)

// Addon is an extension enabled when a service is created. The addons
// decide the service's type; there is no type field in a create:
//
//	Addons                      ServiceType
//	none                        ServiceTypePostgres   plain PostgreSQL
//	[]Addon{AddonTimeSeries}    ServiceTypeTimeSeries PostgreSQL with the time-series extension
//	[]Addon{AddonAI}            ServiceTypeVector     PostgreSQL with the vector (AI) extensions
//
// A fork takes its parent's type; the type cannot be changed later.
type Addon string

// Addons.
const (
	// AddonTimeSeries makes a time-series service (ServiceTypeTimeSeries).
	AddonTimeSeries Addon = "time-series"
	// AddonAI makes a vector service (ServiceTypeVector).
	AddonAI Addon = "ai"
)

// Service is a hosted database service. Optional parts the API did not send
// are nil.
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
	// InitialPassword is only sent in the responses of Create and Fork.
	InitialPassword Secret           `json:"initial_password,omitempty"`
	Metadata        *Metadata        `json:"metadata,omitempty"`
	Metrics         *Metrics         `json:"metrics,omitempty"`
	ReadReplicaSets []ReadReplicaSet `json:"read_replica_sets,omitempty"`
	// VPCEndpoint comes from vpc_endpoint, or from the deprecated vpcEndpoint
	// when only that is sent.
	VPCEndpoint *VPCEndpoint `json:"vpc_endpoint,omitempty"`
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

// ConnectionPooler is the pooler of a service or replica set, present when
// the pooler is enabled.
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

// VPC is a private network of a project. A VPC has no status: it is usable
// once created.
type VPC struct {
	ID         string `json:"id"` // digits; the vpcID that AttachToVPC and VPCEndpoint.VPCID name
	Name       string `json:"name"`
	CIDR       string `json:"cidr"` // its IPv4 range, such as "10.0.0.0/16"
	RegionCode string `json:"region_code"`
}

// Peering is a peering connection of a VPC.
type Peering struct {
	ID             string `json:"id"`
	PeerAccountID  string `json:"peer_account_id"`  // the peer's cloud account
	PeerRegionCode string `json:"peer_region_code"` // the peer VPC's region
	PeerVPCID      string `json:"peer_vpc_id"`      // the peer's VPC id in its cloud
	// Status is where the connection stands; "" when the API did not say.
	Status PeeringStatus `json:"status,omitempty"`
	// ProvisionedID is the cloud provider's id of the connection, which
	// the peer's side accepts; "" until it is provisioned.
	ProvisionedID string `json:"provisioned_id,omitempty"`
	// ErrorMessage says why the connection failed; "" unless it did.
	ErrorMessage string `json:"error_message,omitempty"`
}

// PeeringStatus is a peering connection's status: a free text in the API,
// whose document names only "active". Values this version does not name
// are kept as sent.
type PeeringStatus string

// Peering statuses. WaitForActive reads them in any case, and also ends on
// "rejected", "expired", "deleting" and "deleted".
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
