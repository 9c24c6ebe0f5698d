package httpapi

import (
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/wire"
)

// Who the credentials the fake accepts belong to, as the package
// documentation of dbcloudtest states under "Identity": a personal access
// token is scoped to the first project; the API key and the Bearer tokens
// are a user's, who belongs to every project.

// fakeUser is the fake's one user: the API key's, the Bearer tokens' and
// the issuer of the personal access token.
var fakeUser = wire.User{ID: "1001", Name: "Fake User", Email: "user@fake.dbcloud.test"}

// What the personal access token is called, and its project's plan.
const (
	tokenName = "dbcloudtest"
	planType  = "FREE"
)

// reached is the projects the credentials reach: a personal access
// token's one project, or every project of a user.
func (a *API) reached() []string {
	if a.cfg.PATPublic != "" {
		return a.cfg.Projects[:1]
	}
	return a.cfg.Projects
}

// project is a project as listed; its name is its id.
func project(id string) wire.Project { return wire.Project{ID: id, Name: id} }

func (a *API) getAuthInfo(c *call) (reply, error) {
	if a.cfg.PATPublic == "" {
		return ok(wire.AuthInfo{Type: "oauth", OAuth: &wire.OAuth{User: fakeUser}}), nil
	}
	p := project(a.cfg.Projects[0])
	p.PlanType = planType
	key := &wire.APIKey{
		PublicKey:   a.cfg.PATPublic,
		Name:        tokenName,
		Created:     a.model.Started().UTC().Format(time.RFC3339Nano),
		Project:     p,
		IssuingUser: fakeUser,
	}
	return ok(wire.AuthInfo{Type: "apiKey", APIKey: key, APIKeyOld: key}), nil
}

func (a *API) getProjects(c *call) (reply, error) {
	out := []wire.Project{}
	for _, id := range a.reached() {
		out = append(out, project(id))
	}
	return ok(out), nil
}
