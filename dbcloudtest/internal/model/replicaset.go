package model

import (
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/live"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/wire"
)

// Read replica set statuses, as on the wire.
const (
	rsCreating = "creating"
	rsActive   = "active"
	rsResizing = "resizing"
	rsDeleting = "deleting"
)

// ReplicaSet is one read replica set of a service.
type ReplicaSet struct {
	id, name, env   string
	sched           schedule
	nodes, cpu, mem int
	pooler          pooler
	ep              *live.Endpoint // nil unless live
}

func (rs *ReplicaSet) closeEndpoints() {
	rs.ep.Close()
	rs.pooler.ep.Close()
}

// view renders the set, of the service on serviceHost, with the given
// status.
func (rs *ReplicaSet) view(serviceHost string, status string) wire.ReplicaSet {
	host := rs.id + "." + serviceHost
	v := wire.ReplicaSet{
		ID:        rs.id,
		CPUMillis: rs.cpu,
		MemoryGBs: rs.mem,
		Name:      rs.name,
		Nodes:     rs.nodes,
		Status:    status,
		Endpoint:  address(rs.ep, host, portDirect),
		Metadata:  wire.Metadata{Environment: rs.env},
	}
	if rs.pooler.on {
		v.ConnectionPooler = &wire.Pooler{Endpoint: address(rs.pooler.ep, host, portPooler)}
	}
	return v
}
