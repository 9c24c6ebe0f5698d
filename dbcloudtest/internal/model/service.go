package model

import (
	"time"
	"unicode/utf8"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/live"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/logstore"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/wire"
)

// Service statuses, as on the wire. statusGone is internal: the last step of a
// deletion, after which the resource is removed and reads give 404.
const (
	statusQueued      = "QUEUED"
	statusConfiguring = "CONFIGURING"
	statusReady       = "READY"
	statusPausing     = "PAUSING"
	statusPaused      = "PAUSED"
	statusResuming    = "RESUMING"
	statusDeleting    = "DELETING"
	statusDeleted     = "DELETED"
	statusGone        = ""
)

// What a new service is made of, as the package documentation of
// dbcloudtest states it; the HTTP layer applies the defaults as it reads a
// create's body.
const (
	TypeTimeSeries = "TIMESERIESDB"
	TypePostgres   = "POSTGRES"
	TypeVector     = "VECTOR"

	DefaultRegion    = "us-east-1"
	DefaultCPUMillis = 500
	DefaultMemoryGBs = 2
	SharedCPUMillis  = 250 // the sizes of "shared"
	SharedMemoryGBs  = 1

	EnvDev  = "DEV"
	EnvProd = "PROD"
)

const volumeType = "gp3"

// Service is one service of the model. Its fields change only under the
// model's lock.
type Service struct {
	id, project, name  string
	region, typ, env   string
	resourceID         string
	created            time.Time
	createdOnMachine   time.Time // time.Now at creation: see CheckTargetTime
	sched              schedule
	cpu, mem           int
	replicas, syncReps int
	pooler             pooler
	vpcID              string
	forkedFrom         *wire.ForkedFrom
	sets               []*ReplicaSet
	logs               *logstore.Store
	load               int                 // fixes the metrics this service reports
	recorded           map[string][]sample // by series: those RecordMetrics made hold only these
	ep                 *live.Endpoint      // nil unless live
}

// ID is the service's id.
func (s *Service) ID() string { return s.id }

// Project is the id of the service's project.
func (s *Service) Project() string { return s.project }

// Name is the service's name.
func (s *Service) Name() string { return s.name }

// Sizes are the service's millicores and gigabytes of memory.
func (s *Service) Sizes() (cpu, mem int) { return s.cpu, s.mem }

// HA is the service's count of HA replicas and how many are synchronous.
func (s *Service) HA() (replicas, sync int) { return s.replicas, s.syncReps }

// Logs is the service's log history.
func (s *Service) Logs() *logstore.Store { return s.logs }

func (s *Service) host() string { return s.id + "." + s.project + ".fake.dbcloud.test" }

// View renders the service as a GET of it answers now.
func (s *Service) View(now time.Time) wire.Service { return s.view(now, s.sched.current(now)) }

// view renders the service as the wire shows it with the given status: an
// operation's own response shows the first status of its plan even when step
// is 0 and the plan has already run to its end.
func (s *Service) view(now time.Time, status string) wire.Service {
	v := wire.Service{
		Created:     s.created.UTC().Format(time.RFC3339Nano),
		Name:        s.name,
		ProjectID:   s.project,
		RegionCode:  s.region,
		Resources:   []wire.Resource{{ID: s.resourceID, Spec: wire.Spec{CPUMillis: s.cpu, MemoryGBs: s.mem, VolumeType: volumeType}}},
		ServiceID:   s.id,
		ServiceType: s.typ,
		Status:      status,
		Endpoint:    address(s.ep, s.host(), portDirect),
		ForkedFrom:  s.forkedFrom,
		HAReplicas:  wire.HA{ReplicaCount: s.replicas, SyncReplicaCount: s.syncReps},
		Metadata:    wire.Metadata{Environment: s.env},
	}
	if s.pooler.on {
		v.ConnectionPooler = &wire.Pooler{Endpoint: address(s.pooler.ep, s.host(), portPooler)}
	}
	if s.vpcID != "" {
		v.VPCEndpoint = &wire.VPCEndpoint{Host: s.id + "." + s.project + ".vpc.fake.dbcloud.test", Port: portDirect, VPCID: s.vpcID}
		v.VPCEndpointOld = v.VPCEndpoint
	}
	if status == statusReady {
		v.Metrics = &wire.Metrics{
			MemoryMB:  s.mem * 1024 * (20 + s.load%50) / 100,
			MilliCPU:  s.cpu * (5 + s.load%40) / 100,
			StorageMB: 256 + s.load%4096,
		}
	}
	v.ReadReplicaSets = s.ReplicaSets(now)
	return v
}

// ReplicaSets renders the service's sets as they are now.
func (s *Service) ReplicaSets(now time.Time) []wire.ReplicaSet {
	out := make([]wire.ReplicaSet, 0, len(s.sets))
	for _, rs := range s.sets {
		out = append(out, rs.view(s.host(), rs.sched.current(now)))
	}
	return out
}

// Set finds the service's replica set with this id. It checks the id
// first: an id shorter than 3 characters can never exist, and the live
// service calls that a bad request.
func (s *Service) Set(id string) (*ReplicaSet, error) {
	if utf8.RuneCountInString(id) < 3 {
		return nil, apierr.BadRequest("replica_set_id", "must be at least 3 characters")
	}
	for _, rs := range s.sets {
		if rs.id == id {
			return rs, nil
		}
	}
	return nil, apierr.NotFound("replica set", id)
}

// closeEndpoints closes the endpoints of the service and of its sets.
func (s *Service) closeEndpoints() {
	s.ep.Close()
	s.pooler.ep.Close()
	for _, rs := range s.sets {
		rs.closeEndpoints()
	}
}
