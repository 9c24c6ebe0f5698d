package dbcloud

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
)

// FleetResult is where each service of a WaitForAll stands when it returns:
// each is in exactly one map, by id. Reached holds them as read then;
// Failed, why a wait ended early; Pending, the last status of those still
// waited for at the timeout.
type FleetResult struct {
	Reached map[string]*Service
	Failed  map[string]*WaitError
	Pending map[string]*WaitError
}

// Err is nil when every service reached the status; otherwise it joins
// every failure and pending wait, in id order, for errors.Is and errors.As.
func (r *FleetResult) Err() error {
	ids := make([]string, 0, len(r.Failed)+len(r.Pending))
	for id := range r.Failed {
		ids = append(ids, id)
	}
	for id := range r.Pending {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	errs := make([]error, 0, len(ids))
	for _, id := range ids {
		if w, ok := r.Failed[id]; ok {
			errs = append(errs, w)
		} else {
			errs = append(errs, r.Pending[id])
		}
	}
	return errors.Join(errs...)
}

// WaitForAll waits until every service of fleet has status want, has
// failed, or the timeout ends, and says where each stands. fleet is the
// services as returned by Create, Fork, Get or List (&Service{ServiceID:
// id} for an id alone); one carrying its InitialPassword is waited for as
// with WithCreated(svc), which opts may not hold. WithProgress callbacks
// run concurrently. One timeout and one List per tick serve all (see
// Polling in the package documentation). The error is a *ValidationError
// (no result) or FleetResult.Err().
func (s *ServicesClient) WaitForAll(ctx context.Context, projectID string, fleet []*Service, want ServiceStatus, opts ...WaitOption) (*FleetResult, error) {
	if want == "" {
		return nil, invalid("want", "required")
	}
	members, err := fleetOf(projectID, fleet)
	if err != nil {
		return nil, err
	}
	cfg, err := s.api.newWaitConfig(opts)
	if err != nil {
		return nil, err
	}
	if len(cfg.createdList) > 0 {
		return nil, invalid("WithCreated", "WaitForAll takes the created services themselves, with their passwords, in fleet")
	}
	// One deadline for all, so that every wait ends together on it.
	cfg.setTimes(ctx)
	ctx, cancel := context.WithDeadline(ctx, cfg.end)
	defer cancel()
	cfg.timeout = 0

	res := &FleetResult{Reached: map[string]*Service{}, Failed: map[string]*WaitError{}, Pending: map[string]*WaitError{}}
	var (
		mu sync.Mutex
		wg sync.WaitGroup
	)
	for _, cr := range members {
		id, one := cr.id, cfg
		if cr.password != "" {
			one.createdList = []createdResource{cr}
		}
		wg.Go(func() {
			svc, err := s.waitService(ctx, projectID, id, one, newWaitSpec[Service](services{}, id, string(want), statusJudge(want)))
			mu.Lock()
			defer mu.Unlock()
			w, isWait := errors.AsType[*WaitError](err)
			switch {
			case err == nil:
				res.Reached[id] = svc
			case !isWait: // the checks above leave none: kept, named, all the same
				res.Failed[id] = &WaitError{Resource: string(KindService), ID: id, Want: string(want), Err: err}
			case ctx.Err() != nil && errors.Is(err, ctx.Err()):
				res.Pending[id] = w
			default:
				res.Failed[id] = w
			}
		})
	}
	wg.Wait()
	return res, res.Err()
}

// fleetOf checks the services of a WaitForAll and returns each once, in
// the order given, with the password it carries: a service listed twice
// with two passwords is a *ValidationError, since one would be kept for the
// wrong service.
func fleetOf(projectID string, fleet []*Service) ([]createdResource, error) {
	var members []createdResource
	at := map[string]int{} // id -> index in members
	for i, svc := range fleet {
		field := "fleet[" + strconv.Itoa(i) + "]"
		if svc == nil {
			return nil, invalid(field, "required")
		}
		if err := (ref{projectID: projectID, serviceID: svc.ServiceID}).check(inService); err != nil {
			return nil, fmt.Errorf("%s: %w", field, err)
		}
		cr := createdResource{kind: KindService, id: svc.ServiceID, password: svc.InitialPassword}
		j, seen := at[cr.id]
		switch {
		case !seen:
			at[cr.id] = len(members)
			members = append(members, cr)
		case cr.password == "":
		case members[j].password == "":
			members[j].password = cr.password
		case members[j].password != cr.password:
			return nil, invalid(field, "service "+strconv.Quote(cr.id)+" is listed twice with two passwords")
		}
	}
	return members, nil
}
