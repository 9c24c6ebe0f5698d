package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// command is one run of the command: where it reads and writes.
type command struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// failf reports an error on stderr and returns exitError.
func (c *command) failf(format string, args ...any) int {
	fmt.Fprintf(c.stderr, "dbcloud-deploy: "+format+"\n", args...)
	return exitError
}

// parse parses args with fs, flags before and after the arguments, and
// returns the arguments. The exit code is set when parsing ends the
// command: 0 for -h, which printed the usage, 1 for a bad flag.
func parse(fs *flag.FlagSet, args []string, want int) ([]string, int, bool) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, exitOK, false
			}
			return nil, exitError, false
		}
		if fs.NArg() == 0 {
			break
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(rest) != want {
		fmt.Fprintf(fs.Output(), "dbcloud-deploy %s: want %d argument(s), got %q\n", fs.Name(), want, rest)
		fs.Usage()
		return nil, exitError, false
	}
	return rest, 0, true
}

// fail reports err on stderr and returns exitError.
func (c *command) fail(err error) int {
	// A fleet's run may fail in several services: a line for each.
	for line := range strings.Lines(err.Error()) {
		c.failf("%s", strings.TrimPrefix(strings.TrimSuffix(line, "\n"), "deploy: "))
	}
	return exitError
}
