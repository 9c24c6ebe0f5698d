package dbcloud

import (
	"fmt"
	"strings"
)

// String describes the client for logs and debugging: the base URL, the
// default project, the read-only mode and the kind of credentials, as in
//
//	dbcloud.Client{https://api.example.com/v1, project: proj-1, read-only: PROD services, credentials: personal access token}
//
// It names the kind of credentials and never holds a key, secret or token:
// a Client printed with %v in an error or a log line gives away nothing.
func (c *Client) String() string {
	if c == nil || c.api == nil {
		return "dbcloud.Client(nil)"
	}
	parts := []string{c.api.base}
	if c.api.projectID != "" {
		parts = append(parts, "project: "+c.api.projectID)
	}
	switch c.api.readOnly {
	case readOnlyAll:
		parts = append(parts, "read-only: all changes")
	case readOnlyProd:
		parts = append(parts, "read-only: PROD services")
	}
	parts = append(parts, "credentials: "+c.api.credKind)
	return "dbcloud.Client{" + strings.Join(parts, ", ") + "}"
}

// Format prints String for every verb (%v, %+v, %#v, %s; %q quotes it), so
// that no verb reaches the struct and its pointers.
func (c *Client) Format(f fmt.State, verb rune) {
	if verb == 'q' {
		fmt.Fprintf(f, "%q", c.String())
		return
	}
	_, _ = f.Write([]byte(c.String()))
}
