package dbcloudtest

// The JSON shapes of the wire, with the API's field names. Fields the fake always
// fills are plain values; those that appear only when they apply are
// pointers with omitempty.

type errorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Details string `json:"details"`
}

type messageBody struct {
	Message string `json:"message"`
}

type endpointJSON struct {
	Host string `json:"host"`
	Port int    `json:"port"`
}

type poolerJSON struct {
	Endpoint endpointJSON `json:"endpoint"`
}

type forkedFromJSON struct {
	IsStandby bool   `json:"is_standby"`
	ProjectID string `json:"project_id"`
	ServiceID string `json:"service_id"`
}

type haJSON struct {
	ReplicaCount     int `json:"replica_count"`
	SyncReplicaCount int `json:"sync_replica_count"`
}

type metadataJSON struct {
	Environment string `json:"environment"`
}

type metricsJSON struct {
	MemoryMB  int `json:"memory_mb"`
	MilliCPU  int `json:"milli_cpu"`
	StorageMB int `json:"storage_mb"`
}

type vpcEndpointJSON struct {
	Host  string `json:"host"`
	Port  int    `json:"port"`
	VPCID string `json:"vpc_id"`
}

type specJSON struct {
	CPUMillis  int    `json:"cpu_millis"`
	MemoryGBs  int    `json:"memory_gbs"`
	VolumeType string `json:"volume_type"`
}

type resourceJSON struct {
	ID   string   `json:"id"`
	Spec specJSON `json:"spec"`
}

type serviceJSON struct {
	Created          string           `json:"created"`
	Name             string           `json:"name"`
	ProjectID        string           `json:"project_id"`
	RegionCode       string           `json:"region_code"`
	Resources        []resourceJSON   `json:"resources"`
	ServiceID        string           `json:"service_id"`
	ServiceType      string           `json:"service_type"`
	Status           string           `json:"status"`
	ConnectionPooler *poolerJSON      `json:"connection_pooler,omitempty"`
	Endpoint         endpointJSON     `json:"endpoint"`
	ForkedFrom       *forkedFromJSON  `json:"forked_from,omitempty"`
	HAReplicas       haJSON           `json:"ha_replicas"`
	InitialPassword  string           `json:"initial_password,omitempty"`
	Metadata         metadataJSON     `json:"metadata"`
	Metrics          *metricsJSON     `json:"metrics,omitempty"`
	ReadReplicaSets  []replicaSetJSON `json:"read_replica_sets"`
	VPCEndpoint      *vpcEndpointJSON `json:"vpc_endpoint,omitempty"`
	VPCEndpointOld   *vpcEndpointJSON `json:"vpcEndpoint,omitempty"`
}
