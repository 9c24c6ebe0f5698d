package dbcloud

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
)

// FleetResult is where each service of a WaitForAll stands when it returns.
// Every id passed is in exactly one of the three maps.
type FleetResult struct {
	// Reached holds the services that reached the wanted status, as read then.
	Reached map[string]*Service
	// Failed holds, for each service whose wait ended early, why: its
	// *WaitError, which names the service (ID, and Name once a read showed
	// it) and matches ErrNotFound, ErrUnexpectedStatus, ErrStopStatus, a
	// condition's error, or the *APIError polling cannot outlast.
	Failed map[string]*WaitError
	// Pending holds the services still waited for when the context or the
	// wait's timeout ended: the *WaitError with their last status.
	Pending map[string]*WaitError
}

// Err is nil when every service reached the status; otherwise an error
// that joins every failure and every pending wait, in the order of the ids
// (errors.Is and errors.As see each of them).
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

// WaitForAll waits until every listed service of a project has status want,
// or has failed, or the wait's deadline ends, and says where each one
// stands. It never stops at the first failure: a fleet deploy needs every
// failure at once. The error is nil when all reached want, a
// *ValidationError before anything is sent, or FleetResult.Err() otherwise;
// the result is returned in every case but validation.
//
// The waits share the project's reads: one List per tick, however many
// services (see "Polling" in the package documentation). opts apply to
// each service's wait (WithProgress callbacks then run on several
// goroutines at once); one timeout bounds them all; a WithCreated per
// service just created. Duplicate ids are waited for once.
func (s *ServicesClient) WaitForAll(ctx context.Context, projectID string, serviceIDs []string, want ServiceStatus, opts ...WaitOption) (*FleetResult, error) {
	if want == "" {
		return nil, invalid("want", "required")
	}
	for i, id := range serviceIDs {
		if err := (ref{projectID, id, ""}).check(inService); err != nil {
			return nil, fmt.Errorf("serviceIDs[%d]: %w", i, err)
		}
	}
	cfg, err := s.api.newWaitConfig(opts)
	if err != nil {
		return nil, err
	}
	created := map[string]createdResource{}
	for _, cr := range cfg.createdList {
		if cr.kind != KindService || !slices.Contains(serviceIDs, cr.id) {
			return nil, invalid("WithCreated", "the "+string(cr.kind)+" "+strconv.Quote(cr.id)+" is not a service waited for")
		}
		created[cr.id] = cr
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
	seen := map[string]bool{}
	for _, id := range serviceIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		one := cfg
		one.createdList = nil
		if cr, ok := created[id]; ok {
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
