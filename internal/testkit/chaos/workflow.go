package chaos

import (
	"context"
	"errors"
	"fmt"
	"slices"
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
	// Class is why the workflow's failing call failed, decided from the
	// proxy's records of the call's requests and its error (see classes.go);
	// "" for a cleanup failure.
	Class string
	// Evidence is the proxy's record of the failing call's requests, in
	// short: the faulted ones, and how many went through clean.
	Evidence string

	call called // the failing call, for the classification
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

	service, set resource
}

// resource is what a workflow learned of a resource it created.
type resource struct {
	id string // as the create returned it; "" if it returned none
	// candidates are the ids the create's *MaybeCreatedError named: the
	// resources that may be this one.
	candidates []string
	// searchAt is set when the create failed with ErrMaybeCreated naming
	// no id: from then on (the settle period after the failure, as recovery
	// waits, since the request may still be on its way) a list shows
	// whether it happened. Zero otherwise.
	searchAt time.Time
	deleted  bool // the delete was accepted
}

// createFailed notes what a create's error says may exist; a
// *MaybeCreatedError's ids become known.
func (w *workflow) createFailed(r *resource, err error) {
	maybe, _ := errors.AsType[*dbcloud.MaybeCreatedError](err)
	switch {
	case maybe != nil && len(maybe.IDs) > 0:
		r.candidates = maybe.IDs
		w.ledger.learn(maybe.IDs...)
	case errors.Is(err, dbcloud.ErrMaybeCreated):
		r.searchAt = time.Now().Add(w.cfg.CreateSettle)
	}
}

// toDelete returns the ids cleanup deletes, each once: the one the create
// returned (unless its delete was accepted), the candidates, and found.
func (r *resource) toDelete(found []string) []string {
	var ids []string
	if r.id != "" && !r.deleted {
		ids = append(ids, r.id)
	}
	ids = slices.Concat(ids, r.candidates, found)
	slices.Sort(ids)
	return slices.Compact(ids)
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
		if c, err := w.calls.run(w.root, w.n, st.op, st.fn); err != nil {
			return &Failure{Workflow: w.n, Op: st.op, Err: err.Error(), call: c}
		}
	}
	return nil
}

func (w *workflow) createService(ctx context.Context) error {
	svc, err := w.client.Services.Create(ctx, w.project, &dbcloud.CreateServiceRequest{Name: w.name})
	// A service that recovery found but could not give a new password comes
	// back together with the error, so that it is not lost.
	if svc != nil {
		w.service.id = svc.ServiceID
		w.ledger.learn(svc.ServiceID)
	}
	w.createFailed(&w.service, err)
	return err
}

func (w *workflow) waitReady(ctx context.Context) error {
	_, err := w.client.Services.WaitForReady(ctx, w.project, w.service.id, w.poll)
	return err
}

func (w *workflow) resize(ctx context.Context) error {
	_, err := w.client.Services.Resize(ctx, w.project, w.service.id, &dbcloud.ResizeRequest{CPUMillis: 1000, MemoryGBs: 4})
	return err
}

func (w *workflow) createReplicaSet(ctx context.Context) error {
	set, err := w.client.ReplicaSets.Create(ctx, w.project, w.service.id, &dbcloud.CreateReplicaSetRequest{
		Name: w.setName(), Nodes: 1, CPUMillis: 500, MemoryGBs: 2,
	})
	if err != nil {
		w.createFailed(&w.set, err)
		return err
	}
	w.set.id = set.ID
	w.ledger.learn(set.ID)
	return nil
}

func (w *workflow) setName() string { return w.name + "-rs" }

func (w *workflow) waitActive(ctx context.Context) error {
	_, err := w.client.ReplicaSets.WaitForActive(ctx, w.project, w.service.id, w.set.id, w.poll)
	return err
}

// errNoLogs fails a read of a history the fake always starts with lines.
var errNoLogs = errors.New("chaos: AllLogs yielded no entry")

func (w *workflow) readLogs(ctx context.Context) error {
	n := 0
	for _, err := range w.client.Services.AllLogs(ctx, w.project, w.service.id, nil) {
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
	err := w.client.ReplicaSets.Delete(ctx, w.project, w.service.id, w.set.id)
	w.set.deleted = err == nil
	return err
}

func (w *workflow) waitReplicaSetDeleted(ctx context.Context) error {
	return w.client.ReplicaSets.WaitForDeleted(ctx, w.project, w.service.id, w.set.id, w.poll)
}

func (w *workflow) deleteService(ctx context.Context) error {
	err := w.client.Services.Delete(ctx, w.project, w.service.id)
	w.service.deleted = err == nil
	return err
}

func (w *workflow) waitServiceDeleted(ctx context.Context) error {
	return w.client.Services.WaitForDeleted(ctx, w.project, w.service.id, w.poll)
}

// cleanup deletes what the workflow created, as a careful script would:
// what it knows by id, what a create that may have happened named, and,
// after such a create that named nothing, whatever carries the requested
// name. Each call gets a fresh deadline and is repeated a bounded number of
// times. It returns the first cleanup call that never succeeded.
func (w *workflow) cleanup() *Failure {
	var fail *Failure
	note := func(op string, err error) {
		if err != nil && fail == nil {
			fail = &Failure{Workflow: w.n, Op: op, Err: err.Error()}
		}
	}

	var found []string
	if !w.set.searchAt.IsZero() {
		var err error
		found, err = w.findByName(opCleanupListReplicaSets, w.set.searchAt, func(ctx context.Context) (map[string]string, error) {
			list, err := w.client.ReplicaSets.List(ctx, w.project, w.service.id)
			names := map[string]string{}
			for _, s := range list {
				names[s.ID] = s.Name
			}
			return names, err
		}, w.setName())
		note(opCleanupListReplicaSets, err)
	}
	for _, id := range w.set.toDelete(found) {
		note(opCleanupDeleteSet, w.retry(opCleanupDeleteSet, deleted, func(ctx context.Context) error {
			return w.client.ReplicaSets.Delete(ctx, w.project, w.service.id, id)
		}))
	}

	found = nil
	if !w.service.searchAt.IsZero() {
		var err error
		found, err = w.findByName(opCleanupListServices, w.service.searchAt, func(ctx context.Context) (map[string]string, error) {
			list, err := w.client.Services.List(ctx, w.project)
			names := map[string]string{}
			for _, s := range list {
				names[s.ServiceID] = s.Name
			}
			return names, err
		}, w.name)
		note(opCleanupListServices, err)
	}
	for _, id := range w.service.toDelete(found) {
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

// findByName waits until from, then lists (with retries) and returns the
// ids whose name is name; they become known.
func (w *workflow) findByName(op string, from time.Time, list func(context.Context) (map[string]string, error), name string) ([]string, error) {
	select {
	case <-time.After(time.Until(from)):
	case <-w.root.Done():
	}
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
