package deploy

import (
	"context"

	"github.com/dbcloud/dbcloud-go"
)

// observed is what exists of a state: its service (nil when there is
// none), the service's live replica sets, and its live forks.
type observed struct {
	svc   *dbcloud.Service
	sets  []dbcloud.ReadReplicaSet
	forks []dbcloud.Service
}

// observe reads, with GETs only, what exists of st in the project.
func observe(ctx context.Context, c *dbcloud.Client, projectID string, st *State) (*observed, error) {
	all, err := c.Services.List(ctx, projectID)
	if err != nil {
		return nil, err
	}
	o := &observed{}
	var ids []string
	for i := range all {
		if all[i].Name == st.Service.Name && !gone(all[i].Status) {
			o.svc = &all[i]
			ids = append(ids, all[i].ServiceID)
		}
	}
	switch {
	case len(ids) > 1:
		return nil, &DuplicateNameError{Name: st.Service.Name, IDs: ids, noun: "service"}
	case o.svc == nil:
		return o, nil
	}
	for _, s := range all {
		if s.ForkedFrom != nil && s.ForkedFrom.ServiceID == o.svc.ServiceID && !gone(s.Status) {
			o.forks = append(o.forks, s)
		}
	}
	sets, err := c.ReplicaSets.List(ctx, projectID, o.svc.ServiceID)
	if err != nil {
		return nil, err
	}
	for _, rs := range sets {
		if rs.Status != dbcloud.ReplicaSetDeleting {
			o.sets = append(o.sets, rs)
		}
	}
	return o, nil
}

// gone holds for a service being deleted or deleted: it no longer counts.
func gone(s dbcloud.ServiceStatus) bool {
	return s == dbcloud.StatusDeleting || s == dbcloud.StatusDeleted
}

// setNamed returns the live replica set named name, or nil.
func (o *observed) setNamed(name string) *dbcloud.ReadReplicaSet {
	for i := range o.sets {
		if o.sets[i].Name == name {
			return &o.sets[i]
		}
	}
	return nil
}

// forkNamed returns the live fork named name, or nil.
func (o *observed) forkNamed(name string) *dbcloud.Service {
	for i := range o.forks {
		if o.forks[i].Name == name {
			return &o.forks[i]
		}
	}
	return nil
}

// serviceSize is the service's CPU and memory as its first resource says.
func serviceSize(svc *dbcloud.Service) (cpu, mem int) {
	if len(svc.Resources) > 0 && svc.Resources[0].Spec != nil {
		return svc.Resources[0].Spec.CPUMillis, svc.Resources[0].Spec.MemoryGBs
	}
	return 0, 0
}

func haReplicas(svc *dbcloud.Service) int {
	if svc.HAReplicas == nil {
		return 0
	}
	return svc.HAReplicas.ReplicaCount
}

func serviceEnv(svc *dbcloud.Service) dbcloud.Environment {
	if svc.Metadata == nil {
		return ""
	}
	return svc.Metadata.Environment
}

func setEnv(rs *dbcloud.ReadReplicaSet) dbcloud.Environment {
	if rs.Metadata == nil {
		return ""
	}
	return rs.Metadata.Environment
}

func vpcOf(svc *dbcloud.Service) string {
	if svc.VPCEndpoint == nil {
		return ""
	}
	return svc.VPCEndpoint.VPCID
}
