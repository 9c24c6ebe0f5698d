package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dbcloud/dbcloud-go/deploy"
)

// The exit codes, for a script to branch on. exits says what each means,
// for the usage text; the package doc says the same, which a test holds.
const (
	exitOK      = 0 // nothing to do, or done
	exitError   = 1 // any error
	exitChanges = 2 // changes planned
	exitStale   = 3 // the plan is stale
)

var exits = []struct {
	code    int
	meaning string
}{
	{exitOK, "nothing to do, or done"},
	{exitError, "an error: bad arguments, a plan with problems, a run that failed (run\nthe same command again: it finishes what the last run started)"},
	{exitChanges, "plan, destroy -plan: changes are planned"},
	{exitStale, "apply: the plan is stale, since the world changed after it was\nplanned: plan again, and review the new plan"},
}

// exitCode is the exit code of a run that ended with err: a stale plan's
// (of any service of a fleet: nothing of the plan was sent), or any
// error's.
func exitCode(err error) int {
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, deploy.ErrStalePlan):
		return exitStale
	}
	return exitError
}

// exitCodes is the exit codes' part of the usage text, each meaning's
// lines indented under its code.
func exitCodes() string {
	var b strings.Builder
	b.WriteString("\nExit codes:\n")
	for _, e := range exits {
		fmt.Fprintf(&b, "  %d  %s\n", e.code, strings.ReplaceAll(e.meaning, "\n", "\n     "))
	}
	return b.String()
}
