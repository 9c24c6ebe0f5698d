package dbcloud_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
	"github.com/google/go-cmp/cmp"
)

// A program configured from the environment with a personal access token
// and no DBCLOUD_PROJECT_ID lists the services of the project the token is
// scoped to: ResolveProjectID reads /auth/info once, and the client keeps
// the answer.
func TestFakeTokenWithoutProjectListsItsServices(t *testing.T) {
	srv := dbcloudtest.NewServer(dbcloudtest.WithPersonalAccessToken("pk-ci", "sk-ci-secret"), dbcloudtest.WithProjects("proj-a", "proj-b"))
	t.Cleanup(srv.Close)
	fixture.CreateService(t, srv.Client(), "proj-a", "orders")
	fixture.CreateService(t, srv.Client(), "proj-a", "billing")
	srv.Setenv(t)
	t.Setenv("DBCLOUD_PROJECT_ID", "")
	c, err := dbcloud.NewClientFromEnv(fixture.TinyRetries)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	if c.ProjectID() != "" {
		t.Fatalf("ProjectID = %q, want none configured", c.ProjectID())
	}
	srv.ResetRequests()

	for range 2 {
		p, err := c.ResolveProjectID(t.Context())
		if err != nil || p != "proj-a" {
			t.Fatalf("ResolveProjectID = %q, %v; want the token's project", p, err)
		}
		list, err := c.Services.List(t.Context(), p)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range list {
			names = append(names, s.Name)
		}
		if want := []string{"orders", "billing"}; !slices.Equal(names, want) {
			t.Errorf("services %v, want %v", names, want)
		}
	}
	var sent []string
	for _, r := range srv.Requests() {
		sent = append(sent, r.Method+" "+r.Path)
	}
	want := []string{"GET /auth/info", "GET /projects/proj-a/services", "GET /projects/proj-a/services"}
	if diff := cmp.Diff(want, sent); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// A user without a project id: of one project, works on it; of several
// (WithProjects), gets the documented *ValidationError for projectID naming
// each, after the two reads and nothing else, and nothing is kept, so a
// later call reads again.
func TestFakeUserWithoutProject(t *testing.T) {
	t.Parallel()
	t.Run("one project", func(t *testing.T) {
		_, srv := fixture.NewFake(t, nil)
		c, err := dbcloud.NewClient(srv.APIKey, dbcloud.WithBaseURL(srv.URL), fixture.TinyRetries)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.CloseIdleConnections)
		if p, err := c.ResolveProjectID(t.Context()); err != nil || p != srv.ProjectID {
			t.Errorf("ResolveProjectID = %q, %v; want %q", p, err, srv.ProjectID)
		}
	})
	t.Run("several projects", func(t *testing.T) {
		_, srv := fixture.NewFake(t, []dbcloudtest.Option{dbcloudtest.WithProjects("prod", "staging", "dev")})
		c, err := dbcloud.NewClient(srv.APIKey, dbcloud.WithBaseURL(srv.URL), fixture.TinyRetries)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.CloseIdleConnections)
		for range 2 {
			srv.ResetRequests()
			p, err := c.ResolveProjectID(t.Context())
			var v *dbcloud.ValidationError
			if !errors.As(err, &v) || v.Field != "projectID" || p != "" {
				t.Fatalf("ResolveProjectID = %q, %v; want a *ValidationError for projectID", p, err)
			}
			for _, w := range []string{"3 projects", `prod ("prod")`, `staging ("staging")`, `dev ("dev")`, "WithProjectID", "DBCLOUD_PROJECT_ID"} {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %q, want it to say %q", err, w)
				}
			}
			if got := srv.Count("", ""); got != 2 || srv.Count("GET", "/auth/info") != 1 || srv.Count("GET", "/projects") != 1 {
				t.Errorf("requests %+v, want GET /auth/info and GET /projects only", srv.Requests())
			}
		}
	})
}
