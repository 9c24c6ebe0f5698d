package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/deploy"
)

// stateArg parses args, flags and one state file, and reads the state; nil
// and the exit code when the command ends there.
func (c *command) stateArg(fs *flag.FlagSet, args []string) (*deploy.State, int) {
	files, code, ok := parse(fs, args, 1)
	if !ok {
		return nil, code
	}
	st, err := c.readState(files[0])
	if err != nil {
		return nil, c.fail(err)
	}
	return st, exitOK
}

// planOutput is where a plan goes besides stdout, and how stdout shows it.
type planOutput struct {
	out    string
	asJSON bool
}

// addPlanOutput adds -out and -json to fs, for what, a plan.
func addPlanOutput(fs *flag.FlagSet, what string) *planOutput {
	o := &planOutput{}
	fs.StringVar(&o.out, "out", "", "write "+what+" to this file, for apply to apply as reviewed")
	fs.BoolVar(&o.asJSON, "json", false, "print "+what+" as JSON, as -out writes it, instead of text")
	return o
}

// showPlan plans with planOf on a read-only client, prints the plan on
// stdout and, with -out, writes it to that file. Its exit code is 2 when
// the plan has changes, 0 when none, 1 when it has problems (printed with
// it) and is not written.
func (c *command) showPlan(ctx context.Context, cn *connection, planOf func(context.Context, *dbcloud.Client) (*deploy.Plan, error), o *planOutput) int {
	client, err := cn.client(true)
	if err != nil {
		return c.fail(err)
	}
	defer client.CloseIdleConnections()
	p, err := planOf(ctx, client)
	if p != nil {
		if err := c.print(p, o.asJSON); err != nil {
			return c.fail(err)
		}
	}
	if err != nil {
		return c.fail(err)
	}
	if o.out != "" {
		if err := writePlan(o.out, p); err != nil {
			return c.fail(err)
		}
	}
	if p.Empty() {
		return exitOK
	}
	return exitChanges
}

// print writes p on stdout, as text or as JSON.
func (c *command) print(p *deploy.Plan, asJSON bool) error {
	if !asJSON {
		_, err := fmt.Fprint(c.stdout, p)
		return err
	}
	data, err := json.MarshalIndent(p, "", "  ")
	if err == nil {
		_, err = fmt.Fprintf(c.stdout, "%s\n", data)
	}
	return err
}
