package deploy

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/dbcloud/dbcloud-go"
)

// The steps of a deploy that can run again and again: each reads the
// resource first, sends a change only when it is not already as wanted,
// and reports whether it sent one. Two deployers may run at once: when the
// other one's change lands between this step's read and its request, the
// API answers 409, the step reads again, and when the resource is now as
// wanted it reports no change and no error.

// ensure reads a resource with read and, unless done holds, sends change. A
// 409 to the change is another deployer's change landing first when a new
// read shows done: no change, no error.
func ensure[T any](ctx context.Context, read func(context.Context) (*T, error), done func(*T) bool, change func() error) (bool, error) {
	v, err := read(ctx)
	if err != nil {
		return false, err
	}
	return ensureFrom(ctx, v, read, done, change)
}

// ensureFrom is ensure from a read already made.
func ensureFrom[T any](ctx context.Context, v *T, read func(context.Context) (*T, error), done func(*T) bool, change func() error) (bool, error) {
	if done(v) {
		return false, nil
	}
	err := change()
	if errors.Is(err, dbcloud.ErrConflict) {
		if again, readErr := read(ctx); readErr == nil && done(again) {
			return false, nil
		}
	}
	return err == nil, err
}

// services are the service steps of one client and project.
type services struct {
	c         *dbcloud.Client
	projectID string
}

func (s services) reader(id string) func(context.Context) (*dbcloud.Service, error) {
	return func(ctx context.Context) (*dbcloud.Service, error) { return s.c.Services.Get(ctx, s.projectID, id) }
}

// ensurePooler turns the service's pooler on or off, unless it already is.
func (s services) ensurePooler(ctx context.Context, id string, on bool) (bool, error) {
	return ensure(ctx, s.reader(id), func(svc *dbcloud.Service) bool { return (svc.ConnectionPooler != nil) == on }, func() error {
		if on {
			return s.c.Services.EnablePooler(ctx, s.projectID, id)
		}
		return s.c.Services.DisablePooler(ctx, s.projectID, id)
	})
}

// ensureVPC attaches the service to the VPC, or detaches it from that VPC,
// unless it already is. A service attached to another VPC is an error when
// attaching (moving between networks is a decision, not a step to take
// silently) and nothing to do when detaching.
func (s services) ensureVPC(ctx context.Context, id, vpcID string, attached bool) (bool, error) {
	svc, err := s.c.Services.Get(ctx, s.projectID, id)
	if err != nil {
		return false, err
	}
	if attached && svc.VPCEndpoint != nil && svc.VPCEndpoint.VPCID != vpcID && svc.VPCEndpoint.VPCID != "" {
		return false, fmt.Errorf("service %s is attached to VPC %s, not %s: detach it first", id, svc.VPCEndpoint.VPCID, vpcID)
	}
	done := func(svc *dbcloud.Service) bool {
		return (svc.VPCEndpoint != nil && svc.VPCEndpoint.VPCID == vpcID) == attached
	}
	return ensureFrom(ctx, svc, s.reader(id), done, func() error {
		if attached {
			return s.c.Services.AttachToVPC(ctx, s.projectID, id, vpcID)
		}
		return s.c.Services.DetachFromVPC(ctx, s.projectID, id, vpcID)
	})
}

// ensureEnvironment sets the service's environment tag, unless it has it.
func (s services) ensureEnvironment(ctx context.Context, id string, env dbcloud.Environment) (bool, error) {
	return ensure(ctx, s.reader(id), func(svc *dbcloud.Service) bool { return svc.Environment() == env }, func() error {
		return s.c.Services.SetEnvironment(ctx, s.projectID, id, env)
	})
}

// ensureHA sets the HA replica counts that req sets, unless the service has
// them; one that reports no HA replicas has 0.
func (s services) ensureHA(ctx context.Context, id string, req *dbcloud.SetHARequest) (bool, error) {
	done := func(svc *dbcloud.Service) bool {
		var ha dbcloud.HAReplicas
		if svc.HAReplicas != nil {
			ha = *svc.HAReplicas
		}
		return (req.ReplicaCount == nil || *req.ReplicaCount == ha.ReplicaCount) &&
			(req.SyncReplicaCount == nil || *req.SyncReplicaCount == ha.SyncReplicaCount)
	}
	return ensure(ctx, s.reader(id), done, func() error {
		_, err := s.c.Services.SetHA(ctx, s.projectID, id, req)
		return err
	})
}

// ensureSize resizes the service to req's CPU and memory, unless it has
// them.
func (s services) ensureSize(ctx context.Context, id string, req *dbcloud.ResizeRequest) (bool, error) {
	done := func(svc *dbcloud.Service) bool {
		cpu, mem := svc.Size()
		return cpu == req.CPUMillis && mem == req.MemoryGBs
	}
	return ensure(ctx, s.reader(id), done, func() error {
		_, err := s.c.Services.Resize(ctx, s.projectID, id, req)
		return err
	})
}

// createUnlessExists returns the project's live service named req.Name
// (created false), or creates it (created true); several are a
// *DuplicateNameError. A found service carries no InitialPassword.
func (s services) createUnlessExists(ctx context.Context, req *dbcloud.CreateServiceRequest) (*dbcloud.Service, bool, error) {
	list, err := s.c.Services.List(ctx, s.projectID)
	if err != nil {
		return nil, false, err
	}
	return pickOrCreate(list, req.Name, "service", liveService, func(svc *dbcloud.Service) string { return svc.ServiceID },
		func(*dbcloud.Service) bool { return true }, func() (*dbcloud.Service, error) { return s.c.Services.Create(ctx, s.projectID, req) })
}

// forkUnlessExists returns the fork of parentID named req.Name (the
// parent's name with "-fork" when it is "") if the project has a live one,
// or forks it. A fork is found by its name and its parent. The parent is
// read first, for the default name and to check req against it.
func (s services) forkUnlessExists(ctx context.Context, parentID string, req *dbcloud.ForkServiceRequest) (*dbcloud.Service, bool, error) {
	if err := req.Validate(nil); err != nil {
		return nil, false, err
	}
	parent, err := s.c.Services.Get(ctx, s.projectID, parentID)
	if err != nil {
		return nil, false, err
	}
	if err := req.Validate(parent); err != nil {
		return nil, false, err
	}
	list, err := s.c.Services.List(ctx, s.projectID)
	if err != nil {
		return nil, false, err
	}
	ofParent := func(svc *dbcloud.Service) bool { return svc.ForkedFrom != nil && svc.ForkedFrom.ServiceID == parentID }
	return pickOrCreate(list, cmp.Or(req.Name, parent.Name+"-fork"), "service", liveService, func(svc *dbcloud.Service) string { return svc.ServiceID },
		ofParent, func() (*dbcloud.Service, error) { return s.c.Services.Fork(ctx, s.projectID, parentID, req) })
}

func liveService(svc *dbcloud.Service) bool { return !gone(svc.Status) }

// replicaSets are the replica set steps of one client, project and service.
type replicaSets struct {
	c                    *dbcloud.Client
	projectID, serviceID string
}

// reader finds the set in its service's list: there is no GET for one set.
func (r replicaSets) reader(id string) func(context.Context) (*dbcloud.ReadReplicaSet, error) {
	return func(ctx context.Context) (*dbcloud.ReadReplicaSet, error) {
		sets, err := r.c.ReplicaSets.List(ctx, r.projectID, r.serviceID)
		if err != nil {
			return nil, err
		}
		for i := range sets {
			if sets[i].ID == id {
				return &sets[i], nil
			}
		}
		return nil, fmt.Errorf("%w: replica set %s is not in the list of service %s", dbcloud.ErrNotFound, id, r.serviceID)
	}
}

// ensurePooler turns the set's pooler on or off, unless it already is.
func (r replicaSets) ensurePooler(ctx context.Context, id string, on bool) (bool, error) {
	return ensure(ctx, r.reader(id), func(set *dbcloud.ReadReplicaSet) bool { return (set.ConnectionPooler != nil) == on }, func() error {
		if on {
			return r.c.ReplicaSets.EnablePooler(ctx, r.projectID, r.serviceID, id)
		}
		return r.c.ReplicaSets.DisablePooler(ctx, r.projectID, r.serviceID, id)
	})
}

// ensureEnvironment sets the set's environment tag, unless it has it.
func (r replicaSets) ensureEnvironment(ctx context.Context, id string, env dbcloud.Environment) (bool, error) {
	return ensure(ctx, r.reader(id), func(set *dbcloud.ReadReplicaSet) bool { return set.Environment() == env }, func() error {
		return r.c.ReplicaSets.SetEnvironment(ctx, r.projectID, r.serviceID, id, env)
	})
}

// ensureSize resizes the set to req's CPU and memory, unless it has them.
func (r replicaSets) ensureSize(ctx context.Context, id string, req *dbcloud.ResizeRequest) (bool, error) {
	done := func(set *dbcloud.ReadReplicaSet) bool {
		return set.CPUMillis == req.CPUMillis && set.MemoryGBs == req.MemoryGBs
	}
	return ensure(ctx, r.reader(id), done, func() error {
		return r.c.ReplicaSets.Resize(ctx, r.projectID, r.serviceID, id, req)
	})
}

// createUnlessExists returns the service's live replica set named
// req.Name, or creates it; several are a *DuplicateNameError.
func (r replicaSets) createUnlessExists(ctx context.Context, req *dbcloud.CreateReplicaSetRequest) (*dbcloud.ReadReplicaSet, bool, error) {
	list, err := r.c.ReplicaSets.List(ctx, r.projectID, r.serviceID)
	if err != nil {
		return nil, false, err
	}
	return pickOrCreate(list, req.Name, "replica set", func(set *dbcloud.ReadReplicaSet) bool { return set.Status != dbcloud.ReplicaSetDeleting },
		func(set *dbcloud.ReadReplicaSet) string { return set.ID },
		func(*dbcloud.ReadReplicaSet) bool { return true }, func() (*dbcloud.ReadReplicaSet, error) {
			return r.c.ReplicaSets.Create(ctx, r.projectID, r.serviceID, req)
		})
}

// pickOrCreate returns the live item of list named name that match
// accepts, or, when there is none, what create makes; several are a
// *DuplicateNameError.
func pickOrCreate[T interface {
	dbcloud.Service | dbcloud.ReadReplicaSet
}](list []T, name, noun string, live func(*T) bool, id func(*T) string, match func(*T) bool, create func() (*T, error)) (*T, bool, error) {
	var found []*T
	for i := range list {
		if nameOf(&list[i]) == name && live(&list[i]) && match(&list[i]) {
			found = append(found, &list[i])
		}
	}
	switch len(found) {
	case 0:
		v, err := create()
		return v, err == nil, err
	case 1:
		return found[0], false, nil
	}
	e := &DuplicateNameError{Name: name, noun: noun}
	for _, f := range found {
		e.IDs = append(e.IDs, id(f))
	}
	return nil, false, e
}

func nameOf[T dbcloud.Service | dbcloud.ReadReplicaSet](v *T) string {
	switch v := any(v).(type) {
	case *dbcloud.Service:
		return v.Name
	case *dbcloud.ReadReplicaSet:
		return v.Name
	}
	return ""
}

// ErrDuplicateName matches the error of a deploy whose service, replica
// set or fork name more than one live resource has: see
// DuplicateNameError.
var ErrDuplicateName = errors.New("deploy: more than one resource has this name")

// DuplicateNameError is several live services (or replica sets, or forks
// of one parent) sharing a name of the state: a deploy cannot tell which
// one it means, and names none rather than guess.
type DuplicateNameError struct {
	Name string
	IDs  []string // the resources with the name, as the API listed them
	noun string
}

// Error names the resources.
func (e *DuplicateNameError) Error() string {
	return fmt.Sprintf("deploy: %d %ss are named %q (%s): delete the extra ones or deploy by id", len(e.IDs), e.noun, e.Name, strings.Join(e.IDs, ", "))
}

// Is makes errors.Is(err, ErrDuplicateName) hold.
func (e *DuplicateNameError) Is(target error) bool { return target == ErrDuplicateName }
