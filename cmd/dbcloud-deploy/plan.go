package main

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/deploy"
)

// plan is "dbcloud-deploy plan STATE.json [-out PLAN.json] [-json]".
func (c *command) plan(ctx context.Context, args []string) int {
	fs := flags(c, "plan", "plan STATE.json [-out PLAN.json] [-json] [-fake]")
	out := fs.String("out", "", "write the plan to this file, for apply to apply as reviewed")
	asJSON := fs.Bool("json", false, "print the plan as JSON, as -out writes it, instead of text")
	cn := addConnection(fs)
	files, code, ok := parse(fs, args, 1)
	if !ok {
		return code
	}
	st, err := c.readState(files[0])
	if err != nil {
		return c.fail(err)
	}
	return c.showPlan(ctx, cn, st.Plan, *out, *asJSON)
}

// showPlan plans with planOf on a read-only client, prints the plan on
// stdout and, with out, writes it to that file. Its exit code is 2 when
// the plan has changes, 0 when none, 1 when it has problems (printed with
// it) and is not written.
func (c *command) showPlan(ctx context.Context, cn *connection, planOf func(context.Context, *dbcloud.Client) (*deploy.Plan, error), out string, asJSON bool) int {
	client, err := cn.client(true)
	if err != nil {
		return c.fail(err)
	}
	defer client.CloseIdleConnections()
	p, err := planOf(ctx, client)
	if p != nil {
		if err := c.print(p, asJSON); err != nil {
			return c.fail(err)
		}
	}
	if err != nil {
		return c.fail(err)
	}
	if out != "" {
		if err := writePlan(out, p); err != nil {
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
