package main

import (
	"context"
	"flag"
)

// subcommand is one command of dbcloud-deploy: its name, its synopsis and
// what it runs. The usage text and each command's -h are made from the
// table below, so a synopsis is written once.
type subcommand struct {
	name    string
	args    string // the synopsis after the name, but for -fake, which every command takes
	summary string // the command's line in the usage text
	// run parses the command's flags into fs (where -fake, cn, already is)
	// and runs the command; it returns the exit code.
	run func(c *command, ctx context.Context, fs *flag.FlagSet, cn *connection, args []string) int
}

var subcommands = []subcommand{
	{"plan", "STATE.json [-out PLAN.json] [-json]",
		"print what apply would change; -out saves the plan for apply (GETs only)", (*command).plan},
	{"apply", "PLAN.json|STATE.json [-password-file FILE] [-parallelism N] [-timeout D] [-v]",
		"make a saved plan's changes, and no others; or plan a state and apply that", (*command).apply},
	{"destroy", "STATE.json [-plan] [-out PLAN.json] [-json] [-parallelism N] [-timeout D] [-v]",
		"delete the state's services, with their forks and replica sets", (*command).destroy},
	{"wait", "-service NAME|ID [-pooler] [-timeout D] [-v]",
		"wait until the service's database answers; print its host:port", (*command).wait},
}

// plan prints a state's plan on stdout and, with -out, saves it for apply.
func (c *command) plan(ctx context.Context, fs *flag.FlagSet, cn *connection, args []string) int {
	o := addPlanOutput(fs, "the plan")
	st, code := c.stateArg(fs, args)
	if st == nil {
		return code
	}
	return c.showPlan(ctx, cn, st.Plan, o)
}

// apply applies a plan file's changes, or plans a state and applies that.
func (c *command) apply(ctx context.Context, fs *flag.FlagSet, cn *connection, args []string) int {
	passwords := fs.String("password-file", "", "append the passwords of the services and forks the run creates to this file,\none JSON object a line, mode 0600; required when the run creates one")
	w := addRunning(fs)
	files, code, ok := parse(fs, args, 1)
	if !ok {
		return code
	}
	p, st, err := c.readPlanOrState(files[0])
	if err != nil {
		return c.fail(err)
	}
	client, err := cn.client(false)
	if err != nil {
		return c.fail(err)
	}
	defer client.CloseIdleConnections()
	if st != nil {
		return c.planAndApply(ctx, client, st.Plan, *passwords, w)
	}
	return c.applyPlan(ctx, client, p, *passwords, w)
}

// destroy deletes what a state names, or with -plan (-out, -json) plans it.
func (c *command) destroy(ctx context.Context, fs *flag.FlagSet, cn *connection, args []string) int {
	planOnly := fs.Bool("plan", false, "print the destroy's plan and stop, sending only GETs (-out and -json imply it):\nexit 2 when there is something to delete")
	o := addPlanOutput(fs, "the destroy's plan")
	w := addRunning(fs)
	st, code := c.stateArg(fs, args)
	if st == nil {
		return code
	}
	if *planOnly || o.out != "" || o.asJSON {
		return c.showPlan(ctx, cn, st.PlanDestroy, o)
	}
	client, err := cn.client(false)
	if err != nil {
		return c.fail(err)
	}
	defer client.CloseIdleConnections()
	return c.planAndApply(ctx, client, st.PlanDestroy, "", w)
}

// wait waits until a service's database answers and prints its host:port
// on stdout.
func (c *command) wait(ctx context.Context, fs *flag.FlagSet, cn *connection, args []string) int {
	service := fs.String("service", "", "the service: its name in the project, or its id (required)")
	pooler := fs.Bool("pooler", false, "wait until the connection pooler answers too, and print its host:port")
	w := addWaiting(fs)
	if _, code, ok := parse(fs, args, 0); !ok {
		return code
	}
	if *service == "" {
		fs.Usage()
		return c.failf("wait: -service is required")
	}
	client, err := cn.client(true) // a wait only reads
	if err != nil {
		return c.fail(err)
	}
	defer client.CloseIdleConnections()
	return c.waitConnectable(ctx, client, *service, *pooler, w)
}
