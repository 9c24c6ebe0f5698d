package dbcloud

import (
	"context"
	"fmt"
	"net/http"
)

// The reads of services and replica sets: the public ones and the SDK's
// own (the read-only guard, confirmations, create recovery, the pollers),
// one method of the kind each, which the public methods are built on too,
// and each kind's answer: the wire type a create decodes into. A read is a
// call of its own (caller.read); none of them calls a public method.

// Get returns one service.
func (s *ServicesClient) Get(ctx context.Context, projectID, serviceID string) (*Service, error) {
	return services{}.read(ctx, s.api, ref{projectID, serviceID, ""})
}

// List returns every service of a project.
func (s *ServicesClient) List(ctx context.Context, projectID string) ([]Service, error) {
	return services{}.list(ctx, s.api, ref{projectID: projectID}, nil)
}

// List returns the read replica sets of a service.
func (r *ReplicaSetsClient) List(ctx context.Context, projectID, serviceID string) ([]ReadReplicaSet, error) {
	return replicaSets{}.list(ctx, r.api, ref{projectID, serviceID, ""}, nil)
}

// read is a GET of the service that at names.
func (services) read(ctx context.Context, api *caller, at ref) (*Service, error) {
	r := newRequest("Services.Get", http.MethodGet, tplService, at)
	var w serviceJSON
	if err := api.read(ctx, &r, &w); err != nil {
		return nil, err
	}
	return (*Service)(&w.serviceFields), nil
}

// answer is a new service to decode an answer into, as the wire has it.
func (services) answer() (any, *Service) {
	w := new(serviceJSON)
	return w, (*Service)(&w.serviceFields)
}

// list lists the project that at names; a poller's shared read serves the
// waits whose contexts are serves.
func (services) list(ctx context.Context, api *caller, at ref, serves []context.Context) ([]Service, error) {
	r := newRequest("Services.List", http.MethodGet, tplServices, at)
	r.info.Serves = serves
	var ws serviceListJSON
	if err := api.read(ctx, &r, &ws); err != nil {
		return nil, err
	}
	return ws.services, nil
}

// list lists the replica sets of the service that at names; a poller's
// shared read serves the waits whose contexts are serves.
func (replicaSets) list(ctx context.Context, api *caller, at ref, serves []context.Context) ([]ReadReplicaSet, error) {
	r := newRequest("ReplicaSets.List", http.MethodGet, tplReplicaSets, at)
	r.info.Serves = serves
	var sets replicaSetListJSON
	if err := api.read(ctx, &r, &sets); err != nil {
		return nil, err
	}
	out := make([]ReadReplicaSet, len(sets))
	for i := range sets {
		out[i] = ReadReplicaSet(sets[i])
	}
	return out, nil
}

// answer is a new replica set to decode an answer into, as the wire has it.
func (replicaSets) answer() (any, *ReadReplicaSet) {
	w := new(replicaSetJSON)
	return w, (*ReadReplicaSet)(w)
}

// read lists the set's service and returns the set, or an error matching
// ErrNotFound when it is not there: there is no GET of one set. An empty
// id is refused before the list is sent: no set could have it.
func (k replicaSets) read(ctx context.Context, api *caller, at ref) (*ReadReplicaSet, error) {
	if at.replicaSetID == "" {
		return nil, invalid("replicaSetID", "required")
	}
	sets, err := k.list(ctx, api, at, nil)
	if err != nil {
		return nil, err
	}
	for i := range sets {
		if sets[i].ID == at.replicaSetID {
			return &sets[i], nil
		}
	}
	return nil, notListed(KindReplicaSet, at.replicaSetID, at)
}

// notListed is the error of a resource that its parent's list lacks: a
// service of a project, a replica set of a service, a peering of a VPC
// (parent names them).
func notListed(k ResourceKind, id string, parent ref) error {
	switch k {
	case KindReplicaSet:
		return fmt.Errorf("%w: replica set %s is not in the list of service %s", ErrNotFound, id, parent.serviceID)
	case KindPeering:
		return fmt.Errorf("%w: VPC peering %s is not in the list of VPC %s", ErrNotFound, id, parent.vpcID())
	}
	return fmt.Errorf("%w: service %s is not in the list of project %s", ErrNotFound, id, parent.projectID)
}
