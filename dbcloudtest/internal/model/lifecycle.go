package model

import (
	"fmt"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/logstore"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/wire"
)

// The asynchronous operations on services, which lay out statuses on the
// clock. Each runs inside Update, on a service Update's caller found, with
// a body already checked: the errors here are the 409s of the package
// documentation's table, which come after the body's 400s.

// ServiceSpec is what a create asks for, read and checked.
type ServiceSpec struct {
	Name, Type, Region, Env string // Type: one of the Type constants; Env: EnvDev or EnvProd
	CPU, Mem, Replicas      int    // millicores, gigabytes and HA replicas
}

// Services renders every service of a project, oldest first.
func (m *Model) Services(project string, now time.Time) []wire.Service {
	out := []wire.Service{}
	for _, s := range m.services {
		if s.project == project {
			out = append(out, s.View(now))
		}
	}
	return out
}

// newService registers a service planned QUEUED -> CONFIGURING -> READY.
func (m *Model) newService(now time.Time, project string, spec ServiceSpec) (*Service, error) {
	s := &Service{
		id:         m.uniqueServiceID(),
		project:    project,
		name:       spec.Name,
		region:     spec.Region,
		typ:        spec.Type,
		env:        spec.Env,
		resourceID: m.randString(8, lowerAlnum),
		created:    now,
		sched:      m.plan(now, statusQueued, statusConfiguring, statusReady),
		// Kept with its monotonic reading: it is only compared with
		// time.Now and with times clients send.
		createdOnMachine: time.Now(),
		cpu:              spec.CPU,
		mem:              spec.Mem,
		replicas:         spec.Replicas,
		logs:             logstore.New(m.cfg.LogKeep),
		load:             m.idRand.IntN(1 << 20),
	}
	var err error
	if s.ep, err = m.openServiceEndpoint(s, false); err != nil {
		return nil, err
	}
	m.writeStartupLogs(s, now)
	m.startLogInterval(s)
	m.services = append(m.services, s)
	m.byID[s.id] = s
	return s, nil
}

// CreateService makes a service and renders it as the create answers.
func (m *Model) CreateService(now time.Time, project string, spec ServiceSpec) (wire.Service, error) {
	s, err := m.newService(now, project, spec)
	if err != nil {
		return wire.Service{}, err
	}
	return m.created(s, now), nil
}

// created renders a new service as its create or fork answers: in its
// first status, with its initial password.
func (m *Model) created(s *Service, now time.Time) wire.Service {
	v := s.view(now, s.sched[0].status)
	v.InitialPassword = m.password()
	return v
}

// DeleteService plans the deletion of s and of its sets.
func (m *Model) DeleteService(s *Service, now time.Time) error {
	if err := needAlive(s, now, "delete"); err != nil {
		return err
	}
	s.sched = m.planDeletion(now, statusDeleting)
	for _, rs := range s.sets {
		rs.sched = m.planDeletion(now, rsDeleting)
	}
	s.logs.Event(now, "received smart shutdown request: service deletion requested")
	return nil
}

// StartService resumes a PAUSED service.
func (m *Model) StartService(s *Service, now time.Time) (wire.Service, error) {
	return m.transition(s, now, "start", statusPaused, func() {
		s.logs.Event(now, "database system was shut down at "+now.UTC().Format("2006-01-02 15:04:05 MST"))
		s.logs.Event(now, "database system is ready to accept connections")
	}, statusResuming, statusReady)
}

// StopService pauses a READY service.
func (m *Model) StopService(s *Service, now time.Time) (wire.Service, error) {
	return m.transition(s, now, "stop", statusReady, func() {
		s.logs.Event(now, "received fast shutdown request")
		s.logs.Event(now, "aborting any active transactions")
		s.logs.Event(now, "database system is shut down")
	}, statusPausing, statusPaused)
}

// ResizeService gives a READY service new sizes, shown at once.
func (m *Model) ResizeService(s *Service, now time.Time, cpu, mem int) (wire.Service, error) {
	return m.reconfigure(s, now, "resize", func() {
		s.cpu, s.mem = cpu, mem
		s.logs.Event(now, fmt.Sprintf("configuration change requested: cpu_millis=%d memory_gbs=%d", cpu, mem))
		s.logs.Event(now, "received SIGHUP, reloading configuration files")
	})
}

// SetHA gives a READY service new HA replica counts, shown at once.
func (m *Model) SetHA(s *Service, now time.Time, replicas, sync int) (wire.Service, error) {
	return m.reconfigure(s, now, "setHA", func() {
		s.replicas, s.syncReps = replicas, sync
		s.logs.Event(now, fmt.Sprintf("high availability changed: %d replica(s), %d synchronous", replicas, sync))
	})
}

// reconfigure applies change to a READY service, which then goes through
// CONFIGURING back to READY.
func (m *Model) reconfigure(s *Service, now time.Time, op string, change func()) (wire.Service, error) {
	return m.transition(s, now, op, statusReady, change, statusConfiguring, statusReady)
}

// transition runs an asynchronous operation that needs s in status from:
// it applies change and plans the statuses that follow, and renders s in
// the first of them.
func (m *Model) transition(s *Service, now time.Time, op, from string, change func(), plan ...string) (wire.Service, error) {
	if err := needStatus(s, now, from, op); err != nil {
		return wire.Service{}, err
	}
	change()
	s.sched = m.plan(now, plan...)
	return s.view(now, plan[0]), nil
}
