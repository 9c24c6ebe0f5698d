package dbcloud

import "slices"

// The checks below say, from a read of a resource, whether an operation has
// already taken effect. A retry answered 409 after an earlier attempt may
// have acted is a success when its check holds: the earlier attempt did the
// work, and the 409 only says there is nothing left to do.

// statusIn holds when the service is in one of the statuses.
func statusIn(statuses ...ServiceStatus) func(*Service) bool {
	return func(svc *Service) bool { return slices.Contains(statuses, svc.Status) }
}

// changing holds while a change is applied, or once it is.
var changing = statusIn(StatusConfiguring, StatusReady)

// resizedTo holds when the service is being resized, or was, to req's sizes.
func resizedTo(req *ResizeRequest) func(*Service) bool {
	return func(svc *Service) bool {
		if !changing(svc) {
			return false
		}
		for _, r := range svc.Resources {
			if r.Spec != nil {
				return r.Spec.CPUMillis == req.CPUMillis && r.Spec.MemoryGBs == req.MemoryGBs
			}
		}
		return false
	}
}

// haSetTo holds when the service is being given, or has, the counts req sets.
func haSetTo(req *SetHARequest) func(*Service) bool {
	return func(svc *Service) bool {
		ha := svc.HAReplicas
		return changing(svc) && ha != nil &&
			(req.ReplicaCount == nil || *req.ReplicaCount == ha.ReplicaCount) &&
			(req.SyncReplicaCount == nil || *req.SyncReplicaCount == ha.SyncReplicaCount)
	}
}

// poolerOn holds when the service's connection pooler is on.
func poolerOn(svc *Service) bool { return svc.ConnectionPooler != nil }

// attachedTo holds when the service is attached to the VPC.
func attachedTo(vpcID string) func(*Service) bool {
	return func(svc *Service) bool { return svc.VPCEndpoint != nil && svc.VPCEndpoint.VPCID == vpcID }
}

func not[T any](f func(T) bool) func(T) bool { return func(v T) bool { return !f(v) } }

// setPoolerOn holds when the replica set's connection pooler is on.
func setPoolerOn(set *ReadReplicaSet) bool { return set.ConnectionPooler != nil }

// setResizedTo holds when the replica set is being resized, or was, to req's
// sizes.
func setResizedTo(req *ResizeRequest) func(*ReadReplicaSet) bool {
	return func(set *ReadReplicaSet) bool {
		return (set.Status == ReplicaSetResizing || set.Status == ReplicaSetActive) &&
			set.CPUMillis == req.CPUMillis && set.MemoryGBs == req.MemoryGBs
	}
}
