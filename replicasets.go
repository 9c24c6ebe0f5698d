package dbcloud

import (
	"context"
	"net/http"
)

// List returns the read replica sets of a service.
func (r *ReplicaSetsClient) List(ctx context.Context, projectID, serviceID string) ([]ReadReplicaSet, error) {
	return listReplicaSets(ctx, r.api, ref{projectID, serviceID, ""}, nil)
}

// Create starts creating a read replica set on a READY service and returns
// it, usually "creating"; use WaitForActive to block until it serves. It is
// a create (see "Retries" and "Under faults" in the package documentation);
// WithCreateRecovery finds the set by listing the service's sets for the
// requested name.
func (r *ReplicaSetsClient) Create(ctx context.Context, projectID, serviceID string, req *CreateReplicaSetRequest) (*ReadReplicaSet, error) {
	at := ref{projectID, serviceID, ""}
	cr := servicePlace.request("ReplicaSets.Create", http.MethodPost, tplReplicaSets, at)
	if cr.err == nil {
		cr.body, cr.err = req.body()
	}
	if cr.err != nil {
		return nil, cr.err
	}
	return replicaSetKind.create(ctx, r.api, cr, at, req.Name, nil)
}

// Delete starts deleting a read replica set; use WaitForDeleted to block
// until it is gone. A retry's 404, or its 409 while the set is deleting or
// already gone, is a success (see "Under faults" in the package
// documentation).
func (r *ReplicaSetsClient) Delete(ctx context.Context, projectID, serviceID, replicaSetID string) error {
	at := ref{projectID, serviceID, replicaSetID}
	return replicaSetKind.command(ctx, r.api, "ReplicaSets.Delete", http.MethodDelete, tplReplicaSet, at, nil, replicaSetKind.confirmDeleted(r.api, at))
}

// Resize changes the CPU and memory of each node of a read replica set.
func (r *ReplicaSetsClient) Resize(ctx context.Context, projectID, serviceID, replicaSetID string, req *ResizeRequest) error {
	body, err := req.body()
	if err != nil {
		return err
	}
	at := ref{projectID, serviceID, replicaSetID}
	return replicaSetKind.command(ctx, r.api, "ReplicaSets.Resize", http.MethodPost, tplReplicaSet+"/resize", at, body,
		replicaSetKind.confirmByRead(r.api, at, replicaSetKind.resizedTo(req)))
}

// EnablePooler switches a read replica set's connection pooler on.
func (r *ReplicaSetsClient) EnablePooler(ctx context.Context, projectID, serviceID, replicaSetID string) error {
	return replicaSetKind.switchPooler(ctx, r.api, "ReplicaSets.EnablePooler", tplReplicaSet+"/enablePooler", ref{projectID, serviceID, replicaSetID}, true)
}

// DisablePooler switches a read replica set's connection pooler off.
func (r *ReplicaSetsClient) DisablePooler(ctx context.Context, projectID, serviceID, replicaSetID string) error {
	return replicaSetKind.switchPooler(ctx, r.api, "ReplicaSets.DisablePooler", tplReplicaSet+"/disablePooler", ref{projectID, serviceID, replicaSetID}, false)
}

// SetEnvironment sets a read replica set's environment tag.
func (r *ReplicaSetsClient) SetEnvironment(ctx context.Context, projectID, serviceID, replicaSetID string, env Environment) error {
	if err := checkEnvironment("env", env, false); err != nil {
		return err
	}
	return replicaSetKind.command(ctx, r.api, "ReplicaSets.SetEnvironment", http.MethodPost, tplReplicaSet+"/setEnvironment",
		ref{projectID, serviceID, replicaSetID}, environmentBody{env}, nil)
}
