package dbcloudtest_test

import (
	"errors"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// A server made WithPersonalAccessToken takes that token as HTTP Basic, from
// Client and from the environment Setenv sets, and refuses the API key.
func TestPersonalAccessToken(t *testing.T) {
	srv := dbcloudtest.NewServer(dbcloudtest.WithPersonalAccessToken("pub-1", "sec-1"))
	defer srv.Close()
	if _, err := srv.Client().Services.List(t.Context(), srv.ProjectID); err != nil {
		t.Fatalf("Client: %v", err)
	}
	srv.Setenv(t)
	c, err := dbcloud.NewClientFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Services.List(t.Context(), srv.ProjectID); err != nil {
		t.Fatalf("from the environment: %v", err)
	}
	for name, creds := range map[string]dbcloud.Credentials{
		"API key":      dbcloud.APIKey(srv.APIKey),
		"wrong secret": dbcloud.PersonalAccessToken("pub-1", "sec-2"),
	} {
		c, err := dbcloud.NewClientWithCredentials(creds, dbcloud.WithBaseURL(srv.URL))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.Services.List(t.Context(), srv.ProjectID); !errors.Is(err, dbcloud.ErrUnauthorized) {
			t.Errorf("%s: %v, want 401", name, err)
		}
	}
}

// A server made WithBearerTokens takes the tokens it issued until they
// expire on its clock; Client's token source gets a new one after a 401.
func TestBearerTokens(t *testing.T) {
	srv := dbcloudtest.NewServer(dbcloudtest.WithBearerTokens(time.Hour))
	defer srv.Close()
	tok := srv.IssueToken()
	if !tok.Expiry.Equal(srv.Now().Add(time.Hour)) {
		t.Errorf("expiry %s, want Now+1h", tok.Expiry)
	}
	fixed, err := dbcloud.NewClientWithCredentials(dbcloud.BearerTokens(dbcloud.TokenSourceFunc(func() (*dbcloud.Token, error) {
		return &dbcloud.Token{AccessToken: tok.AccessToken}, nil
	})), dbcloud.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	c := srv.Client()
	for _, cl := range []*dbcloud.Client{fixed, c} {
		if _, err := cl.Services.List(t.Context(), srv.ProjectID); err != nil {
			t.Fatalf("a fresh token: %v", err)
		}
	}
	srv.Advance(time.Hour)
	if _, err := fixed.Services.List(t.Context(), srv.ProjectID); !errors.Is(err, dbcloud.ErrUnauthorized) {
		t.Errorf("an expired token: %v, want 401", err)
	}
	if _, err := c.Services.List(t.Context(), srv.ProjectID); err != nil {
		t.Errorf("Client after its token expired: %v, want a new token used", err)
	}
	key, _ := dbcloud.NewClient(srv.APIKey, dbcloud.WithBaseURL(srv.URL))
	if _, err := key.Services.List(t.Context(), srv.ProjectID); !errors.Is(err, dbcloud.ErrUnauthorized) {
		t.Errorf("the API key: %v, want 401", err)
	}
}

// A PITR target from the machine's clock is taken although the server's
// clock stands still (or ticks, or was moved, ahead); one before the
// parent's creation on both clocks is refused.
func TestPITRTargetOnEitherClock(t *testing.T) {
	for name, opts := range map[string][]dbcloudtest.Option{
		"manual":  nil,
		"ticking": {dbcloudtest.WithTickingClock(30 * time.Second), dbcloudtest.WithStep(time.Minute)},
	} {
		t.Run(name, func(t *testing.T) {
			srv := dbcloudtest.NewServer(opts...)
			defer srv.Close()
			c, p := srv.Client(), srv.ProjectID
			parent, err := c.Services.Create(t.Context(), p, &dbcloud.CreateServiceRequest{Name: "orders"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Services.WaitForReady(t.Context(), p, parent.ServiceID); err != nil {
				t.Fatal(err)
			}
			fork := func(at time.Time) error {
				_, err := c.Services.Fork(t.Context(), p, parent.ServiceID, &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkPITR, TargetTime: at})
				return err
			}
			if err := fork(time.Now()); err != nil {
				t.Errorf("target time.Now(): %v", err)
			}
			srv.Advance(time.Hour)
			if err := fork(time.Now()); err != nil {
				t.Errorf("target time.Now() after Advance: %v", err)
			}
			if err := fork(time.Now().Add(-2 * time.Hour)); !errors.Is(err, dbcloud.ErrBadRequest) {
				t.Errorf("target before the parent on both clocks: %v, want 400", err)
			}
		})
	}
}
