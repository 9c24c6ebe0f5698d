package dbcloud

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
)

// The Ensure methods are the steps of a deploy that can run again and again:
// each reads the service first and sends a change only when the service is
// not already as asked, and reports whether it sent one. A deploy written
// with them changes nothing, and makes no request that fails, when it runs
// against what an earlier run left.
//
// Two deployers may run at once. Each step is safe against that: when the
// other deployer's change lands between this step's read and its request,
// the API answers 409, the step reads the service again, and when it is now
// as asked the step reports no change and no error. What the steps cannot
// make safe is creating by name: see CreateUnlessExists.

// EnsurePooler turns the service's connection pooler on or off, unless it
// already is. changed reports whether a request was sent that did it.
func (s *ServicesClient) EnsurePooler(ctx context.Context, projectID, serviceID string, on bool) (changed bool, err error) {
	return serviceKind.ensure(ctx, s.api, ref{projectID, serviceID, ""}, serviceKind.poolerIs(on), func() error {
		if on {
			return s.EnablePooler(ctx, projectID, serviceID)
		}
		return s.DisablePooler(ctx, projectID, serviceID)
	})
}

// EnsureVPC attaches the service to the VPC, or detaches it from that VPC,
// unless it already is. A service attached to another VPC is an error when
// attaching (detach it first: moving between networks is a decision, not a
// step to take silently) and nothing to do when detaching.
func (s *ServicesClient) EnsureVPC(ctx context.Context, projectID, serviceID, vpcID string, attached bool) (changed bool, err error) {
	if err := checkVPCID(vpcID); err != nil {
		return false, err
	}
	svc, err := s.Get(ctx, projectID, serviceID)
	if err != nil {
		return false, err
	}
	if attached && svc.VPCEndpoint != nil && svc.VPCEndpoint.VPCID != vpcID && svc.VPCEndpoint.VPCID != "" {
		return false, fmt.Errorf("dbcloud: service %s is attached to VPC %s, not %s: detach it first", serviceID, svc.VPCEndpoint.VPCID, vpcID)
	}
	return serviceKind.ensureFrom(ctx, s.api, ref{projectID, serviceID, ""}, svc, attachedTo(vpcID, attached), func() error {
		if attached {
			return s.AttachToVPC(ctx, projectID, serviceID, vpcID)
		}
		return s.DetachFromVPC(ctx, projectID, serviceID, vpcID)
	})
}

// EnsureEnvironment sets the service's environment tag, unless it already
// has it.
func (s *ServicesClient) EnsureEnvironment(ctx context.Context, projectID, serviceID string, env Environment) (changed bool, err error) {
	if err := checkEnvironment("env", env, false); err != nil {
		return false, err
	}
	return serviceKind.ensure(ctx, s.api, ref{projectID, serviceID, ""}, serviceKind.envIs(env), func() error {
		return s.SetEnvironment(ctx, projectID, serviceID, env)
	})
}

// EnsureHA sets the service's HA replica counts that req sets, unless the
// service already has them. A service that reports no HA replicas has 0.
// The change is applied asynchronously, as with SetHA: wait with
// WaitForReady.
func (s *ServicesClient) EnsureHA(ctx context.Context, projectID, serviceID string, req *SetHARequest) (changed bool, err error) {
	if _, err := req.body(); err != nil {
		return false, err
	}
	return serviceKind.ensure(ctx, s.api, ref{projectID, serviceID, ""}, hasHA(req), func() error {
		_, err := s.SetHA(ctx, projectID, serviceID, req)
		return err
	})
}

// EnsureSize resizes the service to req's CPU and memory, unless it already
// has them. The change is applied asynchronously, as with Resize: wait with
// WaitForReady.
func (s *ServicesClient) EnsureSize(ctx context.Context, projectID, serviceID string, req *ResizeRequest) (changed bool, err error) {
	if _, err := req.body(); err != nil {
		return false, err
	}
	return serviceKind.ensure(ctx, s.api, ref{projectID, serviceID, ""}, serviceKind.sized(req), func() error {
		_, err := s.Resize(ctx, projectID, serviceID, req)
		return err
	})
}

// ensure reads the resource and, unless done holds, sends change.
func (k *kind[T, W]) ensure(ctx context.Context, api *caller, at ref, done func(*T) bool, change func() error) (bool, error) {
	v, err := k.read(ctx, api, at)
	if err != nil {
		return false, err
	}
	return k.ensureFrom(ctx, api, at, v, done, change)
}

// ensureFrom is ensure from a read already made. A 409 to the change is
// another deployer's change landing first when a new read shows done: no
// change, no error.
func (k *kind[T, W]) ensureFrom(ctx context.Context, api *caller, at ref, read *T, done func(*T) bool, change func() error) (bool, error) {
	if done(read) {
		return false, nil
	}
	err := change()
	if errors.Is(err, ErrConflict) {
		if again, readErr := k.read(ctx, api, at); readErr == nil && done(again) {
			return false, nil
		}
	}
	return err == nil, err
}

// ErrDuplicateName matches the error of CreateUnlessExists when more than
// one live service of the project (or replica set of the service) has the
// name: see DuplicateNameError.
var ErrDuplicateName = errors.New("dbcloud: more than one resource has this name")

// DuplicateNameError is CreateUnlessExists' answer when several live
// services (or replica sets) share the name: it cannot tell which one the
// deploy means.
type DuplicateNameError struct {
	Name string
	IDs  []string // the resources with the name, as List returned them
	noun string   // "service" or "replica set"; "" reads as "service"
}

// Error names the resources.
func (e *DuplicateNameError) Error() string {
	noun := cmp.Or(e.noun, "service")
	return fmt.Sprintf("dbcloud: %d %ss are named %q (%s): delete the extra ones or deploy by id", len(e.IDs), noun, e.Name, strings.Join(e.IDs, ", "))
}

// Is makes errors.Is(err, ErrDuplicateName) hold.
func (e *DuplicateNameError) Is(target error) bool { return target == ErrDuplicateName }

// CreateUnlessExists returns the project's live service named req.Name if
// there is one (created false), and creates it otherwise (created true). A
// service that is DELETING or DELETED does not count.
//
// An existing service comes from List, without InitialPassword: the password
// was returned once, by the create that made it. Keep it from that run, or
// set a new one with UpdatePassword.
//
// Names are not unique: the API accepts two services with the same name, and
// has no idempotency key. Two deployers that run at once can both find no
// service and both create one; each gets its own, and a later run of either
// gets a *DuplicateNameError (matching ErrDuplicateName) naming both, rather
// than silently picking one. Run deploys of one project one at a time (a CI
// concurrency group, a lock) to avoid it. A create whose outcome is unknown
// matches ErrMaybeCreated as with Create; with WithCreateRecovery it is
// resolved by listing, as for Create.
func (s *ServicesClient) CreateUnlessExists(ctx context.Context, projectID string, req *CreateServiceRequest) (svc *Service, created bool, err error) {
	if _, err := req.body(); err != nil {
		return nil, false, err
	}
	return serviceKind.createUnlessExists(ctx, s.api, ref{projectID: projectID}, req.Name, nil, func() (*Service, error) {
		return s.Create(ctx, projectID, req)
	})
}

// createUnlessExists returns the live resource named name under the parent
// that at names (and that match, when not nil, accepts), or, when there is
// none, the one create makes; several are a *DuplicateNameError.
func (k *kind[T, W]) createUnlessExists(ctx context.Context, api *caller, at ref, name string, match func(*T) bool, create func() (*T, error)) (v *T, created bool, err error) {
	list, err := k.list(ctx, api, at)
	if err != nil {
		return nil, false, err
	}
	var found []T
	for i := range list {
		if k.name(&list[i]) == name && !k.deleting(&list[i]) && (match == nil || match(&list[i])) {
			found = append(found, list[i])
		}
	}
	switch len(found) {
	case 0:
		v, err := create()
		return v, err == nil, err
	case 1:
		return &found[0], false, nil
	}
	e := &DuplicateNameError{Name: name, noun: k.noun}
	for i := range found {
		e.IDs = append(e.IDs, k.id(&found[i]))
	}
	return nil, false, e
}
