package dbcloud

import "context"

// The replica set forms of the Ensure steps (see ServicesClient.EnsurePooler
// for what they promise). There is no GET for one replica set: each reads
// the service's sets with List and finds the set by id; a set missing from
// the list is an error matching ErrNotFound.

// EnsurePooler turns the replica set's connection pooler on or off, unless
// it already is.
func (r *ReplicaSetsClient) EnsurePooler(ctx context.Context, projectID, serviceID, replicaSetID string, on bool) (changed bool, err error) {
	return replicaSetKind.ensure(ctx, r.api, ref{projectID, serviceID, replicaSetID}, replicaSetKind.poolerIs(on), func() error {
		if on {
			return r.EnablePooler(ctx, projectID, serviceID, replicaSetID)
		}
		return r.DisablePooler(ctx, projectID, serviceID, replicaSetID)
	})
}

// EnsureEnvironment sets the replica set's environment tag, unless it
// already has it.
func (r *ReplicaSetsClient) EnsureEnvironment(ctx context.Context, projectID, serviceID, replicaSetID string, env Environment) (changed bool, err error) {
	if err := checkEnvironment("env", env, false); err != nil {
		return false, err
	}
	return replicaSetKind.ensure(ctx, r.api, ref{projectID, serviceID, replicaSetID}, replicaSetKind.envIs(env), func() error {
		return r.SetEnvironment(ctx, projectID, serviceID, replicaSetID, env)
	})
}

// EnsureSize resizes the replica set to req's CPU and memory, unless it
// already has them. The change is applied asynchronously: wait with
// WaitForActive.
func (r *ReplicaSetsClient) EnsureSize(ctx context.Context, projectID, serviceID, replicaSetID string, req *ResizeRequest) (changed bool, err error) {
	if _, err := req.body(); err != nil {
		return false, err
	}
	return replicaSetKind.ensure(ctx, r.api, ref{projectID, serviceID, replicaSetID}, replicaSetKind.sized(req), func() error {
		return r.Resize(ctx, projectID, serviceID, replicaSetID, req)
	})
}

// CreateUnlessExists returns the service's replica set named req.Name if
// there is one that is not being deleted (created false), and creates it
// otherwise (created true). Names are not unique here either: see
// ServicesClient.CreateUnlessExists for what two racing deployers meet; the
// error for several sets of one name is a *DuplicateNameError.
func (r *ReplicaSetsClient) CreateUnlessExists(ctx context.Context, projectID, serviceID string, req *CreateReplicaSetRequest) (set *ReadReplicaSet, created bool, err error) {
	if _, err := req.body(); err != nil {
		return nil, false, err
	}
	return replicaSetKind.createUnlessExists(ctx, r.api, ref{projectID, serviceID, ""}, req.Name, nil, func() (*ReadReplicaSet, error) {
		return r.Create(ctx, projectID, serviceID, req)
	})
}
