package dbcloud

import (
	"fmt"
	"slices"
)

// WaitProgress is one poll of a wait, as WithWaitProgress reports it: which
// resource, and the status it was seen in. A deploy with several waits
// prints lines that say whose status each is.
type WaitProgress struct {
	Kind   string // "service" or "replica set", as WaitError.Resource
	ID     string // the service's or the replica set's id
	Name   string // the resource's name, as the poll read it
	Status string // the status seen, as the API sent it (see WithProgress)
	Want   string // what the wait waits for, as WaitError.Want
}

// String reads as one line of a deploy's log:
//
//	service "orders" (svc-1): QUEUED, waiting for READY
func (p WaitProgress) String() string {
	return fmt.Sprintf("%s %q (%s): %s, waiting for %s", p.Kind, p.Name, p.ID, p.Status, p.Want)
}

// WithWaitProgress calls fn after each poll with the resource (kind, id,
// name) and the status seen: WithProgress with the resource named, so that
// the lines of several waits (a deploy's, or WaitForAll's) say whose status
// each is. fn runs on the waiting goroutine, as WithProgress's callbacks
// do, after them; under WaitForAll that is several goroutines at once, so
// fn must be safe for that. Each WithWaitProgress adds a callback. A nil fn
// is ignored.
func WithWaitProgress(fn func(WaitProgress)) WaitOption {
	return func(c *waitConfig) {
		if fn != nil {
			c.events = append(c.events, fn)
		}
	}
}

// report hands one poll's status to the callbacks of WithProgress and of
// WithWaitProgress, in that order. w names the resource waited for.
func (c *waitConfig) report(w *WaitError, name, status string) {
	for _, fn := range c.progress {
		fn(status)
	}
	if len(c.events) == 0 {
		return
	}
	p := WaitProgress{Kind: w.Resource, ID: w.ID, Name: name, Status: status, Want: w.Want}
	for _, fn := range c.events {
		fn(p)
	}
}

// WaitStatus is a status a wait can see: a ServiceStatus or a
// ReplicaSetStatus. Only those two types have it, so that WithStopOn takes
// statuses of both kinds in one call and nothing else compiles.
type WaitStatus interface {
	waitStatus() string
}

func (s ServiceStatus) waitStatus() string    { return string(s) }
func (s ReplicaSetStatus) waitStatus() string { return string(s) }

// WithStopOn is WithStopStatuses for statuses of both kinds in one option:
//
//	dbcloud.WithStopOn(dbcloud.StatusUnstable, dbcloud.ReplicaSetError)
//
// gives one option list to the service waits and the replica set waits of a
// deploy. A wait stops on any status named that its resource reaches (the
// two kinds' values do not overlap: services' are upper case, replica
// sets' lower case), with ErrStopStatus as WithStopStatuses does. Options
// add up, with each other and with WithStopStatuses.
func WithStopOn(statuses ...WaitStatus) WaitOption {
	return func(c *waitConfig) {
		for _, s := range statuses {
			if s != nil && !slices.Contains(c.stop, s.waitStatus()) {
				c.stop = append(c.stop, s.waitStatus())
			}
		}
	}
}
