package deploy

import (
	"fmt"

	"github.com/dbcloud/dbcloud-go"
)

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
	return fmt.Sprintf("    %s (%s): %s", subject(ch.Kind, ch.Service, ch.Name), p.Poll.ID, p.Poll.Status)
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
