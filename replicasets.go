package dbcloud

import (
	"cmp"
	"context"
	"net/http"
)

// The changes of a read replica set. Its list is in reads.go, its waits in
// wait.go.

// Create starts creating a read replica set on a READY service and returns
// it, usually "creating" (see Under faults in the package documentation).
func (r *ReplicaSetsClient) Create(ctx context.Context, projectID, serviceID string, req *CreateReplicaSetRequest) (*ReadReplicaSet, error) {
	body, err := req.body()
	at := ref{projectID: projectID, serviceID: serviceID}
	seg, idsErr := at.escape(inService)
	if err := cmp.Or(idsErr, err); err != nil { // the ids' error first
		return nil, err
	}
	var w replicaSetJSON
	err = r.api.do(ctx, &request{op: "ReplicaSets.Create", method: http.MethodPost, kind: KindReplicaSet, at: at,
		tpl: tplReplicaSets, path: "/projects/" + seg.projectID + "/services/" + seg.serviceID + "/replicaSets",
		creates: true, want: wanted{name: req.Name}, body: body}, &w)
	if err != nil {
		return nil, err
	}
	return (*ReadReplicaSet)(&w), nil
}

// Delete starts deleting a read replica set (see Under faults in the
// package documentation).
func (r *ReplicaSetsClient) Delete(ctx context.Context, projectID, serviceID, replicaSetID string) error {
	return r.change(ctx, "ReplicaSets.Delete", http.MethodDelete, "", ref{projectID: projectID, serviceID: serviceID, replicaSetID: replicaSetID}, nil, nil)
}

// Resize changes the CPU and memory of each node of a read replica set.
func (r *ReplicaSetsClient) Resize(ctx context.Context, projectID, serviceID, replicaSetID string, req *ResizeRequest) error {
	body, err := req.body()
	if err != nil {
		return err
	}
	return r.change(ctx, "ReplicaSets.Resize", http.MethodPost, "/resize", ref{projectID: projectID, serviceID: serviceID, replicaSetID: replicaSetID}, body, setResizedTo(req))
}

// EnablePooler switches a read replica set's connection pooler on.
func (r *ReplicaSetsClient) EnablePooler(ctx context.Context, projectID, serviceID, replicaSetID string) error {
	return r.change(ctx, "ReplicaSets.EnablePooler", http.MethodPost, "/enablePooler", ref{projectID: projectID, serviceID: serviceID, replicaSetID: replicaSetID}, nil, poolerIs(true))
}

// DisablePooler switches a read replica set's connection pooler off.
func (r *ReplicaSetsClient) DisablePooler(ctx context.Context, projectID, serviceID, replicaSetID string) error {
	return r.change(ctx, "ReplicaSets.DisablePooler", http.MethodPost, "/disablePooler", ref{projectID: projectID, serviceID: serviceID, replicaSetID: replicaSetID}, nil, poolerIs(false))
}

// SetEnvironment sets a read replica set's environment tag.
func (r *ReplicaSetsClient) SetEnvironment(ctx context.Context, projectID, serviceID, replicaSetID string, env Environment) error {
	if err := checkEnvironment("env", env, false); err != nil {
		return err
	}
	return r.change(ctx, "ReplicaSets.SetEnvironment", http.MethodPost, "/setEnvironment", ref{projectID: projectID, serviceID: serviceID, replicaSetID: replicaSetID}, environmentBody{env}, nil)
}

// change sends op, a change of the replica set at names, on the set's path
// followed by action, with body (nil: none). done, when not nil, is how
// a retry's 409 is settled: whether a read of the set shows the change.
// A delete (method DELETE) is settled as deletes are.
func (r *ReplicaSetsClient) change(ctx context.Context, op, method, action string, at ref, body any, done func(*ReadReplicaSet) bool) error {
	seg, err := at.escape(inReplicaSet)
	if err != nil {
		return err
	}
	rr := request{op: op, method: method, kind: KindReplicaSet, at: at, body: body,
		tpl:  tplReplicaSet + action,
		path: "/projects/" + seg.projectID + "/services/" + seg.serviceID + "/replicaSets/" + seg.replicaSetID + action}
	if done != nil || method == http.MethodDelete {
		rr.effect = tookEffect(replicaSets{}, r.api, at, done, nil)
	}
	return r.api.do(ctx, &rr, nil)
}

// poolerIs is whether a set's connection pooler is on, as on says.
func poolerIs(on bool) func(*ReadReplicaSet) bool {
	return func(set *ReadReplicaSet) bool { return (set.ConnectionPooler != nil) == on }
}
