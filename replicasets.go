package dbcloud

import (
	"context"
	"net/http"
)

// List returns the read replica sets of a service.
func (r *ReplicaSetsClient) List(ctx context.Context, projectID, serviceID string) ([]ReadReplicaSet, error) {
	path, err := servicePath(projectID, serviceID, "/replicaSets")
	if err != nil {
		return nil, err
	}
	var sets replicaSetListJSON
	if err := r.t.do(ctx, request{method: http.MethodGet, path: path}, &sets); err != nil {
		return nil, err
	}
	out := make([]ReadReplicaSet, len(sets))
	for i := range sets {
		out[i] = ReadReplicaSet(sets[i])
	}
	return out, nil
}

// Create starts creating a read replica set on a READY service and returns
// it, usually "creating"; use WaitForActive to block until it serves. Like
// every create, it is never retried once the request may have reached the
// server.
func (r *ReplicaSetsClient) Create(ctx context.Context, projectID, serviceID string, req *CreateReplicaSetRequest) (*ReadReplicaSet, error) {
	path, err := servicePath(projectID, serviceID, "/replicaSets")
	if err != nil {
		return nil, err
	}
	body, err := req.body()
	if err != nil {
		return nil, err
	}
	var set replicaSetJSON
	if err := r.t.do(ctx, request{kind: creating, method: http.MethodPost, path: path, body: body}, &set); err != nil {
		return nil, err
	}
	return (*ReadReplicaSet)(&set), nil
}

// Delete starts deleting a read replica set; use WaitForDeleted to block
// until it is gone.
func (r *ReplicaSetsClient) Delete(ctx context.Context, projectID, serviceID, replicaSetID string) error {
	return r.command(ctx, http.MethodDelete, projectID, serviceID, replicaSetID, "", nil)
}

// Resize changes the CPU and memory of each node of a read replica set.
func (r *ReplicaSetsClient) Resize(ctx context.Context, projectID, serviceID, replicaSetID string, req *ResizeRequest) error {
	body, err := req.body()
	if err != nil {
		return err
	}
	return r.command(ctx, http.MethodPost, projectID, serviceID, replicaSetID, "/resize", body)
}

// EnablePooler switches a read replica set's connection pooler on.
func (r *ReplicaSetsClient) EnablePooler(ctx context.Context, projectID, serviceID, replicaSetID string) error {
	return r.command(ctx, http.MethodPost, projectID, serviceID, replicaSetID, "/enablePooler", nil)
}

// DisablePooler switches a read replica set's connection pooler off.
func (r *ReplicaSetsClient) DisablePooler(ctx context.Context, projectID, serviceID, replicaSetID string) error {
	return r.command(ctx, http.MethodPost, projectID, serviceID, replicaSetID, "/disablePooler", nil)
}

// SetEnvironment sets a read replica set's environment tag.
func (r *ReplicaSetsClient) SetEnvironment(ctx context.Context, projectID, serviceID, replicaSetID string, env Environment) error {
	if err := checkEnvironment("env", env, false); err != nil {
		return err
	}
	return r.command(ctx, http.MethodPost, projectID, serviceID, replicaSetID, "/setEnvironment", environmentBody{env})
}

// command sends a repeatable request on one replica set.
func (r *ReplicaSetsClient) command(ctx context.Context, method, projectID, serviceID, replicaSetID, tail string, body any) error {
	path, err := replicaSetPath(projectID, serviceID, replicaSetID, tail)
	if err != nil {
		return err
	}
	return r.t.do(ctx, request{method: method, path: path, body: body}, nil)
}
