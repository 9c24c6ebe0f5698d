package dbcloud

import (
	"context"
	"net/http"
)

// The changes of a read replica set. Its list is in reads.go, its waits in
// wait.go.

// Create starts creating a read replica set on a READY service and returns
// it, usually "creating"; use WaitForActive to block until it serves. It is
// a create (see "Retries" and "Under faults" in the package documentation);
// WithCreateRecovery finds the set by listing the service's sets for the
// requested name.
func (r *ReplicaSetsClient) Create(ctx context.Context, projectID, serviceID string, req *CreateReplicaSetRequest) (*ReadReplicaSet, error) {
	at := ref{projectID, serviceID, ""}
	cr := newRequest("ReplicaSets.Create", http.MethodPost, tplReplicaSets, at)
	if cr.err == nil {
		cr.body, cr.err = req.body()
	}
	if cr.err != nil {
		return nil, cr.err
	}
	return create(ctx, r.api, replicaSets{}, &cr, at, wanted{name: req.Name})
}

// Delete starts deleting a read replica set; use WaitForDeleted to block
// until it is gone. A retry's 404, or its 409 while the set is deleting or
// already gone, is a success (see "Under faults" in the package
// documentation).
func (r *ReplicaSetsClient) Delete(ctx context.Context, projectID, serviceID, replicaSetID string) error {
	at := ref{projectID, serviceID, replicaSetID}
	dr := newRequest("ReplicaSets.Delete", http.MethodDelete, tplReplicaSet, at)
	return r.api.command(ctx, &dr, confirmDeleted(replicaSets{}, r.api, at))
}

// Resize changes the CPU and memory of each node of a read replica set.
func (r *ReplicaSetsClient) Resize(ctx context.Context, projectID, serviceID, replicaSetID string, req *ResizeRequest) error {
	body, err := req.body()
	if err != nil {
		return err
	}
	at := ref{projectID, serviceID, replicaSetID}
	rr := newRequest("ReplicaSets.Resize", http.MethodPost, tplReplicaSet+"/resize", at)
	rr.body = body
	return r.api.command(ctx, &rr, confirmByRead(replicaSets{}, r.api, at, setResizedTo(req)))
}

// EnablePooler switches a read replica set's connection pooler on.
func (r *ReplicaSetsClient) EnablePooler(ctx context.Context, projectID, serviceID, replicaSetID string) error {
	return r.pooler(ctx, "ReplicaSets.EnablePooler", tplReplicaSet+"/enablePooler", ref{projectID, serviceID, replicaSetID}, true)
}

// DisablePooler switches a read replica set's connection pooler off.
func (r *ReplicaSetsClient) DisablePooler(ctx context.Context, projectID, serviceID, replicaSetID string) error {
	return r.pooler(ctx, "ReplicaSets.DisablePooler", tplReplicaSet+"/disablePooler", ref{projectID, serviceID, replicaSetID}, false)
}

// pooler sends the switch of the set's connection pooler on, or off: a
// retry's 409 is confirmed by reading whether it is.
func (r *ReplicaSetsClient) pooler(ctx context.Context, op, tpl string, at ref, on bool) error {
	pr := newRequest(op, http.MethodPost, tpl, at)
	return r.api.command(ctx, &pr, confirmByRead(replicaSets{}, r.api, at, func(set *ReadReplicaSet) bool { return (set.ConnectionPooler != nil) == on }))
}

// SetEnvironment sets a read replica set's environment tag.
func (r *ReplicaSetsClient) SetEnvironment(ctx context.Context, projectID, serviceID, replicaSetID string, env Environment) error {
	if err := checkEnvironment("env", env, false); err != nil {
		return err
	}
	er := newRequest("ReplicaSets.SetEnvironment", http.MethodPost, tplReplicaSet+"/setEnvironment", ref{projectID, serviceID, replicaSetID})
	er.body = environmentBody{env}
	return r.api.command(ctx, &er, nil)
}
