// Package wire holds the JSON shapes of the fake API's answers, with the
// live service's field names, and encodes them as the service does. The
// model renders its resources in these shapes and the HTTP layer sends
// them; Server's Service and Services decode them into the SDK's types.
//
// Fields the fake always fills are plain values; those that appear only
// when they apply are pointers with omitempty.
package wire

import (
	"bytes"
	"encoding/json"
)

// Error is the body of every error answer.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Details string `json:"details"`
}

// Message is the body of the operations that answer with a sentence.
type Message struct {
	Message string `json:"message"`
}

// Endpoint is where a database, or its pooler, is reached.
type Endpoint struct {
	Host string `json:"host"`
	Port int    `json:"port"`
}

// Pooler is a connection pooler that is on.
type Pooler struct {
	Endpoint Endpoint `json:"endpoint"`
}

// ForkedFrom names the parent of a forked service.
type ForkedFrom struct {
	IsStandby bool   `json:"is_standby"`
	ProjectID string `json:"project_id"`
	ServiceID string `json:"service_id"`
}

// HA is a service's high-availability replica counts.
type HA struct {
	ReplicaCount     int `json:"replica_count"`
	SyncReplicaCount int `json:"sync_replica_count"`
}

// Metadata carries a resource's environment.
type Metadata struct {
	Environment string `json:"environment"`
}

// Metrics is what a READY service reports of its use.
type Metrics struct {
	MemoryMB  int `json:"memory_mb"`
	MilliCPU  int `json:"milli_cpu"`
	StorageMB int `json:"storage_mb"`
}

// VPCEndpoint is where a service attached to a VPC is reached from it.
type VPCEndpoint struct {
	Host  string `json:"host"`
	Port  int    `json:"port"`
	VPCID string `json:"vpc_id"`
}

// Spec is the size of a service's resource.
type Spec struct {
	CPUMillis  int    `json:"cpu_millis"`
	MemoryGBs  int    `json:"memory_gbs"`
	VolumeType string `json:"volume_type"`
}

// Resource is one resource of a service.
type Resource struct {
	ID   string `json:"id"`
	Spec Spec   `json:"spec"`
}

// Service is a service as a GET of it answers.
type Service struct {
	Created          string       `json:"created"`
	Name             string       `json:"name"`
	ProjectID        string       `json:"project_id"`
	RegionCode       string       `json:"region_code"`
	Resources        []Resource   `json:"resources"`
	ServiceID        string       `json:"service_id"`
	ServiceType      string       `json:"service_type"`
	Status           string       `json:"status"`
	ConnectionPooler *Pooler      `json:"connection_pooler,omitempty"`
	Endpoint         Endpoint     `json:"endpoint"`
	ForkedFrom       *ForkedFrom  `json:"forked_from,omitempty"`
	HAReplicas       HA           `json:"ha_replicas"`
	InitialPassword  string       `json:"initial_password,omitempty"`
	Metadata         Metadata     `json:"metadata"`
	Metrics          *Metrics     `json:"metrics,omitempty"`
	ReadReplicaSets  []ReplicaSet `json:"read_replica_sets"`
	VPCEndpoint      *VPCEndpoint `json:"vpc_endpoint,omitempty"`
	VPCEndpointOld   *VPCEndpoint `json:"vpcEndpoint,omitempty"`
}

// ReplicaSet is a read replica set, as listed and as created.
type ReplicaSet struct {
	ID               string   `json:"id"`
	CPUMillis        int      `json:"cpu_millis"`
	MemoryGBs        int      `json:"memory_gbs"`
	Name             string   `json:"name"`
	Nodes            int      `json:"nodes"`
	Status           string   `json:"status"`
	ConnectionPooler *Pooler  `json:"connection_pooler,omitempty"`
	Endpoint         Endpoint `json:"endpoint"`
	Metadata         Metadata `json:"metadata"`
}

// LogEntry is one entry of a logs page.
type LogEntry struct {
	Message   string `json:"message"`
	Severity  string `json:"severity"`
	Timestamp string `json:"timestamp"`
}

// Logs is a page of a service's logs.
type Logs struct {
	Logs          []string   `json:"logs"`
	Entries       []LogEntry `json:"entries"`
	LastCursor    string     `json:"last_cursor,omitempty"`
	LastCursorOld string     `json:"lastCursor,omitempty"`
}

// Encode encodes one of these shapes as the API does, with no HTML
// escaping. Only these shapes are encoded: a failure is a bug in the fake.
func Encode(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("dbcloudtest: encoding a response: " + err.Error())
	}
	return buf.Bytes()
}
