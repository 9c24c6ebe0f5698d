package dbcloud

import (
	"context"
)

// kind is what the code that services and replica sets share (create and
// its recovery, commands and their confirmation, waits and
// their checks) needs to know of one kind of resource, so that each rule is
// written once for both. T is the public type, W the one it is decoded
// into. The two kinds are serviceKind and replicaSetKind.
type kind[T, W any] struct {
	kind  ResourceKind // as errors and logs name it
	place              // where one resource is
	value func(*W) *T
	// read returns the resource now, or an error matching ErrNotFound when
	// it is gone.
	read func(ctx context.Context, api *caller, at ref) (*T, error)
	// list returns the resources of the parent that at names.
	list     func(ctx context.Context, api *caller, at ref) ([]T, error)
	id, name func(*T) string
	status   func(*T) WaitStatus
	deleting func(*T) bool // being deleted, or deleted: no longer counts as there
	changing func(*T) bool // a change is being applied, or it is done
	pooler   func(*T) bool // the connection pooler is on
	size     func(*T) (cpuMillis, memoryGBs int)
	// adopt, when not nil, completes a resource that create recovery found
	// by listing, its create's answer having been lost.
	adopt func(ctx context.Context, api *caller, at ref, v *T, resolved *MaybeCreatedError) (*T, error)
}

// serviceKind describes services.
var serviceKind = kind[Service, serviceJSON]{
	kind:  KindService,
	place: servicePlace,
	value: (*serviceJSON).service,
	read:  readService,
	list: func(ctx context.Context, api *caller, at ref) ([]Service, error) {
		return listServices(ctx, api, at, nil)
	},
	id:       func(svc *Service) string { return svc.ServiceID },
	name:     func(svc *Service) string { return svc.Name },
	status:   func(svc *Service) WaitStatus { return svc.Status },
	deleting: func(svc *Service) bool { return svc.Status == StatusDeleting || svc.Status == StatusDeleted },
	changing: statusIn(StatusConfiguring, StatusReady),
	pooler:   func(svc *Service) bool { return svc.ConnectionPooler != nil },
	size:     (*Service).Size,
	adopt:    adoptService,
}

// replicaSetKind describes read replica sets. There is no GET for one set:
// it is read by finding it in its service's list.
var replicaSetKind = kind[ReadReplicaSet, replicaSetJSON]{
	kind:  KindReplicaSet,
	place: replicaSetPlace,
	value: func(w *replicaSetJSON) *ReadReplicaSet { return (*ReadReplicaSet)(w) },
	read:  findReplicaSet,
	list: func(ctx context.Context, api *caller, at ref) ([]ReadReplicaSet, error) {
		return listReplicaSets(ctx, api, at, nil)
	},
	id:       func(set *ReadReplicaSet) string { return set.ID },
	name:     func(set *ReadReplicaSet) string { return set.Name },
	status:   func(set *ReadReplicaSet) WaitStatus { return set.Status },
	deleting: func(set *ReadReplicaSet) bool { return set.Status == ReplicaSetDeleting },
	changing: func(set *ReadReplicaSet) bool {
		return set.Status == ReplicaSetResizing || set.Status == ReplicaSetActive
	},
	pooler: func(set *ReadReplicaSet) bool { return set.ConnectionPooler != nil },
	size:   func(set *ReadReplicaSet) (int, int) { return set.CPUMillis, set.MemoryGBs },
}
