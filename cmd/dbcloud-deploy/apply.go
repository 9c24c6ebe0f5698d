package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/deploy"
)

// planAndApply plans with planOf and applies that plan: planned first, rather
// than with State.Apply in one call, for the plan's lines in the log and
// to know before anything is sent whether a password will need a file.
func (c *command) planAndApply(ctx context.Context, client *dbcloud.Client, planOf func(context.Context, *dbcloud.Client) (*deploy.Plan, error), passwords string, w *running) int {
	p, err := planOf(ctx, client)
	if err != nil {
		if p != nil {
			fmt.Fprint(c.stderr, p)
		}
		return c.fail(err)
	}
	if p.Empty() {
		fmt.Fprint(c.stderr, p)
		return exitOK
	}
	return c.applyPlan(ctx, client, p, passwords, w)
}

// applyPlan applies p, with p and the run's progress on stderr and the
// passwords of what it creates in the file passwords names.
func (c *command) applyPlan(ctx context.Context, client *dbcloud.Client, p *deploy.Plan, passwords string, w *running) int {
	fmt.Fprint(c.stderr, p)
	pw, err := openPasswords(passwords, p)
	if err != nil {
		return c.fail(err)
	}
	opts := []deploy.Option{deploy.WithWaitOptions(dbcloud.WithWaitTimeout(w.timeout)), deploy.WithProgress(w.progress(c.stderr)),
		deploy.WithParallelism(w.parallelism)}
	if pw != nil {
		defer pw.close()
		opts = append(opts, deploy.WithPasswords(func(p deploy.Password) error {
			if err := pw.write(p); err != nil {
				return fmt.Errorf("%w: the password of %s %q (%s) is lost; set a new one with UpdatePassword", err, p.Kind, p.Name, p.ServiceID)
			}
			fmt.Fprintf(c.stderr, "dbcloud-deploy: the password of %s %q (%s) is in %s\n", p.Kind, p.Name, p.ServiceID, passwords)
			return nil
		}))
	}
	start := time.Now()
	res, err := p.Apply(ctx, client, opts...)
	switch {
	case errors.Is(err, deploy.ErrStalePlan):
		c.fail(err)
		fmt.Fprintln(c.stderr, "dbcloud-deploy: the plan is stale: plan again, and review the new plan")
	case err != nil:
		c.fail(err)
		if started(res) {
			fmt.Fprintf(c.stderr, "dbcloud-deploy: %s; run the same command again: it finishes what this run started, without duplicates\n", summary(res))
		}
	default:
		fmt.Fprintf(c.stderr, "dbcloud-deploy: %s in %v\n", summary(res), took(time.Since(start)))
	}
	return exitCode(err)
}

// started reports whether a run got as far as a step, which a run of the
// same command again finishes.
func started(res *deploy.Result) bool {
	return res != nil && slices.ContainsFunc(res.Records, func(r deploy.Record) bool { return r.Outcome != deploy.Pending })
}

// summary counts a run's changes by outcome: "3 change(s): 2 done, 1
// already done".
func summary(res *deploy.Result) string {
	var counts []string
	for _, o := range []deploy.Outcome{deploy.Done, deploy.AlreadyDone, deploy.Failed, deploy.Pending} {
		n := 0
		for _, r := range res.Records {
			if r.Outcome == o {
				n++
			}
		}
		if n > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n, o))
		}
	}
	return fmt.Sprintf("%d change(s): %s", len(res.Records), strings.Join(counts, ", "))
}
