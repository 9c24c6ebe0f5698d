package dbcloud

import (
	"cmp"
	"context"
	"time"
)

// ForkUnlessExists returns the fork of the service serviceID named req.Name
// (the parent's name with "-fork" when req.Name is "") if the project has
// one that is not being deleted (created false), and forks it otherwise
// (created true). A fork is found by its name and its parent, as its
// forked_from names it: a service of that name forked from another service,
// or not forked at all, is not it.
//
// It reads the parent first, for the name a fork gets by default and to
// check req against it (Validate): a PITR target before the parent's
// creation is a *ValidationError, sent nowhere.
//
// An existing fork comes from List, without InitialPassword, and names are
// not unique: what ServicesClient.CreateUnlessExists says of both holds
// here. Several forks of one parent with the name are a *DuplicateNameError.
func (s *ServicesClient) ForkUnlessExists(ctx context.Context, projectID, serviceID string, req *ForkServiceRequest) (svc *Service, created bool, err error) {
	if err := checkService(projectID, serviceID); err != nil {
		return nil, false, err
	}
	if _, err := req.body(); err != nil {
		return nil, false, err
	}
	parent, err := s.Get(ctx, projectID, serviceID)
	if err != nil {
		return nil, false, err
	}
	if err := req.Validate(parent); err != nil {
		return nil, false, err
	}
	name := cmp.Or(req.Name, parent.Name+"-fork")
	forkedFromParent := func(svc *Service) bool { return svc.ForkedFrom != nil && svc.ForkedFrom.ServiceID == serviceID }
	return serviceKind.createUnlessExists(ctx, s.api, ref{projectID: projectID}, name, forkedFromParent, func() (*Service, error) {
		return s.Fork(ctx, projectID, serviceID, req)
	})
}

// Validate checks req as Fork does before sending it and, when parent is
// not nil, against the service it forks: a PITR target before the parent's
// creation names a state that never existed. Fork itself does not read
// the parent; ForkUnlessExists does, and calls Validate. What the API may
// refuse besides (a target outside its restore window, which it does not
// document) cannot be checked here: see TargetTime.
//
// The parent's creation is checked only when it lies in the past of this
// machine's clock. One in its future says that the API's clock and this
// machine's disagree (or that the server is a test server whose clock runs
// ahead), and then the API's own judgement of the target is the one that
// counts.
func (r *ForkServiceRequest) Validate(parent *Service) error {
	if _, err := r.body(); err != nil {
		return err
	}
	if r.Strategy == ForkPITR && parent != nil && !parent.Created.IsZero() && parent.Created.Before(time.Now()) && r.TargetTime.Before(parent.Created) {
		return invalid("TargetTime", r.TargetTime.UTC().Format(time.RFC3339)+" is before the parent service was created ("+parent.Created.UTC().Format(time.RFC3339)+")")
	}
	return nil
}
