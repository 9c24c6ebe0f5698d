package main

import (
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/deploy"
)

// waiting is how a command waits and reports its waits.
type waiting struct {
	timeout time.Duration
	verbose bool
}

// running is how apply and destroy run: how they wait, and how many
// services' changes they make at once.
type running struct {
	*waiting
	parallelism int
}

// addRunning adds -timeout, -v and -parallelism to fs.
func addRunning(fs *flag.FlagSet) *running {
	r := &running{waiting: addWaiting(fs)}
	fs.IntVar(&r.parallelism, "parallelism", deploy.DefaultParallelism, "how many services' changes to make at once (each service's own changes\nare made in order, a fork's after its parent's)")
	return r
}

// addWaiting adds -timeout and -v to fs.
func addWaiting(fs *flag.FlagSet) *waiting {
	w := &waiting{}
	fs.DurationVar(&w.timeout, "timeout", dbcloud.DefaultWaitTimeout, "how long each wait (for READY, for a delete, for a database that answers) may take")
	fs.BoolVar(&w.verbose, "v", false, "report each step as it starts and each status its wait sees, not only its end")
	return w
}

// progress returns the hook that writes a run's progress to out: a line
// for each step as it ends, with its resource, its outcome and the time it
// took; with -v, its start and each new status its wait sees too.
func (w *waiting) progress(out io.Writer) func(deploy.Progress) {
	polls := w.polls(out)
	return func(p deploy.Progress) {
		switch {
		case p.Poll != nil:
			polls(*p.Poll)
		case p.Record.Outcome != deploy.Running:
			fmt.Fprintf(out, "%s in %v\n", p.Record, took(p.Record.Duration))
		case w.verbose:
			fmt.Fprintln(out, p.Record)
		}
	}
}

// polls returns the hook that writes, with -v, each new status a wait
// sees: a status seen again is no news.
func (w *waiting) polls(out io.Writer) func(dbcloud.WaitProgress) {
	last := ""
	return func(p dbcloud.WaitProgress) {
		if line := "    " + p.String(); w.verbose && line != last {
			fmt.Fprintln(out, line)
			last = line
		}
	}
}

// took is a duration as a log line shows it: to the millisecond, or to
// the microsecond below one, where a change that takes effect at once is.
func took(d time.Duration) time.Duration {
	if d < time.Millisecond {
		return d.Round(time.Microsecond)
	}
	return d.Round(time.Millisecond)
}
