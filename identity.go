package dbcloud

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Project is a project: the owner of services and VPCs.
type Project struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	PlanType string `json:"plan_type,omitempty"` // such as "FREE"; only in AuthInfo
}

// AuthKind is the kind of caller; unknown values are kept as sent.
type AuthKind string

// Kinds of caller.
const (
	AuthKindAPIKey AuthKind = "apiKey" // a personal access token, of one project
	AuthKindOAuth  AuthKind = "oauth"  // a user's Bearer token, of any projects
)

// AuthInfo is who the credentials belong to: the field of its Kind is set.
type AuthInfo struct {
	Kind   AuthKind    `json:"type"`
	APIKey *APIKeyInfo `json:"api_key,omitempty"` // for AuthKindAPIKey
	User   *User       `json:"-"`                 // for AuthKindOAuth: the answer's oauth.user
}

// APIKeyInfo describes a personal access token (or API key).
type APIKeyInfo struct {
	PublicKey   string    `json:"public_key"` // the token's public half, not a secret
	Name        string    `json:"name"`
	Created     time.Time `json:"created"`
	Project     Project   `json:"project"`
	IssuingUser User      `json:"issuing_user"`
}

// User is a user of the service.
type User struct {
	ID    string `json:"id"` // digits
	Name  string `json:"name"`
	Email string `json:"email"`
}

// AuthInfo returns who the client's credentials belong to.
func (c *Client) AuthInfo(ctx context.Context) (*AuthInfo, error) {
	const path = "/auth/info" // no ids: the template is the path
	var w authInfoJSON
	err := c.api.do(ctx, &request{op: "Client.AuthInfo", method: http.MethodGet, kind: KindProject, tpl: path, path: path}, &w)
	if err != nil {
		return nil, err
	}
	return &w.AuthInfo, nil
}

// List returns the projects the credentials reach.
func (p *ProjectsClient) List(ctx context.Context) ([]Project, error) {
	const path = "/projects" // no ids: the template is the path
	var ps projectListJSON
	err := p.api.do(ctx, &request{op: "Projects.List", method: http.MethodGet, kind: KindProject, tpl: path, path: path}, &ps)
	if err != nil {
		return nil, err
	}
	out := make([]Project, len(ps))
	for i := range ps {
		out[i] = Project(ps[i])
	}
	return out, nil
}

// ResolveProjectID returns WithProjectID's (or DBCLOUD_PROJECT_ID's) id
// without a request; else the credentials' one project, read once and kept
// (a failed read is not kept). A user of several projects, or none, gets a
// *ValidationError naming them (up to 20).
func (c *Client) ResolveProjectID(ctx context.Context) (string, error) {
	if c.api.projectID != "" {
		return c.api.projectID, nil
	}
	return c.project.resolve(ctx, c)
}

func (pc *projectCache) resolve(ctx context.Context, c *Client) (string, error) {
	pc.mu.Lock()
	id := pc.id
	pc.mu.Unlock()
	if id != "" {
		return id, nil
	}
	// Not under the lock: concurrent first calls may read twice, and none
	// waits on another's request.
	id, err := c.credentialsProject(ctx)
	if err != nil {
		return "", err
	}
	pc.mu.Lock()
	pc.id = id
	pc.mu.Unlock()
	return id, nil
}

// maxProjectsNamed bounds the projects a ResolveProjectID error names.
const maxProjectsNamed = 20

// credentialsProject reads the project the credentials reach.
func (c *Client) credentialsProject(ctx context.Context) (string, error) {
	info, err := c.AuthInfo(ctx)
	if err != nil {
		return "", err
	}
	secrets := c.api.pipe.Secrets()
	switch {
	case info.Kind == AuthKindAPIKey && info.APIKey != nil && info.APIKey.Project.ID != "":
		return info.APIKey.Project.ID, nil
	case info.Kind != AuthKindOAuth:
		return "", invalid("projectID", "not set, and the credentials (of kind "+strconv.Quote(serverText(string(info.Kind), secrets, ""))+
			") name no project: pass one with WithProjectID or "+envProjectID)
	}
	projects, err := c.Projects.List(ctx)
	switch {
	case err != nil:
		return "", err
	case len(projects) == 1:
		return projects[0].ID, nil
	case len(projects) == 0:
		return "", invalid("projectID", "not set, and the user belongs to no project")
	}
	names := make([]string, 0, min(len(projects), maxProjectsNamed)+1)
	for _, p := range projects[:min(len(projects), maxProjectsNamed)] {
		names = append(names, serverText(p.ID, secrets, "")+" ("+strconv.Quote(serverText(p.Name, secrets, ""))+")")
	}
	if more := len(projects) - maxProjectsNamed; more > 0 {
		names = append(names, "and "+strconv.Itoa(more)+" more")
	}
	return "", invalid("projectID", "not set, and the user belongs to "+strconv.Itoa(len(projects))+" projects: "+
		strings.Join(names, ", ")+"; pass one with WithProjectID or "+envProjectID)
}

// authInfoJSON is an AuthInfo as it arrives: it also catches the
// deprecated apiKey, used when api_key is absent.
type authInfoJSON struct {
	AuthInfo
	LegacyAPIKey *APIKeyInfo `json:"apiKey"`
	// OAuth is where a user's caller arrives: {"oauth": {"user": {...}}}.
	OAuth *struct {
		User *User `json:"user"`
	} `json:"oauth"`
}

func (w *authInfoJSON) finish() error {
	if w.Kind == "" {
		return errors.New("the auth info has no type")
	}
	if w.APIKey == nil {
		w.APIKey = w.LegacyAPIKey
	}
	w.LegacyAPIKey = nil
	if w.OAuth != nil {
		w.User = w.OAuth.User
	}
	w.OAuth = nil
	return nil
}

// projectListJSON is a list of projects as it arrives.
type projectListJSON []projectJSON

// projectJSON is a Project as it arrives on the wire.
type projectJSON Project

func (w *projectJSON) finish() error {
	if w.ID == "" {
		return errors.New("the project has no id")
	}
	return nil
}

func (l projectListJSON) finish() error { return finishAll(l) }
