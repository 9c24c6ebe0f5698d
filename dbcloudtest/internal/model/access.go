package model

import (
	"errors"
	"fmt"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
)

// ErrNotFound is the error of the test helpers (SetStatus, SeedLogs, ...)
// for an unknown service or replica set.
var ErrNotFound = errors.New("dbcloudtest: not found")

// Update runs fn for a request: under the model's lock, at the clock's
// next reading (a ticking clock moves on), with the model brought up to
// that time first. The operations on services run inside it.
func (m *Model) Update(fn func(now time.Time) error) error { return m.locked(m.clock.Now, fn) }

// Inspect runs fn as Update does, for a test helper: it reads the clock
// without ticking it (only requests and connections move a ticking clock).
func (m *Model) Inspect(fn func(now time.Time) error) error { return m.locked(m.clock.Peek, fn) }

// locked runs fn under the model's lock, at the time read says, once the
// model is brought up to it.
func (m *Model) locked(read func() time.Time, fn func(now time.Time) error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := read()
	m.sweep(now)
	return fn(now)
}

// withService runs fn as Inspect does on a service, found by id in any
// project (ids are unique).
func (m *Model) withService(serviceID string, fn func(s *Service, now time.Time) error) error {
	return m.Inspect(func(now time.Time) error {
		s := m.byID[serviceID]
		if s == nil {
			return fmt.Errorf("%w: service %q", ErrNotFound, serviceID)
		}
		return fn(s, now)
	})
}

// FindService finds a service of a project by id; inside Update.
func (m *Model) FindService(project, id string) (*Service, error) {
	if s := m.byID[id]; s != nil && s.project == project {
		return s, nil
	}
	return nil, apierr.NotFound("service", id)
}
