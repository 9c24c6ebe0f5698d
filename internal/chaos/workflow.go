package chaos

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// cleanupAttempts bounds how often cleanup repeats a call the SDK gave up on.
const cleanupAttempts = 5

// Failure is a workflow that stopped: the call that failed and its error's
// text, or, for a cleanup failure, the cleanup call that never succeeded.
type Failure struct {
	Workflow int
	Op       string
	Err      string
}

// ledger is what the workflows learned, for the end checks. Safe for
// concurrent use.
type ledger struct {
	mu              sync.Mutex
	known           map[string]bool // ids of services and sets some workflow learned about
	completed       int
	failures        []Failure
	cleanupFailures []Failure
}

func (l *ledger) learn(ids ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, id := range ids {
		l.known[id] = true
	}
}

// workflow is one deploy script: create a service, wait, resize, wait, add a
// replica set, wait, read the logs, delete everything and wait, through the
// shared client, each call with its own deadline. It remembers what it
// learned so that, when a call fails, it can clean up like a careful script.
type workflow struct {
	*soak
	n    int
	name string

	serviceID, setID string
	// maybeAt is when a create failed with ErrMaybeCreated (the service's,
	// or its set's, as serviceMaybe and setMaybe say); zero if none did.
	maybeAt                    time.Time
	serviceMaybe, setMaybe     bool
	serviceDeleted, setDeleted bool // the delete was accepted
}

// run runs the workflow and, if a call fails, the cleanup, and records the
// outcome in the ledger.
func (w *workflow) run() {
	fail := w.steps()
	if fail == nil {
		w.ledger.mu.Lock()
		w.ledger.completed++
		w.ledger.mu.Unlock()
		return
	}
	cleanupFail := w.cleanup()
	w.ledger.mu.Lock()
	defer w.ledger.mu.Unlock()
	w.ledger.failures = append(w.ledger.failures, *fail)
	if cleanupFail != nil {
		w.ledger.cleanupFailures = append(w.ledger.cleanupFailures, *cleanupFail)
	}
}

// steps runs the workflow's calls in order and stops at the first failure.
func (w *workflow) steps() *Failure {
	steps := []struct {
		op string
		fn func(context.Context) error
	}{
		{opCreateService, w.createService},
		{opWaitReady, w.waitReady},
		{opResize, w.resize},
		{opWaitResized, w.waitReady},
		{opCreateReplicaSet, w.createReplicaSet},
		{opWaitActive, w.waitActive},
		{opAllLogs, w.readLogs},
		{opDeleteReplicaSet, w.deleteReplicaSet},
		{opWaitReplicaSetDeleted, w.waitReplicaSetDeleted},
		{opDeleteService, w.deleteService},
		{opWaitServiceDeleted, w.waitServiceDeleted},
	}
	for _, st := range steps {
		if err := w.calls.do(w.root, w.n, st.op, st.fn); err != nil {
			return &Failure{Workflow: w.n, Op: st.op, Err: err.Error()}
		}
	}
	return nil
}

func (w *workflow) createService(ctx context.Context) error {
	svc, err := w.client.Services.Create(ctx, w.project, &dbcloud.CreateServiceRequest{Name: w.name})
	// A service that recovery found but could not give a new password comes
	// back together with the error, so that it is not lost.
	if svc != nil {
		w.serviceID = svc.ServiceID
		w.ledger.learn(svc.ServiceID)
	}
	if errors.Is(err, dbcloud.ErrMaybeCreated) {
		w.serviceMaybe, w.maybeAt = true, time.Now()
	}
	return err
}

func (w *workflow) waitReady(ctx context.Context) error {
	_, err := w.client.Services.WaitForReady(ctx, w.project, w.serviceID, w.poll)
	return err
}

func (w *workflow) resize(ctx context.Context) error {
	_, err := w.client.Services.Resize(ctx, w.project, w.serviceID, &dbcloud.ResizeRequest{CPUMillis: 1000, MemoryGBs: 4})
	return err
}

func (w *workflow) createReplicaSet(ctx context.Context) error {
	set, err := w.client.ReplicaSets.Create(ctx, w.project, w.serviceID, &dbcloud.CreateReplicaSetRequest{
		Name: w.setName(), Nodes: 1, CPUMillis: 500, MemoryGBs: 2,
	})
	if err != nil {
		if errors.Is(err, dbcloud.ErrMaybeCreated) {
			w.setMaybe, w.maybeAt = true, time.Now()
		}
		return err
	}
	w.setID = set.ID
	w.ledger.learn(set.ID)
	return nil
}

func (w *workflow) setName() string { return w.name + "-rs" }

func (w *workflow) waitActive(ctx context.Context) error {
	_, err := w.client.ReplicaSets.WaitForActive(ctx, w.project, w.serviceID, w.setID, w.poll)
	return err
}

// errNoLogs fails a read of a history the fake always starts with lines.
var errNoLogs = errors.New("chaos: AllLogs yielded no entry")

func (w *workflow) readLogs(ctx context.Context) error {
	n := 0
	for _, err := range w.client.Services.AllLogs(ctx, w.project, w.serviceID, nil) {
		if err != nil {
			return err
		}
		n++
	}
	if n == 0 {
		return errNoLogs
	}
	return nil
}

func (w *workflow) deleteReplicaSet(ctx context.Context) error {
	err := w.client.ReplicaSets.Delete(ctx, w.project, w.serviceID, w.setID)
	w.setDeleted = err == nil
	return err
}

func (w *workflow) waitReplicaSetDeleted(ctx context.Context) error {
	return w.client.ReplicaSets.WaitForDeleted(ctx, w.project, w.serviceID, w.setID, w.poll)
}

func (w *workflow) deleteService(ctx context.Context) error {
	err := w.client.Services.Delete(ctx, w.project, w.serviceID)
	w.serviceDeleted = err == nil
	return err
}

func (w *workflow) waitServiceDeleted(ctx context.Context) error {
	return w.client.Services.WaitForDeleted(ctx, w.project, w.serviceID, w.poll)
}

// cleanup deletes what the workflow created, as a careful script would:
// what it knows by id, and, after a create that failed with
// ErrMaybeCreated, whatever carries the requested name. Each call gets a
// fresh deadline and is repeated a bounded number of times. It returns the
// first cleanup call that never succeeded.
func (w *workflow) cleanup() *Failure {
	var fail *Failure
	note := func(op string, err error) {
		if err != nil && fail == nil {
			fail = &Failure{Workflow: w.n, Op: op, Err: err.Error()}
		}
	}

	if !w.maybeAt.IsZero() {
		// As recovery does: the create's request may still be on its way,
		// and a list before the settle period has passed proves nothing.
		select {
		case <-time.After(time.Until(w.maybeAt.Add(w.cfg.CreateSettle))):
		case <-w.root.Done():
		}
	}
	var sets []string
	if w.setID != "" && !w.setDeleted {
		sets = append(sets, w.setID)
	}
	if w.setMaybe {
		found, err := w.findByName(opCleanupListReplicaSets, func(ctx context.Context) (map[string]string, error) {
			list, err := w.client.ReplicaSets.List(ctx, w.project, w.serviceID)
			names := map[string]string{}
			for _, s := range list {
				names[s.ID] = s.Name
			}
			return names, err
		}, w.setName())
		note(opCleanupListReplicaSets, err)
		sets = append(sets, found...)
	}
	for _, id := range sets {
		note(opCleanupDeleteSet, w.retry(opCleanupDeleteSet, deleted, func(ctx context.Context) error {
			return w.client.ReplicaSets.Delete(ctx, w.project, w.serviceID, id)
		}))
	}

	var services []string
	if w.serviceID != "" && !w.serviceDeleted {
		services = append(services, w.serviceID)
	}
	if w.serviceMaybe {
		found, err := w.findByName(opCleanupListServices, func(ctx context.Context) (map[string]string, error) {
			list, err := w.client.Services.List(ctx, w.project)
			names := map[string]string{}
			for _, s := range list {
				names[s.ServiceID] = s.Name
			}
			return names, err
		}, w.name)
		note(opCleanupListServices, err)
		services = append(services, found...)
	}
	for _, id := range services {
		err := w.retry(opCleanupDeleteService, deleted, func(ctx context.Context) error {
			return w.client.Services.Delete(ctx, w.project, id)
		})
		note(opCleanupDeleteService, err)
		if err == nil {
			// Once: a service left DELETING is still accepted for deletion,
			// and the end check knows it.
			_ = w.calls.do(w.root, w.n, opCleanupWaitDeleted, func(ctx context.Context) error {
				return w.client.Services.WaitForDeleted(ctx, w.project, id, w.poll)
			})
		}
	}
	return fail
}

// findByName lists (with retries) and returns the ids whose name is name;
// they become known.
func (w *workflow) findByName(op string, list func(context.Context) (map[string]string, error), name string) ([]string, error) {
	var ids []string
	err := w.retry(op, succeeded, func(ctx context.Context) error {
		names, err := list(ctx)
		if err != nil {
			return err
		}
		ids = ids[:0]
		for id, n := range names {
			if n == name {
				ids = append(ids, id)
			}
		}
		return nil
	})
	w.ledger.learn(ids...)
	return ids, err
}

// retry repeats a cleanup call, each time with a fresh deadline, until done
// accepts its error or the attempts run out.
func (w *workflow) retry(op string, done func(error) bool, fn func(context.Context) error) error {
	for attempt := 1; ; attempt++ {
		err := w.calls.do(w.root, w.n, op, fn)
		if done(err) {
			return nil
		}
		if attempt == cleanupAttempts || w.root.Err() != nil {
			return fmt.Errorf("%d attempts: %w", attempt, err)
		}
	}
}

func succeeded(err error) bool { return err == nil }

// deleted accepts a delete's error that means the resource is gone or
// already being deleted: the API answers 409 only to a delete of a
// resource (or of a set whose service is) DELETING or DELETED.
func deleted(err error) bool {
	return err == nil || errors.Is(err, dbcloud.ErrNotFound) || errors.Is(err, dbcloud.ErrConflict)
}
