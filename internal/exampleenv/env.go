// Package exampleenv connects the examples to the API named by the
// environment, or to an in-process fake of it, so that each example's main
// shows only what it is about.
package exampleenv

import (
	"fmt"
	"strings"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/internal/fakeapi"
)

// EnvProjectID names the project the examples work in.
const EnvProjectID = "DBCLOUD_PROJECT_ID"

// Conn is a client and the project to use it in.
type Conn struct {
	Client    *dbcloud.Client
	ProjectID string
	// Fake is the in-process fake API, nil when connected to a real one.
	Fake *fakeapi.Server
}

// Close releases the client's connections and stops the fake, if any.
func (c *Conn) Close() {
	c.Client.CloseIdleConnections()
	if c.Fake != nil {
		_ = c.Fake.Close()
	}
}

// Real connects with DBCLOUD_API_KEY, DBCLOUD_BASE_URL and
// DBCLOUD_PROJECT_ID, read through getenv, and names any that is missing.
func Real(getenv func(string) string, opts ...dbcloud.Option) (*Conn, error) {
	var missing []string
	for _, name := range []string{dbcloud.EnvAPIKey, dbcloud.EnvBaseURL, EnvProjectID} {
		if getenv(name) == "" {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("set %s (or try the in-process fake API)", strings.Join(missing, ", "))
	}
	opts = append([]dbcloud.Option{dbcloud.WithBaseURL(getenv(dbcloud.EnvBaseURL))}, opts...)
	client, err := dbcloud.NewClient(getenv(dbcloud.EnvAPIKey), opts...)
	if err != nil {
		return nil, err
	}
	return &Conn{Client: client, ProjectID: getenv(EnvProjectID)}, nil
}

// Fake starts a fake API on a loopback port and connects to it. Its
// database endpoints are live (fakeapi.Start), so the examples can wait
// until a database answers; fakeOpts.ConnectDelay sets its warm-up.
func Fake(fakeOpts fakeapi.Options, opts ...dbcloud.Option) (*Conn, error) {
	srv, err := fakeapi.Start("", fakeOpts)
	if err != nil {
		return nil, err
	}
	opts = append([]dbcloud.Option{dbcloud.WithBaseURL(srv.URL)}, opts...)
	client, err := dbcloud.NewClient(srv.APIKey, opts...)
	if err != nil {
		_ = srv.Close()
		return nil, err
	}
	return &Conn{Client: client, ProjectID: srv.ProjectID, Fake: srv}, nil
}

// Getenv returns a getenv that points the examples at srv, as the export
// line of examples/fakeserver does.
func Getenv(srv *fakeapi.Server) func(string) string {
	vars := map[string]string{
		dbcloud.EnvAPIKey:  srv.APIKey,
		dbcloud.EnvBaseURL: srv.URL,
		EnvProjectID:       srv.ProjectID,
	}
	return func(name string) string { return vars[name] }
}
