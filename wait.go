package dbcloud

import (
	"context"
)

// deletedWant is WaitError.Want for the delete waits.
const deletedWant = "deleted"

// WaitForReady polls a service until it is READY and returns it, as
// "Waiting" and "Polling" in the package documentation say: it ends early,
// with a *WaitError, when the service is gone or being deleted, reaches a
// status of WithStopOn, or meets an error polling cannot outlast. READY
// means the control plane is done: to connect next, use WaitForConnectable.
func (s *ServicesClient) WaitForReady(ctx context.Context, projectID, serviceID string, opts ...WaitOption) (*Service, error) {
	return s.WaitForStatus(ctx, projectID, serviceID, StatusReady, opts...)
}

// WaitForStatus polls a service until its status is want and returns it, with
// the rules of WaitForReady. Seeing DELETING or DELETED while waiting for
// another status ends the wait with ErrUnexpectedStatus.
func (s *ServicesClient) WaitForStatus(ctx context.Context, projectID, serviceID string, want ServiceStatus, opts ...WaitOption) (*Service, error) {
	if want == "" {
		return nil, invalid("want", "required")
	}
	cfg, err := s.api.newWaitConfig(opts)
	if err != nil {
		return nil, err
	}
	svc, err := s.waitService(ctx, projectID, serviceID, cfg, newWaitSpec[Service](services{}, serviceID, string(want), statusJudge(want)))
	if err != nil {
		return nil, err
	}
	return svc, nil
}

// statusJudge is the built-in rule of a wait for want: done at want,
// ErrUnexpectedStatus when the service is being deleted instead.
func statusJudge(want ServiceStatus) func(*Service) (bool, error) {
	return func(got *Service) (bool, error) {
		switch {
		case got.Status == want:
			return true, nil
		case got.Status == StatusDeleting || got.Status == StatusDeleted:
			return false, ErrUnexpectedStatus
		}
		return false, nil
	}
}

// waitService runs a service wait, with the password of WithCreated
// kept in what it returns.
func (s *ServicesClient) waitService(ctx context.Context, projectID, serviceID string, cfg waitConfig, sp waitSpec[Service]) (*Service, error) {
	reads := serviceReads{scopeReads[Service]{s.api, services{}, ref{projectID: projectID}}}
	svc, err := wait(ctx, s.api, &cfg, inService, ref{projectID: projectID, serviceID: serviceID}, serviceID, serviceScope{projectID}, reads, sp)
	if svc != nil && svc.InitialPassword == "" {
		svc.InitialPassword = cfg.created.password
	}
	return svc, err
}

// WaitForDeleted polls a service until it is gone (404) or DELETED.
func (s *ServicesClient) WaitForDeleted(ctx context.Context, projectID, serviceID string, opts ...WaitOption) error {
	sp := newWaitSpec[Service](services{}, serviceID, deletedWant, func(v *Service) (bool, error) { return v.Status == StatusDeleted, nil })
	sp.goneIsDone = true
	cfg, err := s.api.newWaitConfig(opts)
	if err != nil {
		return err
	}
	_, err = s.waitService(ctx, projectID, serviceID, cfg, sp)
	return err
}

// WaitForActive polls a read replica set until it is active and returns it.
// There is no GET for one set: each poll lists the service's sets, one list
// for every wait on the sets of that service. A set missing from the list
// ends the wait with ErrNotFound; a set in "error" or "deleting" with
// ErrUnexpectedStatus. Other errors are handled as in
// ServicesClient.WaitForReady.
func (r *ReplicaSetsClient) WaitForActive(ctx context.Context, projectID, serviceID, replicaSetID string, opts ...WaitOption) (*ReadReplicaSet, error) {
	cfg, err := r.api.newWaitConfig(opts)
	if err != nil {
		return nil, err
	}
	set, err := r.waitSet(ctx, projectID, serviceID, replicaSetID, cfg, newWaitSpec[ReadReplicaSet](replicaSets{}, replicaSetID, string(ReplicaSetActive), activeJudge))
	if err != nil {
		return nil, err
	}
	return set, nil
}

// activeJudge is the built-in rule of a wait for an active set.
func activeJudge(got *ReadReplicaSet) (bool, error) {
	switch got.Status {
	case ReplicaSetActive:
		return true, nil
	case ReplicaSetError, ReplicaSetDeleting:
		return false, ErrUnexpectedStatus
	}
	return false, nil
}

// waitSet runs a replica set wait.
func (r *ReplicaSetsClient) waitSet(ctx context.Context, projectID, serviceID, replicaSetID string, cfg waitConfig, sp waitSpec[ReadReplicaSet]) (*ReadReplicaSet, error) {
	parent := ref{projectID: projectID, serviceID: serviceID}
	reads := scopeReads[ReadReplicaSet]{r.api, replicaSets{}, parent}
	return wait(ctx, r.api, &cfg, inReplicaSet, ref{projectID: projectID, serviceID: serviceID, replicaSetID: replicaSetID}, replicaSetID, replicaSetScope{projectID, serviceID}, reads, sp)
}

// WaitForDeleted polls a read replica set until it is missing from its
// service's list (or the service itself is gone). A set in "error" ends the
// wait with ErrUnexpectedStatus.
func (r *ReplicaSetsClient) WaitForDeleted(ctx context.Context, projectID, serviceID, replicaSetID string, opts ...WaitOption) error {
	sp := newWaitSpec[ReadReplicaSet](replicaSets{}, replicaSetID, deletedWant, func(v *ReadReplicaSet) (bool, error) {
		if v.Status == ReplicaSetError {
			return false, ErrUnexpectedStatus
		}
		return false, nil
	})
	sp.goneIsDone = true
	cfg, err := r.api.newWaitConfig(opts)
	if err != nil {
		return err
	}
	_, err = r.waitSet(ctx, projectID, serviceID, replicaSetID, cfg, sp)
	return err
}
