package httpapi

import (
	"encoding/base64"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apitest"
)

// The API key and the Bearer tokens are an oauth user's, who reaches every
// project; a personal access token is an apiKey scoped to the first
// project, the only one it lists and reaches.
func TestAuthInfoAndProjects(t *testing.T) {
	user := map[string]any{"id": "1001", "name": "Fake User", "email": "user@fake.dbcloud.test"}
	projects := []string{"p1", "p2"}
	listed := []any{map[string]any{"id": "p1", "name": "p1"}, map[string]any{"id": "p2", "name": "p2"}}

	f := newFake(t, Config{Projects: projects})
	want := map[string]any{"type": "oauth", "oauth": map[string]any{"user": user}}
	if got := f.Send("GET", "/auth/info", nil).Must(t, 200).Obj(t); !jsonEqual(got, want) {
		t.Errorf("API key: %v, want %v", got, want)
	}
	if got := f.Send("GET", "/projects", nil).Must(t, 200).List(t); !jsonEqual(got, listed) {
		t.Errorf("API key's projects %v, want %v", got, listed)
	}

	f = newFake(t, Config{Projects: projects, TokenLife: time.Hour})
	tok, _ := f.model.IssueToken(time.Hour)
	bearer := []string{"Authorization", "Bearer " + tok}
	if got := f.Send("GET", "/auth/info", nil, bearer...).Must(t, 200).Obj(t); !jsonEqual(got, want) {
		t.Errorf("Bearer token: %v, want %v", got, want)
	}
	if got := f.Send("GET", "/projects", nil, bearer...).Must(t, 200).List(t); !jsonEqual(got, listed) {
		t.Errorf("Bearer token's projects %v", got)
	}

	f = newFake(t, Config{Projects: projects, PATPublic: "pub", PATSecret: "sec"})
	basic := []string{"Authorization", "Basic " + base64.StdEncoding.EncodeToString([]byte("pub:sec"))}
	key := map[string]any{
		"public_key":   "pub",
		"name":         "dbcloudtest",
		"created":      apitest.Epoch.Format(time.RFC3339),
		"project":      map[string]any{"id": "p1", "name": "p1", "plan_type": "FREE"},
		"issuing_user": user,
	}
	want = map[string]any{"type": "apiKey", "api_key": key, "apiKey": key}
	if got := f.Send("GET", "/auth/info", nil, basic...).Must(t, 200).Obj(t); !jsonEqual(got, want) {
		t.Errorf("personal access token: %v, want %v", got, want)
	}
	if got := f.Send("GET", "/projects", nil, basic...).Must(t, 200).List(t); !jsonEqual(got, listed[:1]) {
		t.Errorf("personal access token's projects %v", got)
	}
	f.Send("GET", "/projects/p1/services", nil, basic...).Must(t, 200)
	f.Send("GET", "/projects/p2/services", nil, basic...).MustError(t, 404, "NOT_FOUND", "project not found")

	// Both need credentials, and take no other method.
	for _, path := range []string{"/auth/info", "/projects"} {
		f.Send("GET", path, nil).MustError(t, 401, "UNAUTHORIZED", "")
		f.Send("POST", path, nil, basic...).MustError(t, 405, "METHOD_NOT_ALLOWED", "")
	}
}
