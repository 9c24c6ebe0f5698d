package dbcloud

import "context"

// The replica set forms of the Ensure steps (see ServicesClient.EnsurePooler
// for what they promise). There is no GET for one replica set: each reads
// the service's sets with List and finds the set by id; a set missing from
// the list is an error matching ErrNotFound.

// EnsurePooler turns the replica set's connection pooler on or off, unless
// it already is.
func (r *ReplicaSetsClient) EnsurePooler(ctx context.Context, projectID, serviceID, replicaSetID string, on bool) (changed bool, err error) {
	done := func(set *ReadReplicaSet) bool { return (set.ConnectionPooler != nil) == on }
	return r.ensure(ctx, projectID, serviceID, replicaSetID, done, func() error {
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
	done := func(set *ReadReplicaSet) bool { return set.Environment() == env }
	return r.ensure(ctx, projectID, serviceID, replicaSetID, done, func() error {
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
	done := func(set *ReadReplicaSet) bool {
		return set.CPUMillis == req.CPUMillis && set.MemoryGBs == req.MemoryGBs
	}
	return r.ensure(ctx, projectID, serviceID, replicaSetID, done, func() error {
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
	sets, err := r.List(ctx, projectID, serviceID)
	if err != nil {
		return nil, false, err
	}
	var found []ReadReplicaSet
	for _, s := range sets {
		if s.Name == req.Name && s.Status != ReplicaSetDeleting {
			found = append(found, s)
		}
	}
	switch len(found) {
	case 0:
		set, err := r.Create(ctx, projectID, serviceID, req)
		return set, err == nil, err
	case 1:
		return &found[0], false, nil
	}
	e := &DuplicateNameError{Name: req.Name}
	for _, s := range found {
		e.IDs = append(e.IDs, s.ID)
	}
	return nil, false, e
}

// ensure reads the replica set and, unless done holds, sends change.
func (r *ReplicaSetsClient) ensure(ctx context.Context, projectID, serviceID, replicaSetID string, done func(*ReadReplicaSet) bool, change func() error) (bool, error) {
	if replicaSetID == "" {
		return false, invalid("replicaSetID", "required")
	}
	read := func() (*ReadReplicaSet, error) { return r.find(ctx, projectID, serviceID, replicaSetID) }
	set, err := read()
	if err != nil {
		return false, err
	}
	return ensureStep(set, done, change, read)
}
