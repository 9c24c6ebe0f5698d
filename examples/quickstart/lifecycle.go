package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// quickstart runs the lifecycle and remembers what it created, so that
// cleanup can delete it whatever happened.
type quickstart struct {
	c       *dbcloud.Client
	project string
	out     io.Writer
	timeout dbcloud.WaitOption

	services    []string // created service ids, oldest first
	replicaSets [][2]string
}

func (q *quickstart) say(format string, args ...any) {
	fmt.Fprintf(q.out, format+"\n", args...)
}

// progress prints each status a wait sees, once.
func (q *quickstart) progress(what string) dbcloud.WaitOption {
	return dbcloud.WithProgress(q.printer(what))
}

func (q *quickstart) printer(what string) func(dbcloud.WaitProgress) {
	var last dbcloud.WaitStatus
	return func(p dbcloud.WaitProgress) {
		if p.Status != last {
			q.say("   %s: %s", what, p.Status)
			last = p.Status
		}
	}
}

// waitReady waits for the control plane: enough before the next API call.
func (q *quickstart) waitReady(ctx context.Context, id, what string) (*dbcloud.Service, error) {
	return q.c.Services.WaitForReady(ctx, q.project, id, q.timeout, q.progress(what))
}

// waitConnectable waits until the database answers, which can be a moment
// after READY, and says when it did: wait for this before connecting.
func (q *quickstart) waitConnectable(ctx context.Context, id, what string) (*dbcloud.Service, error) {
	print := q.printer(what)
	var readyAt time.Time
	svc, err := q.c.Services.WaitForConnectable(ctx, q.project, id, q.timeout,
		dbcloud.WithProgress(func(p dbcloud.WaitProgress) {
			print(p)
			if p.Status == dbcloud.StatusReady && readyAt.IsZero() {
				readyAt = time.Now()
			}
		}))
	if err != nil {
		return nil, err
	}
	q.say("   database answering at %s, %v after READY", endpoint(svc.Endpoint), time.Since(readyAt).Round(time.Millisecond))
	return svc, nil
}

func (q *quickstart) lifecycle(ctx context.Context) error {
	services := q.c.Services

	q.say("1. Create a time-series service")
	svc, err := services.Create(ctx, q.project, &dbcloud.CreateServiceRequest{
		Name:           "quickstart-" + time.Now().UTC().Format("20060102-150405"),
		Addons:         []dbcloud.Addon{dbcloud.AddonTimeSeries},
		EnvironmentTag: dbcloud.EnvironmentDev,
	})
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	id := svc.ServiceID
	q.services = append(q.services, id)
	q.say("   created %s (%s), initial password received: %t", id, svc.Status, svc.InitialPassword != "")
	if _, err = q.waitConnectable(ctx, id, "service"); err != nil {
		return err
	}

	q.say("2. Resize to 1000 millicores and 4 GB")
	if _, err := services.Resize(ctx, q.project, id, &dbcloud.ResizeRequest{CPUMillis: 1000, MemoryGBs: 4}); err != nil {
		return fmt.Errorf("resize: %w", err)
	}
	if svc, err = q.waitReady(ctx, id, "service"); err != nil {
		return err
	}
	for _, r := range svc.Resources {
		if r.Spec != nil {
			q.say("   resources: %d millicores, %d GB", r.Spec.CPUMillis, r.Spec.MemoryGBs)
		}
	}

	q.say("3. Add a high-availability replica")
	if _, err := services.SetHA(ctx, q.project, id, &dbcloud.SetHARequest{ReplicaCount: new(1)}); err != nil {
		return fmt.Errorf("set HA: %w", err)
	}
	if svc, err = q.waitReady(ctx, id, "service"); err != nil {
		return err
	}
	if svc.HAReplicas != nil {
		q.say("   HA replicas: %d", svc.HAReplicas.ReplicaCount)
	}

	q.say("4. Enable the connection pooler")
	if err := services.EnablePooler(ctx, q.project, id); err != nil {
		return fmt.Errorf("enable pooler: %w", err)
	}
	if svc, err = services.Get(ctx, q.project, id); err != nil {
		return fmt.Errorf("get: %w", err)
	}
	if svc.ConnectionPooler != nil {
		q.say("   pooler at %s", endpoint(svc.ConnectionPooler.Endpoint))
	}

	q.say("5. Add a read replica set")
	set, err := q.c.ReplicaSets.Create(ctx, q.project, id, &dbcloud.CreateReplicaSetRequest{
		Name: "reporting", Nodes: 1, CPUMillis: 500, MemoryGBs: 2,
	})
	if err != nil {
		return fmt.Errorf("create replica set: %w", err)
	}
	q.replicaSets = append(q.replicaSets, [2]string{id, set.ID})
	if set, err = q.c.ReplicaSets.WaitForConnectable(ctx, q.project, id, set.ID, q.timeout, q.progress("replica set")); err != nil {
		return err
	}
	q.say("   replica set %s answering at %s", set.ID, endpoint(set.Endpoint))

	q.say("6. Fork the service from a fresh snapshot")
	fork, err := services.Fork(ctx, q.project, id, &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkNow})
	if err != nil {
		return fmt.Errorf("fork: %w", err)
	}
	q.services = append(q.services, fork.ServiceID)
	if fork, err = q.waitConnectable(ctx, fork.ServiceID, "fork"); err != nil {
		return err
	}
	q.say("   fork %s (%s) ready, forked from %s", fork.ServiceID, fork.Name, fork.ForkedFrom.ServiceID)

	q.say("7. The service's newest log lines")
	shown := 0
	for entry, err := range services.AllLogs(ctx, q.project, id, nil) {
		if err != nil {
			return fmt.Errorf("logs: %w", err)
		}
		q.say("   %s %-7s %s", entry.Timestamp.Format(time.TimeOnly), entry.Severity, entry.Message)
		if shown++; shown == 5 {
			break // AllLogs fetches lazily: this read cost one request
		}
	}

	q.say("8. Stop and start the service")
	if _, err := services.Stop(ctx, q.project, id); err != nil {
		return fmt.Errorf("stop: %w", err)
	}
	if _, err := services.WaitForStatus(ctx, q.project, id, dbcloud.StatusPaused, q.timeout, q.progress("service")); err != nil {
		return err
	}
	if _, err := services.Start(ctx, q.project, id); err != nil {
		return fmt.Errorf("start: %w", err)
	}
	_, err = q.waitConnectable(ctx, id, "service")
	return err
}

// cleanup deletes what lifecycle created and waits until it is gone. It has
// its own context: it must run even after Ctrl-C cancelled the lifecycle.
func (q *quickstart) cleanup() error {
	if len(q.services) == 0 {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	q.say("9. Delete everything created")
	var errs []error
	for _, rs := range q.replicaSets {
		serviceID, setID := rs[0], rs[1]
		err := q.c.ReplicaSets.Delete(ctx, q.project, serviceID, setID)
		if err == nil {
			err = q.c.ReplicaSets.WaitForDeleted(ctx, q.project, serviceID, setID)
		}
		if err != nil && !errors.Is(err, dbcloud.ErrNotFound) {
			errs = append(errs, fmt.Errorf("delete replica set %s: %w", setID, err))
			continue
		}
		q.say("   replica set %s deleted", setID)
	}
	for i := len(q.services) - 1; i >= 0; i-- {
		id := q.services[i]
		err := q.c.Services.Delete(ctx, q.project, id)
		if err == nil {
			err = q.c.Services.WaitForDeleted(ctx, q.project, id, q.progress(id))
		}
		if err != nil && !errors.Is(err, dbcloud.ErrNotFound) {
			errs = append(errs, fmt.Errorf("delete service %s: %w", id, err))
			continue
		}
		q.say("   %s deleted", id)
	}
	return errors.Join(errs...)
}

func endpoint(e *dbcloud.Endpoint) string {
	if e == nil {
		return "(no endpoint yet)"
	}
	return fmt.Sprintf("%s:%d", e.Host, e.Port)
}
