package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/deploy"
)

// passwordFile is where a run's passwords go: the one place the command
// writes them.
type passwordFile struct {
	f *os.File
}

// openPasswords opens, for appending, the password file that a run of p
// needs: none (nil) when p creates no service or fork, which are what
// have a password. Everything that would lose a password is refused
// before anything is sent: a run that creates one with no file named, a
// file that is not a regular one (a terminal, /dev/stdout), a file that
// others may read.
func openPasswords(name string, p *deploy.Plan) (*passwordFile, error) {
	var creates *deploy.Change
	for i, ch := range p.Changes {
		if ch.Action == deploy.Create && (ch.Kind == dbcloud.KindService || ch.Kind == dbcloud.KindFork) {
			creates = &p.Changes[i]
			break
		}
	}
	switch {
	case creates == nil:
		return nil, nil
	case name == "":
		return nil, fmt.Errorf("the plan creates %s %q, whose password the API hands out once: name a -password-file to keep it in", creates.Kind, creates.Name)
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	switch {
	case err != nil:
	case !info.Mode().IsRegular():
		err = fmt.Errorf("%s is not a regular file: the passwords go to a file of their own", name)
	case info.Mode().Perm()&0o077 != 0:
		err = fmt.Errorf("%s has mode %v, which others may read: chmod 600 it, or name a new file", name, info.Mode().Perm())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &passwordFile{f: f}, nil
}

// write appends one password, as a line of JSON, and syncs it to disk
// before the run goes on: the API never shows it again.
func (pf *passwordFile) write(p deploy.Password) error {
	line, err := json.Marshal(struct {
		Kind      dbcloud.ResourceKind `json:"kind"`
		Name      string               `json:"name"`
		ServiceID string               `json:"service_id"`
		Password  string               `json:"password"`
	}{p.Kind, p.Name, p.ServiceID, string(p.Password)})
	if err != nil {
		return err
	}
	if _, err := pf.f.Write(append(line, '\n')); err != nil {
		return err
	}
	return pf.f.Sync()
}

func (pf *passwordFile) close() { pf.f.Close() }
