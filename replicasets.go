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
	req := request{info: serviceCall("ReplicaSets.List", http.MethodGet, tplReplicaSets, projectID, serviceID), method: http.MethodGet, path: path}
	if err := r.api.run(ctx, req, &sets); err != nil {
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
// every create (see "Retries" in the package documentation), its ambiguous
// failures match ErrMaybeCreated, and WithCreateRecovery resolves them by
// listing the service's sets for the requested name.
func (r *ReplicaSetsClient) Create(ctx context.Context, projectID, serviceID string, req *CreateReplicaSetRequest) (*ReadReplicaSet, error) {
	path, err := servicePath(projectID, serviceID, "/replicaSets")
	if err != nil {
		return nil, err
	}
	body, err := req.body()
	if err != nil {
		return nil, err
	}
	cr := request{info: serviceCall("ReplicaSets.Create", http.MethodPost, tplReplicaSets, projectID, serviceID),
		creates: "replica set", method: http.MethodPost, path: path, body: body}
	ctx, c, err := r.api.begin(ctx, cr.info)
	if err != nil {
		return nil, err
	}
	if !r.api.recovery {
		var set replicaSetJSON
		o := r.api.send(ctx, cr, &set)
		if err := r.api.failure(cr, &o); err != nil {
			return nil, r.api.end(c, &o, err)
		}
		return (*ReadReplicaSet)(&set), r.api.end(c, &o, nil)
	}
	var o outcome
	send := func(ctx context.Context) (*ReadReplicaSet, error) {
		var set replicaSetJSON
		o = r.api.send(ctx, cr, &set)
		if err := r.api.failure(cr, &o); err != nil {
			return nil, err
		}
		return (*ReadReplicaSet)(&set), nil
	}
	set, _, err := recoverCreate(ctx, r.api, creation[ReadReplicaSet]{
		noun: "replica set",
		list: func(ctx context.Context) ([]ReadReplicaSet, error) { return r.List(ctx, projectID, serviceID) },
		id:   func(set *ReadReplicaSet) string { return set.ID },
		ours: func([]ReadReplicaSet) func(*ReadReplicaSet) bool {
			return func(set *ReadReplicaSet) bool { return set.Name == req.Name }
		},
		send: send,
	})
	return set, r.api.end(c, &o, err)
}

// Delete starts deleting a read replica set; use WaitForDeleted to block
// until it is gone. A retry answered 404, or 409 while the set is deleting
// or already gone, after an earlier attempt may have acted, is a success.
func (r *ReplicaSetsClient) Delete(ctx context.Context, projectID, serviceID, replicaSetID string) error {
	return r.command(ctx, "ReplicaSets.Delete", http.MethodDelete, tplReplicaSet, projectID, serviceID, replicaSetID, "", nil, func(ctx context.Context, answer *APIError) (bool, error) {
		if answer.StatusCode == http.StatusNotFound {
			return true, nil
		}
		set, err := r.find(ctx, projectID, serviceID, replicaSetID)
		switch {
		case isNotFound(err):
			return true, nil
		case err != nil:
			return false, err
		}
		return set.Status == ReplicaSetDeleting, nil
	})
}

// Resize changes the CPU and memory of each node of a read replica set.
func (r *ReplicaSetsClient) Resize(ctx context.Context, projectID, serviceID, replicaSetID string, req *ResizeRequest) error {
	body, err := req.body()
	if err != nil {
		return err
	}
	return r.command(ctx, "ReplicaSets.Resize", http.MethodPost, tplReplicaSet+"/resize", projectID, serviceID, replicaSetID, "/resize", body,
		r.confirmByRead(projectID, serviceID, replicaSetID, setResizedTo(req)))
}

// EnablePooler switches a read replica set's connection pooler on.
func (r *ReplicaSetsClient) EnablePooler(ctx context.Context, projectID, serviceID, replicaSetID string) error {
	return r.command(ctx, "ReplicaSets.EnablePooler", http.MethodPost, tplReplicaSet+"/enablePooler", projectID, serviceID, replicaSetID, "/enablePooler", nil,
		r.confirmByRead(projectID, serviceID, replicaSetID, setPoolerOn))
}

// DisablePooler switches a read replica set's connection pooler off.
func (r *ReplicaSetsClient) DisablePooler(ctx context.Context, projectID, serviceID, replicaSetID string) error {
	return r.command(ctx, "ReplicaSets.DisablePooler", http.MethodPost, tplReplicaSet+"/disablePooler", projectID, serviceID, replicaSetID, "/disablePooler", nil,
		r.confirmByRead(projectID, serviceID, replicaSetID, not(setPoolerOn)))
}

// SetEnvironment sets a read replica set's environment tag.
func (r *ReplicaSetsClient) SetEnvironment(ctx context.Context, projectID, serviceID, replicaSetID string, env Environment) error {
	if err := checkEnvironment("env", env, false); err != nil {
		return err
	}
	return r.command(ctx, "ReplicaSets.SetEnvironment", http.MethodPost, tplReplicaSet+"/setEnvironment", projectID, serviceID, replicaSetID, "/setEnvironment", environmentBody{env}, nil)
}

// command sends a repeatable request on one replica set; see
// caller.command for confirmed.
func (r *ReplicaSetsClient) command(ctx context.Context, op, method, tpl, projectID, serviceID, replicaSetID, tail string, body any, confirmed confirmation) error {
	path, err := replicaSetPath(projectID, serviceID, replicaSetID, tail)
	if err != nil {
		return err
	}
	info := CallInfo{Operation: op, Method: method, Path: tpl, ProjectID: projectID, ServiceID: serviceID, ReplicaSetID: replicaSetID}
	return r.api.command(ctx, request{info: info, method: method, path: path, body: body}, confirmed)
}

// confirmByRead returns a confirmation of a retry's 409: the set is looked up in
// its service's list, and the answer proves an earlier attempt worked when
// done holds for it.
func (r *ReplicaSetsClient) confirmByRead(projectID, serviceID, replicaSetID string, done func(*ReadReplicaSet) bool) confirmation {
	return func(ctx context.Context, answer *APIError) (bool, error) {
		if answer.StatusCode != http.StatusConflict {
			return false, nil
		}
		set, err := r.find(ctx, projectID, serviceID, replicaSetID)
		if err != nil {
			return false, err
		}
		return done(set), nil
	}
}
