package dbcloud_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"
)

const (
	patPublic = "pk-public-7d1e"
	patSecret = "sk-secret-4b9a0c"
)

// tokenMint is a TokenSource that mints "tok-1", "tok-2", ... each valid
// for ttl, and counts its calls.
type tokenMint struct {
	ttl   time.Duration
	calls atomic.Int32
	fail  error // returned instead of a token when set
	same  bool  // hand out tok-1 every time, as a caching source would
}

func (m *tokenMint) Token() (*dbcloud.Token, error) {
	n := m.calls.Add(1)
	if m.fail != nil {
		return nil, m.fail
	}
	if m.same {
		n = 1
	}
	tok := &dbcloud.Token{AccessToken: dbcloud.Secret("tok-" + strconv.Itoa(int(n)))}
	if m.ttl != 0 {
		tok.Expiry = time.Now().Add(m.ttl)
	}
	return tok, nil
}

// credClient is mockClient with other credentials: a client whose attempts
// go to a fresh httpmock transport, with tiny retry waits. An unregistered
// route fails the test.
func credClient(t *testing.T, creds dbcloud.Credentials, opts ...dbcloud.Option) (*dbcloud.Client, *httpmock.MockTransport) {
	t.Helper()
	mt := httpmock.NewMockTransport()
	mt.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		t.Errorf("unexpected request %s %s", req.Method, req.URL)
		return httpmock.NewStringResponse(http.StatusTeapot, ""), nil
	})
	all := append([]dbcloud.Option{
		dbcloud.WithBaseURL(mockBase),
		dbcloud.WithHTTPClient(&http.Client{Transport: mt}),
		dbcloud.WithRetryWait(time.Millisecond, 2*time.Millisecond),
	}, opts...)
	c, err := dbcloud.NewClientWithCredentials(creds, all...)
	if err != nil {
		t.Fatal(err)
	}
	return c, mt
}

// authLog answers every request with answer(its Authorization header) and
// records the headers, and the bodies, in order.
type authLog struct {
	mu     sync.Mutex
	auth   []string
	bodies []string
}

func (l *authLog) responder(answer func(auth string) (int, string)) httpmock.Responder {
	return func(r *http.Request) (*http.Response, error) {
		var body []byte
		if r.Body != nil {
			body, _ = io.ReadAll(r.Body)
		}
		auth := r.Header.Values("Authorization")
		l.mu.Lock()
		l.auth = append(l.auth, strings.Join(auth, ", "))
		l.bodies = append(l.bodies, string(body))
		l.mu.Unlock()
		status, resp := answer(strings.Join(auth, ", "))
		return httpmock.NewStringResponse(status, resp), nil
	}
}

func (l *authLog) seen() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.auth...)
}

func always(status int, body string) func(string) (int, string) {
	return func(string) (int, string) { return status, body }
}

const unauthorized = `{"code":"UNAUTHORIZED","message":"token refused"}`

func TestPersonalAccessTokenIsBasicOnTheWire(t *testing.T) {
	t.Parallel()
	c, mt := credClient(t, dbcloud.PersonalAccessToken(patPublic, patSecret))
	var log authLog
	mt.RegisterResponder("GET", serviceURL, log.responder(always(200, serviceJSON)))
	mt.RegisterResponder("POST", startURL, log.responder(always(202, serviceJSON)))
	if _, err := c.Services.Get(t.Context(), "p1", "s1"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Services.Start(t.Context(), "p1", "s1"); err != nil {
		t.Fatal(err)
	}
	want := "Basic " + base64.StdEncoding.EncodeToString([]byte(patPublic+":"+patSecret))
	if diff := cmp.Diff([]string{want, want}, log.seen()); diff != "" {
		t.Errorf("Authorization (-want +got):\n%s", diff)
	}
	// The standard library reads it back as the two halves.
	r := &http.Request{Header: http.Header{"Authorization": {want}}}
	if u, p, ok := r.BasicAuth(); !ok || u != patPublic || p != patSecret {
		t.Errorf("BasicAuth() = %q, %q, %t", u, p, ok)
	}
}

func TestBearerTokensOnTheWire(t *testing.T) {
	t.Parallel()
	// getThriceWithOneToken gets a service three times with tokens of src
	// and checks that all three carry the first token.
	getThriceWithOneToken := func(t *testing.T, src *tokenMint) {
		t.Helper()
		c, mt := credClient(t, dbcloud.BearerTokens(src))
		var log authLog
		mt.RegisterResponder("GET", serviceURL, log.responder(always(200, serviceJSON)))
		for range 3 {
			if _, err := c.Services.Get(t.Context(), "p1", "s1"); err != nil {
				t.Fatal(err)
			}
		}
		if diff := cmp.Diff([]string{"Bearer tok-1", "Bearer tok-1", "Bearer tok-1"}, log.seen()); diff != "" {
			t.Errorf("Authorization (-want +got):\n%s", diff)
		}
	}
	t.Run("a valid token is reused", func(t *testing.T) {
		src := &tokenMint{ttl: time.Hour}
		getThriceWithOneToken(t, src)
		if n := src.calls.Load(); n != 1 {
			t.Errorf("Token called %d times, want 1", n)
		}
	})
	t.Run("a short-lived token is not fetched for every request", func(t *testing.T) {
		// Issued for less than twice the margin: kept for half its life
		// (the replacement itself is tested with a clock in
		// auth_internal_test.go).
		getThriceWithOneToken(t, &tokenMint{ttl: dbcloud.TokenRefreshMargin - 5*time.Second})
	})
	t.Run("a 401 gets one fresh token and one retry", func(t *testing.T) {
		src := &tokenMint{ttl: time.Hour}
		c, mt := credClient(t, dbcloud.BearerTokens(src))
		var log authLog
		answer := func(auth string) (int, string) {
			if auth == "Bearer tok-1" { // revoked early, before its expiry
				return 401, unauthorized
			}
			return 202, serviceJSON
		}
		mt.RegisterResponder("POST", serviceURL+"/resize", log.responder(answer))
		if _, err := c.Services.Resize(t.Context(), "p1", "s1", &dbcloud.ResizeRequest{CPUMillis: 1000, MemoryGBs: 4}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]string{"Bearer tok-1", "Bearer tok-2"}, log.seen()); diff != "" {
			t.Errorf("Authorization (-want +got):\n%s", diff)
		}
		body := `{"cpu_millis":"1000","memory_gbs":"4"}`
		if diff := cmp.Diff([]string{body, body}, log.bodies); diff != "" {
			t.Errorf("bodies (-want +got):\n%s", diff)
		}
	})
	t.Run("no loop when the fresh token is refused too", func(t *testing.T) {
		src := &tokenMint{ttl: time.Hour}
		c, mt := credClient(t, dbcloud.BearerTokens(src))
		var log authLog
		mt.RegisterResponder("GET", serviceURL, log.responder(always(401, unauthorized)))
		_, err := c.Services.Get(t.Context(), "p1", "s1")
		if !errors.Is(err, dbcloud.ErrUnauthorized) {
			t.Fatalf("err = %v, want ErrUnauthorized", err)
		}
		if diff := cmp.Diff([]string{"Bearer tok-1", "Bearer tok-2"}, log.seen()); diff != "" {
			t.Errorf("Authorization (-want +got):\n%s", diff)
		}
		if n := src.calls.Load(); n != 2 {
			t.Errorf("Token called %d times, want 2", n)
		}
	})
	t.Run("no retry when the source gives the refused token again", func(t *testing.T) {
		src := &tokenMint{ttl: time.Hour, same: true}
		c, mt := credClient(t, dbcloud.BearerTokens(src))
		var log authLog
		mt.RegisterResponder("GET", serviceURL, log.responder(always(401, unauthorized)))
		if _, err := c.Services.Get(t.Context(), "p1", "s1"); !errors.Is(err, dbcloud.ErrUnauthorized) {
			t.Fatalf("err = %v, want ErrUnauthorized", err)
		}
		if diff := cmp.Diff([]string{"Bearer tok-1"}, log.seen()); diff != "" {
			t.Errorf("Authorization (-want +got):\n%s", diff)
		}
	})
	t.Run("a static credential's 401 is not retried", func(t *testing.T) {
		c, mt := credClient(t, dbcloud.PersonalAccessToken(patPublic, patSecret))
		var log authLog
		mt.RegisterResponder("GET", serviceURL, log.responder(always(401, unauthorized)))
		if _, err := c.Services.Get(t.Context(), "p1", "s1"); !errors.Is(err, dbcloud.ErrUnauthorized) {
			t.Fatalf("err = %v, want ErrUnauthorized", err)
		}
		if n := len(log.seen()); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
}

// A failing source fails the call before anything is sent, and a create
// stays safe to call again: it is not ErrMaybeCreated.
func TestTokenSourceFailure(t *testing.T) {
	t.Parallel()
	cause := errors.New("refresh token expired")
	src := &tokenMint{fail: cause}
	c, _ := credClient(t, dbcloud.BearerTokens(src), dbcloud.WithRetryMax(0))
	_, err := c.Services.Create(t.Context(), "p1", &dbcloud.CreateServiceRequest{Name: "db"})
	if !errors.Is(err, cause) || errors.Is(err, dbcloud.ErrMaybeCreated) {
		t.Errorf("err = %v; want the source's error, not ErrMaybeCreated", err)
	}
	if !strings.Contains(fmt.Sprint(err), "token source") {
		t.Errorf("err = %v; want it to name the token source", err)
	}
}

// Calls that need a token at once share one Token call, and a source that
// hangs holds no call past its context.
func TestTokenSourceSharedAndBoundedByContext(t *testing.T) {
	t.Parallel()
	dbcloudtest.CheckGoroutines(t)
	release := make(chan struct{})
	var calls atomic.Int32
	src := dbcloud.TokenSourceFunc(func() (*dbcloud.Token, error) {
		calls.Add(1)
		<-release
		return &dbcloud.Token{AccessToken: "tok-shared", Expiry: time.Now().Add(time.Hour)}, nil
	})
	creds := dbcloud.BearerTokens(src) // shared by two clients below
	c, mt := credClient(t, creds)
	var log authLog
	mt.RegisterResponder("GET", serviceURL, log.responder(always(200, serviceJSON)))

	// A create whose token never comes ends with its context, and it sent
	// nothing: it is not ErrMaybeCreated.
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	_, err := c.Services.Create(ctx, "p1", &dbcloud.CreateServiceRequest{Name: "db"})
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, dbcloud.ErrMaybeCreated) {
		t.Fatalf("with a hanging source: err = %v, want the context's deadline, not ErrMaybeCreated", err)
	}
	// The same within an attempt's timeout (http.Client.Timeout), with
	// the caller's context still alive: nothing was sent either.
	slow, err := dbcloud.NewClientWithCredentials(creds, dbcloud.WithBaseURL(mockBase),
		dbcloud.WithHTTPClient(&http.Client{Transport: mt, Timeout: 20 * time.Millisecond}), dbcloud.WithRetryMax(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = slow.Services.Create(t.Context(), "p1", &dbcloud.CreateServiceRequest{Name: "db"})
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, dbcloud.ErrMaybeCreated) {
		t.Fatalf("with an attempt timeout: err = %v, want the deadline, not ErrMaybeCreated", err)
	}

	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			if _, err := c.Services.Get(t.Context(), "p1", "s1"); err != nil {
				t.Error(err)
			}
		})
	}
	close(release)
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Errorf("Token called %d times for 18 calls, want 1", n)
	}
	for _, a := range log.seen() {
		if a != "Bearer tok-shared" {
			t.Errorf("Authorization %q", a)
		}
	}
}

// credKinds are the three kinds of credentials, with the header each must
// send and the secrets none may leak.
func credKinds() []struct {
	name    string
	creds   func() dbcloud.Credentials
	header  string
	secrets []string
} {
	basic := base64.StdEncoding.EncodeToString([]byte(patPublic + ":" + patSecret))
	return []struct {
		name    string
		creds   func() dbcloud.Credentials
		header  string
		secrets []string
	}{
		{"API key", func() dbcloud.Credentials { return dbcloud.APIKey(mockKey) }, "Bearer " + mockKey, []string{mockKey}},
		{"personal access token", func() dbcloud.Credentials { return dbcloud.PersonalAccessToken(patPublic, patSecret) },
			"Basic " + basic, []string{patSecret, basic}},
		{"token source", func() dbcloud.Credentials { return dbcloud.BearerTokens(&tokenMint{ttl: time.Hour}) },
			"Bearer tok-1", []string{"tok-1", "tok-2"}},
	}
}

// On real sockets, for every kind: the API's host gets the credential, a
// redirect to another host gets none (and the 401 refresh does not happen
// there either), a redirect on the same host keeps it.
func TestRedirectNeverCarriesCredentials(t *testing.T) {
	t.Parallel()
	for _, kind := range credKinds() {
		t.Run(kind.name, func(t *testing.T) {
			var otherAuth []string
			var mu sync.Mutex
			other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				otherAuth = append(otherAuth, r.Header.Get("Authorization"))
				mu.Unlock()
				w.WriteHeader(http.StatusUnauthorized) // tempts a token refresh
				_, _ = w.Write([]byte(unauthorized))
			}))
			defer other.Close()
			var apiAuth []string
			api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				apiAuth = append(apiAuth, r.Header.Get("Authorization"))
				mu.Unlock()
				switch {
				case strings.Contains(r.URL.Path, "/away/"):
					http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
				case strings.HasSuffix(r.URL.Path, "/services"):
					http.Redirect(w, r, r.URL.Path+"/moved", http.StatusTemporaryRedirect)
				default:
					_, _ = w.Write([]byte("[]"))
				}
			}))
			defer api.Close()
			c, err := dbcloud.NewClientWithCredentials(kind.creds(), dbcloud.WithBaseURL(api.URL+"/v1"), dbcloud.WithRetryMax(0))
			if err != nil {
				t.Fatal(err)
			}
			defer c.CloseIdleConnections()
			// Same host: both hops carry it.
			if _, err := c.Services.List(t.Context(), "p"); err != nil {
				t.Fatal(err)
			}
			// Another host: the first hop carries it, the other host sees none.
			_, err = c.ReplicaSets.List(t.Context(), "p", "away")
			if !errors.Is(err, dbcloud.ErrUnauthorized) {
				t.Fatalf("err = %v, want the other host's 401", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff([]string{kind.header, kind.header, kind.header}, apiAuth); diff != "" {
				t.Errorf("the API's host saw (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{""}, otherAuth); diff != "" {
				t.Errorf("the other host saw (-want +got):\n%s", diff)
			}
		})
	}
}

// For every kind: a server that echoes the credential in 401 and 500
// bodies, with retries logged at debug level; no error text, log record,
// or fmt output of the client, the credentials or the errors holds a secret.
func TestNoCredentialAnywhere(t *testing.T) {
	t.Parallel()
	for _, kind := range credKinds() {
		t.Run(kind.name, func(t *testing.T) {
			var logs bytes.Buffer
			logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			creds := kind.creds()
			c, mt := credClient(t, creds, dbcloud.WithLogger(logger), dbcloud.WithRetryMax(1))
			echo := func(status int) httpmock.Responder {
				return func(r *http.Request) (*http.Response, error) {
					a := r.Header.Get("Authorization")
					_, raw, _ := strings.Cut(a, " ")
					dec, _ := base64.StdEncoding.DecodeString(raw)
					resp := httpmock.NewStringResponse(status,
						`{"code":"X","message":"refused `+a+` `+raw+` `+string(dec)+`"}`)
					resp.Header.Set("X-Echo", a)
					return resp, nil
				}
			}
			mt.RegisterResponder("GET", serviceURL, echo(401))
			mt.RegisterResponder("GET", servicesURL, echo(500))
			var returned []any
			_, err1 := c.Services.Get(t.Context(), "p1", "s1")
			_, err2 := c.Services.List(t.Context(), "p1")
			if err1 == nil || err2 == nil {
				t.Fatalf("errors = %v, %v; want both calls to fail", err1, err2)
			}
			returned = append(returned, err1, err2, c, *c, creds, &creds)
			for _, s := range kind.secrets {
				if bytes.Contains(logs.Bytes(), []byte(s)) {
					t.Errorf("debug logs contain the secret %q", s)
				}
				for _, v := range returned {
					for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%q"} {
						if out := fmt.Sprintf(verb, v); strings.Contains(out, s) || strings.Contains(out, fmt.Sprintf("%x", s)) {
							t.Errorf("%s of a %T shows the secret %q", verb, v, s)
						}
					}
				}
			}
		})
	}
}

func TestCredentialsValidation(t *testing.T) {
	for _, tc := range []struct {
		name  string
		creds dbcloud.Credentials
		field string
	}{
		{"empty API key", dbcloud.APIKey(""), "apiKey"},
		{"zero value", dbcloud.Credentials{}, "credentials"},
		{"empty public key", dbcloud.PersonalAccessToken("", patSecret), "publicKey"},
		{"colon in public key", dbcloud.PersonalAccessToken("a:b", patSecret), "publicKey"},
		{"empty secret key", dbcloud.PersonalAccessToken(patPublic, ""), "secretKey"},
		{"newline in secret key", dbcloud.PersonalAccessToken(patPublic, "s\n"), "secretKey"},
		{"nil source", dbcloud.BearerTokens(nil), "tokenSource"},
	} {
		_, err := dbcloud.NewClientWithCredentials(tc.creds, dbcloud.WithBaseURL(mockBase))
		var ve *dbcloud.ValidationError
		if !errors.As(err, &ve) || ve.Field != tc.field {
			t.Errorf("%s: err = %v, want a *ValidationError for %s", tc.name, err, tc.field)
		}
		if err != nil && strings.Contains(err.Error(), patSecret) {
			t.Errorf("%s: err %q holds the secret", tc.name, err)
		}
	}
}

// TestCredentialsFromEnv uses t.Setenv: it runs alone, not in parallel.
func TestCredentialsFromEnv(t *testing.T) {
	clear := func(t *testing.T) {
		for _, v := range []string{"DBCLOUD_API_KEY", "DBCLOUD_PUBLIC_KEY", "DBCLOUD_SECRET_KEY", "DBCLOUD_PROJECT_ID"} {
			t.Setenv(v, "")
			t.Setenv(v+"_FILE", "")
		}
		t.Setenv("DBCLOUD_BASE_URL", mockBase)
	}
	file := func(t *testing.T, content string) string {
		p := filepath.Join(t.TempDir(), "secret")
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// header sends one request and returns its Authorization.
	header := func(t *testing.T, c *dbcloud.Client, mt *httpmock.MockTransport) string {
		var log authLog
		mt.RegisterResponder("GET", serviceURL, log.responder(always(200, serviceJSON)))
		if _, err := c.Services.Get(t.Context(), "p1", "s1"); err != nil {
			t.Fatal(err)
		}
		return log.seen()[0]
	}
	fromEnv := func(t *testing.T) (*dbcloud.Client, *httpmock.MockTransport, error) {
		mt := httpmock.NewMockTransport()
		c, err := dbcloud.NewClientFromEnv(dbcloud.WithHTTPClient(&http.Client{Transport: mt}))
		return c, mt, err
	}
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte(patPublic+":"+patSecret))

	t.Run("personal access token and project id", func(t *testing.T) {
		clear(t)
		t.Setenv("DBCLOUD_PUBLIC_KEY", patPublic)
		t.Setenv("DBCLOUD_SECRET_KEY", patSecret)
		t.Setenv("DBCLOUD_PROJECT_ID", "proj-9")
		c, mt, err := fromEnv(t)
		if err != nil {
			t.Fatal(err)
		}
		if got := header(t, c, mt); got != basic {
			t.Errorf("Authorization %q, want %q", got, basic)
		}
		if got := c.ProjectID(); got != "proj-9" {
			t.Errorf("ProjectID() = %q", got)
		}
	})
	t.Run("secrets from files", func(t *testing.T) {
		clear(t)
		t.Setenv("DBCLOUD_PUBLIC_KEY", patPublic)
		t.Setenv("DBCLOUD_SECRET_KEY_FILE", file(t, patSecret+"\n"))
		c, mt, err := fromEnv(t)
		if err != nil {
			t.Fatal(err)
		}
		if got := header(t, c, mt); got != basic {
			t.Errorf("Authorization %q, want %q", got, basic)
		}
		clear(t)
		t.Setenv("DBCLOUD_API_KEY_FILE", file(t, mockKey+"\r\n"))
		c, mt, err = fromEnv(t)
		if err != nil {
			t.Fatal(err)
		}
		if got := header(t, c, mt); got != "Bearer "+mockKey {
			t.Errorf("Authorization %q", got)
		}
	})
	t.Run("an option wins over the environment", func(t *testing.T) {
		clear(t)
		t.Setenv("DBCLOUD_API_KEY", mockKey)
		t.Setenv("DBCLOUD_PROJECT_ID", "from-env")
		c, err := dbcloud.NewClientFromEnv(dbcloud.WithProjectID("from-option"))
		if err != nil {
			t.Fatal(err)
		}
		if got := c.ProjectID(); got != "from-option" {
			t.Errorf("ProjectID() = %q", got)
		}
	})
	for _, tc := range []struct {
		name  string
		env   map[string]string
		field string
	}{
		{"both kinds", map[string]string{"DBCLOUD_API_KEY": mockKey, "DBCLOUD_PUBLIC_KEY": patPublic, "DBCLOUD_SECRET_KEY": patSecret}, "credentials"},
		{"a variable and its file", map[string]string{"DBCLOUD_API_KEY": mockKey, "DBCLOUD_API_KEY_FILE": "x"}, "DBCLOUD_API_KEY"},
		{"a secret key and its file", map[string]string{"DBCLOUD_PUBLIC_KEY": patPublic, "DBCLOUD_SECRET_KEY": patSecret,
			"DBCLOUD_SECRET_KEY_FILE": file(t, patSecret)}, "DBCLOUD_SECRET_KEY"},
		{"half a token", map[string]string{"DBCLOUD_PUBLIC_KEY": patPublic}, "secretKey"},
		{"a missing file", map[string]string{"DBCLOUD_SECRET_KEY_FILE": "/nonexistent/secret", "DBCLOUD_PUBLIC_KEY": patPublic},
			"DBCLOUD_SECRET_KEY_FILE"},
		{"nothing", map[string]string{}, "apiKey"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clear(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			_, _, err := fromEnv(t)
			var ve *dbcloud.ValidationError
			if !errors.As(err, &ve) || ve.Field != tc.field {
				t.Errorf("err = %v, want a *ValidationError for %s", err, tc.field)
			}
			for _, s := range []string{mockKey, patSecret} {
				if err != nil && strings.Contains(err.Error(), s) {
					t.Errorf("err %q holds a secret", err)
				}
			}
		})
	}
	t.Run("an empty file", func(t *testing.T) {
		clear(t)
		t.Setenv("DBCLOUD_API_KEY_FILE", file(t, "\n"))
		if _, _, err := fromEnv(t); err == nil {
			t.Error("no error for an empty key file")
		}
	})
}
