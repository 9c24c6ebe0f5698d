package deploy

import (
	"fmt"

	"github.com/dbcloud/dbcloud-go"
)

// Progress is one report of a run: a change starting (Outcome Running),
// a poll of its wait (Poll set), or its end (its Outcome, Started and
// Duration set).
type Progress struct {
	Change Change
	// Poll is the poll of the change's wait that this report is; nil for
	// the change's start and end.
	Poll *dbcloud.WaitProgress
}

// String reads as one line of a deploy's log: the change with its
// outcome, or, for a poll, the resource and the status seen:
//
//   - create service "orders": 1000m CPU / 4 GB: running
//     service "orders" (svc-1): QUEUED
//   - create service "orders" (svc-1): 1000m CPU / 4 GB: done
func (p Progress) String() string {
	if p.Poll == nil {
		return p.Change.String()
	}
	return fmt.Sprintf("    %s %q (%s): %s", p.Change.Kind, p.Change.Name, p.Poll.ID, p.Poll.Status)
}

// WithProgress calls fn when each change of a run starts and ends, and
// with each poll of its waits, on the goroutine that called the run. Each
// WithProgress adds a callback: all are called, in the order of the
// options.
func WithProgress(fn func(Progress)) Option {
	return func(o *options) {
		if fn != nil {
			o.progress = append(o.progress, fn)
		}
	}
}

func (r *run) emit(p Progress) {
	for _, fn := range r.opts.progress {
		fn(p)
	}
}
