package dbcloud

import (
	"context"
	"fmt"
	"net/http"
)

// The reads of services and replica sets: the public ones and the SDK's
// own (the read-only guard, tookEffect, create recovery, the pollers), one
// method of the kind each (a service's is Get; a list's, which a poller's
// shared read tells the waits it serves, is the public List's), and each
// kind's answer: the wire type a create decodes into. A read is a call of
// its own.

// Get returns one service.
func (s *ServicesClient) Get(ctx context.Context, projectID, serviceID string) (*Service, error) {
	at := ref{projectID: projectID, serviceID: serviceID}
	seg, err := at.escape(inService)
	if err != nil {
		return nil, err
	}
	var w serviceJSON
	err = s.api.do(ctx, &request{op: "Services.Get", method: http.MethodGet, kind: KindService, at: at,
		tpl: tplService, path: "/projects/" + seg.projectID + "/services/" + seg.serviceID}, &w)
	if err != nil {
		return nil, err
	}
	return (*Service)(&w.serviceFields), nil
}

// List returns every service of a project.
func (s *ServicesClient) List(ctx context.Context, projectID string) ([]Service, error) {
	at := ref{projectID: projectID}
	seg, err := at.escape(inProject)
	if err != nil {
		return nil, err
	}
	var ws serviceListJSON
	err = s.api.do(ctx, &request{op: "Services.List", method: http.MethodGet, kind: KindService, at: at,
		tpl: tplServices, path: "/projects/" + seg.projectID + "/services"}, &ws)
	if err != nil {
		return nil, err
	}
	return ws.services, nil
}

// List returns the read replica sets of a service.
func (r *ReplicaSetsClient) List(ctx context.Context, projectID, serviceID string) ([]ReadReplicaSet, error) {
	at := ref{projectID: projectID, serviceID: serviceID}
	seg, err := at.escape(inService)
	if err != nil {
		return nil, err
	}
	var sets replicaSetListJSON
	err = r.api.do(ctx, &request{op: "ReplicaSets.List", method: http.MethodGet, kind: KindReplicaSet, at: at,
		tpl: tplReplicaSets, path: "/projects/" + seg.projectID + "/services/" + seg.serviceID + "/replicaSets"}, &sets)
	if err != nil {
		return nil, err
	}
	out := make([]ReadReplicaSet, len(sets))
	for i := range sets {
		out[i] = ReadReplicaSet(sets[i])
	}
	return out, nil
}

// read is a GET of the service that at names.
func (services) read(ctx context.Context, api *caller, at ref) (*Service, error) {
	return (&ServicesClient{api: api}).Get(ctx, at.projectID, at.serviceID)
}

// answer is a new service to decode an answer into, as the wire has it.
func (services) answer() (any, *Service) {
	w := new(serviceJSON)
	return w, w.held()
}

// list lists the project that at names; a poller's shared read serves the
// waits whose contexts are serves (CallInfo.Serves).
func (services) list(ctx context.Context, api *caller, at ref, serves []context.Context) ([]Service, error) {
	return (&ServicesClient{api: api}).List(withServes(ctx, serves), at.projectID)
}

// list lists the replica sets of the service that at names; a poller's
// shared read serves the waits whose contexts are serves.
func (replicaSets) list(ctx context.Context, api *caller, at ref, serves []context.Context) ([]ReadReplicaSet, error) {
	return (&ReplicaSetsClient{api: api}).List(withServes(ctx, serves), at.projectID, at.serviceID)
}

// withServes is ctx carrying serves, the contexts of the waits that a read
// under it serves, for the observer (request.info); ctx when there are
// none.
func withServes(ctx context.Context, serves []context.Context) context.Context {
	if len(serves) == 0 {
		return ctx
	}
	return context.WithValue(ctx, servesKey{}, serves)
}

// answer is a new replica set to decode an answer into, as the wire has it.
func (replicaSets) answer() (any, *ReadReplicaSet) {
	w := new(replicaSetJSON)
	return w, w.held()
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
		return fmt.Errorf("%w: VPC peering %s is not in the list of VPC %s", ErrNotFound, id, parent.vpcID)
	}
	return fmt.Errorf("%w: service %s is not in the list of project %s", ErrNotFound, id, parent.projectID)
}
