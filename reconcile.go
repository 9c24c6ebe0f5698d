package dbcloud

import "slices"

// The checks below say, from a read of a resource, whether an operation has
// already taken effect: a retry's 409 is a success when it does (see
// "Under faults" in the package documentation).

// statusIn holds when the service is in one of the statuses.
func statusIn(statuses ...ServiceStatus) func(*Service) bool {
	return func(svc *Service) bool { return slices.Contains(statuses, svc.Status) }
}

// poolerIs holds when the resource's connection pooler is on, or off.
func (k *kind[T, W]) poolerIs(on bool) func(*T) bool {
	return func(v *T) bool { return k.pooler(v) == on }
}

// sized holds when the resource has req's CPU and memory.
func (k *kind[T, W]) sized(req *ResizeRequest) func(*T) bool {
	return func(v *T) bool {
		cpu, mem := k.size(v)
		return cpu == req.CPUMillis && mem == req.MemoryGBs
	}
}

// resizedTo holds when the resource is being resized, or was, to req's
// sizes.
func (k *kind[T, W]) resizedTo(req *ResizeRequest) func(*T) bool {
	sized := k.sized(req)
	return func(v *T) bool { return k.changing(v) && sized(v) }
}

// hasHA holds when the service has the HA replica counts that req sets; one
// that reports no HA replicas has 0.
func hasHA(req *SetHARequest) func(*Service) bool {
	return func(svc *Service) bool {
		var ha HAReplicas
		if svc.HAReplicas != nil {
			ha = *svc.HAReplicas
		}
		return (req.ReplicaCount == nil || *req.ReplicaCount == ha.ReplicaCount) &&
			(req.SyncReplicaCount == nil || *req.SyncReplicaCount == ha.SyncReplicaCount)
	}
}

// haSetTo holds when the service is being given, or has, the counts req
// sets, and reports its HA replicas.
func haSetTo(req *SetHARequest) func(*Service) bool {
	has := hasHA(req)
	return func(svc *Service) bool { return serviceKind.changing(svc) && svc.HAReplicas != nil && has(svc) }
}

// attachedTo holds when the service is attached to the VPC, or, when
// attached is false, is not.
func attachedTo(vpcID string, attached bool) func(*Service) bool {
	return func(svc *Service) bool { return (svc.VPCEndpoint != nil && svc.VPCEndpoint.VPCID == vpcID) == attached }
}
