package deploy

import (
	"fmt"

	"github.com/dbcloud/dbcloud-go"
)

// Option configures a run: State.Apply, State.Destroy, Plan.Apply.
type Option func(*options)

type options struct {
	progress    []func(Progress)
	passwords   []func(Password) error
	waits       []dbcloud.WaitOption
	parallelism int
}

// WithWaitOptions adds options to every wait of a run: a timeout, a poll
// interval, stop statuses (dbcloud.WithStopOn).
func WithWaitOptions(opts ...dbcloud.WaitOption) Option {
	return func(o *options) { o.waits = append(o.waits, opts...) }
}

// DefaultParallelism is how many chains of changes (a service's, a
// fork's) a run makes at once unless WithParallelism says otherwise. It is
// Terraform's default, which platform teams know; and it bounds what a run
// sends at once, not what it waits for: the waits of a run share the
// client's poller, one list a tick whatever their number, so a higher
// bound costs the API the burst of creates and updates it starts together,
// and no more polls.
const DefaultParallelism = 10

// WithParallelism sets how many chains of changes a run makes at once: the
// changes of a service (the service, then its replica sets) are made one
// after the other, as are a fork's, after its parent's (a destroy: before
// it); those of different services at once, up to n. n < 1 is 1: one
// service after the other, in the plan's order.
func WithParallelism(n int) Option {
	return func(o *options) { o.parallelism = max(n, 1) }
}

// Progress is one report of a run: a change starting (Outcome Running),
// a poll of its wait (Poll set), or its end (its Outcome, Started and
// Duration set).
type Progress struct {
	Record Record
	// Poll is the poll of the change's wait that this report is; nil for
	// the change's start and end.
	Poll *dbcloud.WaitProgress
}

// String reads as one line of a deploy's log: the change with its
// outcome, or, for a poll, indented, the resource and the status seen.
// The start of a create, a poll of its wait, and its end, as log.Println
// prints them:
//
//	2026/11/28 09:00:00 + create service "orders": 1000m CPU / 4 GB: running
//	2026/11/28 09:00:05     service "orders" (svc-1): QUEUED
//	2026/11/28 09:01:40 + create service "orders" (svc-1): 1000m CPU / 4 GB: done
func (p Progress) String() string {
	if p.Poll == nil {
		return p.Record.String()
	}
	ch := p.Record.Change
	s := fmt.Sprintf("    %s %q", ch.Kind, ch.Name)
	if ch.Kind != dbcloud.KindService {
		s += fmt.Sprintf(" of %q", ch.Service)
	}
	return s + fmt.Sprintf(" (%s): %s", p.Poll.ID, p.Poll.Status)
}

// WithProgress calls fn when each change of a run starts and ends, and
// with each poll of its waits. The changes of several services run at
// once, so fn is called from several goroutines, but never twice at once:
// a run's hooks (WithProgress, WithPasswords) are called one at a time.
// Each WithProgress adds a callback: all are called, in the order of the
// options.
func WithProgress(fn func(Progress)) Option {
	return func(o *options) {
		if fn != nil {
			o.progress = append(o.progress, fn)
		}
	}
}

// Password is the password of the admin role (dbcloud.AdminRole) of a
// service or fork a run created: the create's, or, when the create's
// answer was lost, the new one create recovery set. The API hands a
// password out once; a run holds it nowhere else than in its Result.
type Password struct {
	Kind      dbcloud.ResourceKind `json:"kind"` // dbcloud.KindService or dbcloud.KindFork
	Name      string               `json:"name"`
	ServiceID string               `json:"service_id"`
	// Password prints, logs and encodes as "[redacted]": string(Password)
	// is the only way to read it.
	Password dbcloud.Secret `json:"password"`
}

// WithPasswords calls fn with each password a run obtains, as soon as it
// exists: right after the create's answer (or its recovery), before the
// create's wait and before any other step of its service, one call at a
// time (see WithProgress). Store it there (a secret manager, a CI secret): an error from
// fn stops the run with that error, the resource created and its password
// in the Result. Each WithPasswords adds a callback: all are called, in
// the order of the options.
//
// A crash of the process between the create's answer and fn's return
// leaves a service whose password nobody holds; the next run finds the
// service and has no password to hand. Set a new one with
// dbcloud.ServicesClient.UpdatePassword.
func WithPasswords(fn func(Password) error) Option {
	return func(o *options) {
		if fn != nil {
			o.passwords = append(o.passwords, fn)
		}
	}
}
