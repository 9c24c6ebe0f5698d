// Command dbcloud-deploy brings a project's dbcloud services, a fleet of
// them, to a desired state described in a JSON file, for shell scripts and CI: it plans, saves
// the plan a reviewer approves, applies that plan later (or refuses it once
// it is stale), tears down, and waits until a database answers. It is the
// deploy package (github.com/dbcloud/dbcloud-go/deploy) as a command.
//
// Install it with
//
//	go install github.com/dbcloud/dbcloud-go/cmd/dbcloud-deploy@latest
//
// Usage:
//
//	dbcloud-deploy plan STATE.json [-out PLAN.json] [-json]
//	dbcloud-deploy apply PLAN.json|STATE.json [-password-file FILE] [-parallelism N] [-timeout D] [-v]
//	dbcloud-deploy destroy STATE.json [-plan] [-out PLAN.json] [-json] [-parallelism N] [-timeout D] [-v]
//	dbcloud-deploy wait -service NAME|ID [-pooler] [-timeout D] [-v]
//
// plan prints on stdout what apply would change, as text (or, with -json,
// as a plan file) and, with -out, writes the plan file that apply applies
// as reviewed; it sends only GETs, on a read-only client. apply makes a
// plan file's changes, and no others, or refuses the plan, sending
// nothing, once the world has changed since it was planned (exit 3); given
// a state, it plans it and applies that plan. destroy deletes, of each
// service of the state, the forks the state names, every replica set and
// the service, or with -plan (or -out, or -json) plans that, for apply.
// apply and destroy make the changes of up to -parallelism services at
// once (deploy.DefaultParallelism unless told), each service's in order. wait waits until the service's database
// answers connections and prints its host:port on stdout. A file name "-"
// reads the standard input. The state file's schema is in the deploy
// package's guide (docs/deploy.md, "Files").
//
// Exit codes, for a script to branch on:
//
//	0  nothing to do, or done
//	1  an error: bad arguments, a plan with problems, a run that failed (run
//	   the same command again: it finishes what the last run started)
//	2  plan, destroy -plan: changes are planned
//	3  apply: the plan is stale, since the world changed after it was
//	   planned: plan again, and review the new plan
//
// Credentials and the API come from the environment, as
// dbcloud.NewClientFromEnv reads it: DBCLOUD_API_KEY (or DBCLOUD_PUBLIC_KEY
// and DBCLOUD_SECRET_KEY; DBCLOUD_API_KEY_FILE and DBCLOUD_SECRET_KEY_FILE
// name files holding them), DBCLOUD_BASE_URL, and DBCLOUD_PROJECT_ID, the
// project of a state that names none. With -fake, every command runs on a
// fake API inside the process instead, which starts empty and ends with it:
// to plan in one process and apply in another on a fake, serve one with go
// run ./examples/fakeserver and point DBCLOUD_BASE_URL at it.
//
// Progress goes to stderr: the plan, then a line for each step as it ends,
// with its resource (a replica set or fork with its service), its outcome
// and the time it took (with -v, its start
// and each status its wait sees too). No password is ever written to stdout
// or stderr: the passwords of the services and forks a run creates, which
// the API hands out once, go to the -password-file, one JSON object a line
// ({"kind", "name", "service_id", "password"}), created with mode 0600. apply
// refuses, before sending anything, to create a service or fork without
// one, and refuses a file that others may read.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs the command line args and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return exitError
	}
	cmd := &command{stdin: stdin, stdout: stdout, stderr: stderr}
	for _, sc := range subcommands {
		if sc.name == args[0] {
			fs := cmd.flags(sc)
			return sc.run(cmd, ctx, fs, addConnection(fs), args[1:])
		}
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stderr, usage()) // where the commands' -h prints, as the flag package does
		return exitOK
	}
	fmt.Fprintf(stderr, "dbcloud-deploy: unknown command %q\n\n%s", args[0], usage())
	return exitError
}

// usage is the usage text: the commands, from subcommands, then the exit
// codes and the environment.
func usage() string {
	var b strings.Builder
	b.WriteString("Usage: dbcloud-deploy COMMAND ARGUMENTS\n\n" +
		"Brings a project's dbcloud services to a desired state described in a JSON file.\n\n" +
		"Commands:\n")
	for _, sc := range subcommands {
		fmt.Fprintf(&b, "  %s %s\n        %s\n", sc.name, sc.args, sc.summary)
	}
	b.WriteString(`
Run "dbcloud-deploy COMMAND -h" for a command's flags. Every command takes
-fake: run on a fake API inside the process, which starts empty.
`)
	return b.String() + exitCodes() + environment
}

const environment = `
Environment (as dbcloud.NewClientFromEnv reads it):
  DBCLOUD_API_KEY, or DBCLOUD_PUBLIC_KEY and DBCLOUD_SECRET_KEY
        the credentials (DBCLOUD_API_KEY_FILE, DBCLOUD_SECRET_KEY_FILE: files holding them)
  DBCLOUD_BASE_URL    the API's base URL, ending in /v1
  DBCLOUD_PROJECT_ID  the project, for a state that names none

Passwords of created services and forks go to -password-file only (mode
0600), never to stdout or stderr. To plan and apply in two processes on a
fake, serve one (go run ./examples/fakeserver) and set DBCLOUD_BASE_URL.
`

// flags is sc's flag set, which prints its synopsis, its flags, the exit
// codes and the environment for -h.
func (c *command) flags(sc subcommand) *flag.FlagSet {
	fs := flag.NewFlagSet(sc.name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: dbcloud-deploy %s %s [-fake]\n\nFlags:\n", sc.name, sc.args)
		fs.PrintDefaults()
		fmt.Fprint(fs.Output(), exitCodes()+environment)
	}
	return fs
}
