package dbcloud

import "slices"

// The checks below say, from a read of a resource, whether a change has
// already taken effect: a retry's 409 is a success when it does (see
// "Under faults" in the package documentation).

// statusIn holds when the service is in one of the statuses.
func statusIn(statuses ...ServiceStatus) func(*Service) bool {
	return func(svc *Service) bool { return slices.Contains(statuses, svc.Status) }
}

// changing reports a service whose change is being applied, or is done.
func changing(svc *Service) bool {
	return svc.Status == StatusConfiguring || svc.Status == StatusReady
}

// serviceResizedTo holds when the service is being resized, or was, to
// req's sizes.
func serviceResizedTo(req *ResizeRequest) func(*Service) bool {
	return func(svc *Service) bool {
		cpu, mem := svc.Size()
		return changing(svc) && cpu == req.CPUMillis && mem == req.MemoryGBs
	}
}

// setResizedTo holds when the replica set is being resized, or was, to
// req's sizes.
func setResizedTo(req *ResizeRequest) func(*ReadReplicaSet) bool {
	return func(set *ReadReplicaSet) bool {
		return (set.Status == ReplicaSetResizing || set.Status == ReplicaSetActive) &&
			set.CPUMillis == req.CPUMillis && set.MemoryGBs == req.MemoryGBs
	}
}

// haSetTo holds when the service is being given, or has, the HA replica
// counts req sets, and reports its HA replicas.
func haSetTo(req *SetHARequest) func(*Service) bool {
	return func(svc *Service) bool {
		if !changing(svc) || svc.HAReplicas == nil {
			return false
		}
		ha := *svc.HAReplicas
		return (req.ReplicaCount == nil || *req.ReplicaCount == ha.ReplicaCount) &&
			(req.SyncReplicaCount == nil || *req.SyncReplicaCount == ha.SyncReplicaCount)
	}
}

// attachedTo holds when the service is attached to the VPC, or, when
// attached is false, is not.
func attachedTo(vpcID string, attached bool) func(*Service) bool {
	return func(svc *Service) bool { return (svc.VPCEndpoint != nil && svc.VPCEndpoint.VPCID == vpcID) == attached }
}
