package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dbcloud/dbcloud-go/deploy"
)

// read returns the content of the file name, the standard input for "-".
func (c *command) read(name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(c.stdin)
	}
	return os.ReadFile(name)
}

// readState reads a state file.
func (c *command) readState(name string) (*deploy.State, error) {
	data, err := c.read(name)
	if err != nil {
		return nil, err
	}
	st, err := deploy.ParseState(data)
	return st, in(name, err)
}

// in names the file an error of its content is in.
func in(name string, err error) error {
	if err == nil {
		return nil
	}
	if name == "-" {
		name = "the standard input"
	}
	return fmt.Errorf("%s: %s", name, strings.TrimPrefix(err.Error(), "deploy: "))
}

// readPlanOrState reads a plan file, one with a plan's "format", or else a
// state file: one of the two is nil.
func (c *command) readPlanOrState(name string) (*deploy.Plan, *deploy.State, error) {
	data, err := c.read(name)
	if err != nil {
		return nil, nil, err
	}
	var head struct {
		Format *string `json:"format"`
	}
	if json.Unmarshal(data, &head) == nil && head.Format != nil {
		p, err := deploy.ParsePlan(data)
		return p, nil, in(name, err)
	}
	st, err := deploy.ParseState(data)
	return nil, st, in(name, err)
}

// writePlan writes p as a plan file, for apply.
func writePlan(name string, p *deploy.Plan) error {
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(name, append(data, '\n'), 0o644)
}
