package dbcloud

import (
	"context"
	"fmt"
	"net/http"
)

// ref names one resource: a service (replicaSetID "") or a replica set of
// one. For a create or a list it names the parent: the project of services,
// the service of replica sets.
type ref struct{ projectID, serviceID, replicaSetID string }

// call names an operation on the resource, for the observer.
func (at ref) call(op, method, tpl string) CallInfo {
	return CallInfo{Operation: op, Method: method, Path: tpl, ProjectID: at.projectID, ServiceID: at.serviceID, ReplicaSetID: at.replicaSetID}
}

// kind is what the code that services and replica sets share (create and
// its recovery, commands and their confirmation, waits, the Ensure steps and
// their checks) needs to know of one kind of resource, so that each rule is
// written once for both. T is the public type, W the one it is decoded
// into. The two kinds are serviceKind and replicaSetKind.
type kind[T, W any] struct {
	noun  string // "service" or "replica set", as errors and logs name it
	place        // where one resource is
	value func(*W) *T
	// read returns the resource now, or an error matching ErrNotFound when
	// it is gone.
	read func(ctx context.Context, api *caller, at ref) (*T, error)
	// list returns the resources of the parent that at names.
	list     func(ctx context.Context, api *caller, at ref) ([]T, error)
	id, name func(*T) string
	status   func(*T) string
	deleting func(*T) bool // being deleted, or deleted: no longer counts as there
	changing func(*T) bool // a change is being applied, or it is done
	pooler   func(*T) bool // the connection pooler is on
	size     func(*T) (cpuMillis, memoryGBs int)
	env      func(*T) Environment
	// adopt, when not nil, completes a resource that create recovery found
	// by listing, its create's answer having been lost.
	adopt func(ctx context.Context, api *caller, at ref, v *T) (*T, error)
}

// place is where one resource of a kind is (or, for projectPlace, a
// project's services): the template of its CallInfo.Path and how ids make
// its path. Every request is built from one (place.request).
type place struct {
	tpl string // CallInfo.Path of one resource
	// path is the escaped path of the resource followed by tail ("" or
	// "/action"), or the error of ids that cannot name one.
	path func(at ref, tail string) (string, error)
}

// servicePlace is where a service is. It stands apart from serviceKind so
// that readService, serviceKind's read, can build its request from it
// without an initialization cycle.
var servicePlace = place{
	tpl:  tplService,
	path: func(at ref, tail string) (string, error) { return servicePath(at.projectID, at.serviceID, tail) },
}

// projectPlace is where a project's services are, for List and Create.
var projectPlace = place{
	tpl: tplServices,
	path: func(at ref, tail string) (string, error) {
		p, err := servicesPath(at.projectID)
		return p + tail, err
	},
}

// serviceKind describes services.
var serviceKind = kind[Service, serviceJSON]{
	noun:  "service",
	place: servicePlace,
	value: (*serviceJSON).service,
	read:  readService,
	list: func(ctx context.Context, api *caller, at ref) ([]Service, error) {
		return listServices(ctx, api, at, nil)
	},
	id:       func(svc *Service) string { return svc.ServiceID },
	name:     func(svc *Service) string { return svc.Name },
	status:   func(svc *Service) string { return string(svc.Status) },
	deleting: func(svc *Service) bool { return svc.Status == StatusDeleting || svc.Status == StatusDeleted },
	changing: statusIn(StatusConfiguring, StatusReady),
	pooler:   func(svc *Service) bool { return svc.ConnectionPooler != nil },
	size:     (*Service).Size,
	env:      (*Service).Environment,
	adopt:    adoptService,
}

// replicaSetKind describes read replica sets. There is no GET for one set:
// it is read by finding it in its service's list.
var replicaSetKind = kind[ReadReplicaSet, replicaSetJSON]{
	noun: "replica set",
	place: place{
		tpl: tplReplicaSet,
		path: func(at ref, tail string) (string, error) {
			return replicaSetPath(at.projectID, at.serviceID, at.replicaSetID, tail)
		},
	},
	value: func(w *replicaSetJSON) *ReadReplicaSet { return (*ReadReplicaSet)(w) },
	read:  findReplicaSet,
	list: func(ctx context.Context, api *caller, at ref) ([]ReadReplicaSet, error) {
		return listReplicaSets(ctx, api, at, nil)
	},
	id:       func(set *ReadReplicaSet) string { return set.ID },
	name:     func(set *ReadReplicaSet) string { return set.Name },
	status:   func(set *ReadReplicaSet) string { return string(set.Status) },
	deleting: func(set *ReadReplicaSet) bool { return set.Status == ReplicaSetDeleting },
	changing: func(set *ReadReplicaSet) bool {
		return set.Status == ReplicaSetResizing || set.Status == ReplicaSetActive
	},
	pooler: func(set *ReadReplicaSet) bool { return set.ConnectionPooler != nil },
	size:   func(set *ReadReplicaSet) (int, int) { return set.CPUMillis, set.MemoryGBs },
	env:    (*ReadReplicaSet).Environment,
}

// readService is a GET of the service at names: ServicesClient.Get for the
// SDK's own steps (the read-only guard, confirmations, adopting a created
// service), which never call the public methods.
func readService(ctx context.Context, api *caller, at ref) (*Service, error) {
	var w serviceJSON
	if err := api.run(ctx, servicePlace.request("Services.Get", http.MethodGet, tplService, at), &w); err != nil {
		return nil, err
	}
	return w.service(), nil
}

// listServices lists the project that at names: ServicesClient.List, and
// the shared reads of a poller, which serves the waits of serves.
func listServices(ctx context.Context, api *caller, at ref, serves []context.Context) ([]Service, error) {
	r := projectPlace.request("Services.List", http.MethodGet, tplServices, at)
	r.serves = serves
	var ws serviceListJSON
	if err := api.run(ctx, r, &ws); err != nil {
		return nil, err
	}
	out := make([]Service, len(ws))
	for i := range ws {
		out[i] = *ws[i].service()
	}
	return out, nil
}

// listReplicaSets lists the replica sets of the service that at names:
// ReplicaSetsClient.List, and the reads of its waits' poller.
func listReplicaSets(ctx context.Context, api *caller, at ref, serves []context.Context) ([]ReadReplicaSet, error) {
	r := servicePlace.request("ReplicaSets.List", http.MethodGet, tplReplicaSets, at)
	r.serves = serves
	var sets replicaSetListJSON
	if err := api.run(ctx, r, &sets); err != nil {
		return nil, err
	}
	out := make([]ReadReplicaSet, len(sets))
	for i := range sets {
		out[i] = ReadReplicaSet(sets[i])
	}
	return out, nil
}

// findReplicaSet lists the set's service and returns the set, or an error
// matching ErrNotFound when it is not there. An empty id is refused before
// the list is sent: no set could have it.
func findReplicaSet(ctx context.Context, api *caller, at ref) (*ReadReplicaSet, error) {
	if at.replicaSetID == "" {
		return nil, invalid("replicaSetID", "required")
	}
	sets, err := listReplicaSets(ctx, api, at, nil)
	if err != nil {
		return nil, err
	}
	for i := range sets {
		if sets[i].ID == at.replicaSetID {
			return &sets[i], nil
		}
	}
	return nil, missingSet(at.replicaSetID, at.serviceID)
}

// missingSet is the error of a replica set that its service's list lacks.
func missingSet(replicaSetID, serviceID string) error {
	return fmt.Errorf("%w: replica set %s is not in the list of service %s", ErrNotFound, replicaSetID, serviceID)
}
