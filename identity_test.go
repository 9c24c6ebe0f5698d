package dbcloud_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/google/go-cmp/cmp"
)

const scopedAuthInfo = `{"type":"apiKey","api_key":{"public_key":"pk-ci","name":"ci","created":"2026-11-01T10:00:00Z",` +
	`"project":{"id":"p-scoped","name":"Prod","plan_type":"FREE"},"issuing_user":{"id":"42","name":"Ada","email":"ada@example.com"}}}`

// A client from a personal access token and no project id finds the
// project the token is scoped to, once, and lists its services.
func TestResolveProjectIDOfAToken(t *testing.T) {
	t.Parallel()
	s := newLiveServer(t)
	s.authInfo = scopedAuthInfo
	c, err := dbcloud.NewClientWithCredentials(dbcloud.PersonalAccessToken("pk-ci", "sk-secret"),
		dbcloud.WithBaseURL(s.URL+"/v1"), dbcloud.WithRetryMax(0))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	if c.ProjectID() != "" {
		t.Fatalf("ProjectID = %q, want none configured", c.ProjectID())
	}
	for range 2 {
		p, err := c.ResolveProjectID(t.Context())
		if err != nil || p != "p-scoped" {
			t.Fatalf("ResolveProjectID = %q, %v; want the token's project", p, err)
		}
		list, err := c.Services.List(t.Context(), p)
		if err != nil || len(list) != 1 || list[0].ProjectID != "p-scoped" {
			t.Fatalf("Services.List = %+v, %v; want the project's service", list, err)
		}
	}
	want := []string{"GET /auth/info", "GET /projects/p-scoped/services", "GET /projects/p-scoped/services"}
	if diff := cmp.Diff(want, s.requests()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range s.auth {
		if !strings.HasPrefix(a, "Basic ") {
			t.Errorf("Authorization %q, want the token as Basic", a)
		}
	}
}

// A configured project is returned with no request; a user's only project
// is theirs; a user of several gets an error naming each, with nothing
// sent but the two reads; a failed read is not kept.
func TestResolveProjectIDOfAUser(t *testing.T) {
	t.Parallel()
	user := `{"type":"oauth","oauth":{"user":{"id":"42","name":"Ada","email":"ada@example.com"}}}`
	for _, tt := range []struct {
		name       string
		opts       []dbcloud.Option
		authInfo   string
		projects   string
		want       string
		wantErr    []string // what the *ValidationError says
		wantSeenAt int      // requests sent
	}{
		{"configured", []dbcloud.Option{dbcloud.WithProjectID("p-set")}, user, `[]`, "p-set", nil, 0},
		{"one project", nil, user, `[{"id":"p-only","name":"Only"}]`, "p-only", nil, 2},
		{"several projects", nil, user, `[{"id":"p-a","name":"Prod"},{"id":"p-b","name":"Staging"}]`, "",
			[]string{"2 projects", `p-a ("Prod")`, `p-b ("Staging")`, "WithProjectID"}, 2},
		{"no project", nil, user, `[]`, "", []string{"no project"}, 2},
		{"unknown kind", nil, `{"type":"robot"}`, `[]`, "", []string{`"robot"`}, 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := newLiveServer(t)
			s.authInfo, s.projects = tt.authInfo, tt.projects
			got, err := s.client(t, tt.opts...).ResolveProjectID(t.Context())
			if len(s.requests()) != tt.wantSeenAt {
				t.Errorf("requests %v, want %d", s.requests(), tt.wantSeenAt)
			}
			if tt.wantErr == nil {
				if err != nil || got != tt.want {
					t.Fatalf("ResolveProjectID = %q, %v; want %q", got, err, tt.want)
				}
				return
			}
			var v *dbcloud.ValidationError
			if !errors.As(err, &v) || v.Field != "projectID" || got != "" {
				t.Fatalf("ResolveProjectID = %q, %v; want a *ValidationError for projectID", got, err)
			}
			for _, w := range tt.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %q, want it to say %q", err, w)
				}
			}
		})
	}
	t.Run("a failed read is not kept", func(t *testing.T) {
		s := newLiveServer(t)
		s.authInfo = scopedAuthInfo
		s.inject("GET", "/auth/info", fault503, 1)
		c := s.client(t, dbcloud.WithRetryMax(0))
		if _, err := c.ResolveProjectID(t.Context()); !errors.Is(err, dbcloud.ErrServer) {
			t.Fatalf("err = %v, want the 503", err)
		}
		if p, err := c.ResolveProjectID(t.Context()); err != nil || p != "p-scoped" {
			t.Fatalf("ResolveProjectID = %q, %v", p, err)
		}
	})
}
