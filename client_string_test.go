package dbcloud_test

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// A Client prints its base URL, project, read-only mode and kind of
// credentials with every verb, and none of its secrets, also after a
// request has made it fetch and cache a token.
func TestClientPrintsWithoutSecrets(t *testing.T) {
	t.Parallel()
	const (
		key       = "key-c4f1a9e07d2b4e6f"
		publicKey = "pub-8e2d61f0"
		secretKey = "sec-5b7c93a1e4d0f826"
		token     = "tok-19d7e3b5a0c84f62"
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(serviceJSON))
	}))
	t.Cleanup(srv.Close)
	base := srv.URL + "/v1"
	tokens := dbcloud.BearerTokens(dbcloud.TokenSourceFunc(func() (*dbcloud.Token, error) {
		return &dbcloud.Token{AccessToken: token, Expiry: time.Now().Add(time.Hour)}, nil
	}))
	secrets := []string{key, publicKey, secretKey, token,
		base64.StdEncoding.EncodeToString([]byte(publicKey + ":" + secretKey))}
	for _, tt := range []struct {
		creds dbcloud.Credentials
		opts  []dbcloud.Option
		want  string
	}{
		{dbcloud.APIKey(key), nil,
			"dbcloud.Client{" + base + ", credentials: API key}"},
		{dbcloud.PersonalAccessToken(publicKey, secretKey), []dbcloud.Option{dbcloud.WithProjectID("proj-1"), dbcloud.WithReadOnlyProd()},
			"dbcloud.Client{" + base + ", project: proj-1, read-only: PROD services, credentials: personal access token}"},
		{tokens, []dbcloud.Option{dbcloud.WithReadOnly()},
			"dbcloud.Client{" + base + ", read-only: all changes, credentials: Bearer tokens}"},
	} {
		c, err := dbcloud.NewClientWithCredentials(tt.creds, append(tt.opts, dbcloud.WithBaseURL(base))...)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Services.Get(t.Context(), "p1", "s1"); err != nil {
			t.Fatal(err) // the credentials are in use, a token cached
		}
		c.CloseIdleConnections()
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%d", "%x"} {
			got := fmt.Sprintf(verb, c)
			for _, s := range secrets {
				if strings.Contains(got, s) {
					t.Errorf("%s of a client of %s holds the secret %q: %s", verb, tt.want, s, got)
				}
			}
			want := tt.want
			if verb == "%q" {
				want = fmt.Sprintf("%q", tt.want)
			}
			if got != want {
				t.Errorf("%s = %s, want %s", verb, got, want)
			}
		}
	}
	var none *dbcloud.Client
	if got := fmt.Sprint(none); got != "dbcloud.Client(nil)" {
		t.Errorf("a nil *Client prints %s", got)
	}
}
