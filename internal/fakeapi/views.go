package fakeapi

import (
	"encoding/json"
	"fmt"
	"time"
)

// serviceByID finds a live service by id in any project (service ids are
// unique across projects); the caller holds a.mu.
func (a *API) serviceByID(id string) (*service, time.Time) {
	now := a.clock.Now()
	a.sweep(now)
	return a.byID[id], now
}

// ServiceProject returns the project of the service with this id, so that
// a test that knows only the id can use the helpers that take both.
func (a *API) ServiceProject(serviceID string) (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if s, _ := a.serviceByID(serviceID); s != nil {
		return s.project, nil
	}
	return "", fmt.Errorf("%w: service %q", ErrNotFound, serviceID)
}

// ServiceJSON returns the service with this id, in any project, encoded as a
// GET of it would return it now. ok is false when there is no such service.
func (a *API) ServiceJSON(serviceID string) (body []byte, ok bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s, now := a.serviceByID(serviceID)
	if s == nil {
		return nil, false
	}
	return mustJSON(s.view(now, s.sched.current(now))), true
}

// ServicesJSON returns every service of every project as a JSON array,
// newest first, each as a GET of it would return it now.
func (a *API) ServicesJSON() []byte {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.clock.Now()
	a.sweep(now)
	out := make([]serviceJSON, 0, len(a.services))
	for i := len(a.services) - 1; i >= 0; i-- {
		s := a.services[i]
		out = append(out, s.view(now, s.sched.current(now)))
	}
	return mustJSON(out)
}

// mustJSON encodes one of the fake's own types, which cannot fail.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("fakeapi: encoding a view: " + err.Error())
	}
	return b
}
