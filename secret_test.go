package dbcloud_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/jarcoal/httpmock"
)

const initialPassword = "init-Pa55w0rd-xyzzy"

// every verb a user might print a value with.
var verbs = []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X"}

func assertNoSecret(t *testing.T, where, text string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Errorf("%s leaks %q:\n%s", where, s, text)
		}
	}
}

func TestSecretRedactsEverywhere(t *testing.T) {
	s := dbcloud.Secret(initialPassword)
	for _, verb := range verbs {
		assertNoSecret(t, verb, fmt.Sprintf(verb, s), initialPassword)
	}
	for name, text := range map[string]string{
		"String":   s.String(),
		"GoString": s.GoString(),
		"slog":     s.LogValue().String(),
	} {
		assertNoSecret(t, name, text, initialPassword)
	}
	b, err := json.Marshal(s)
	if err != nil || string(b) != `"[redacted]"` {
		t.Errorf("MarshalJSON = %s, %v", b, err)
	}
	var back dbcloud.Secret
	if err := json.Unmarshal([]byte(`"`+initialPassword+`"`), &back); err != nil || string(back) != initialPassword {
		t.Errorf("UnmarshalJSON kept %q, %v; want the real value", string(back), err)
	}
}

// A service holding its initial password, printed, logged or encoded in
// every usual way, shows no password.
func TestServiceWithPasswordPrintsNoSecret(t *testing.T) {
	c, mt := mockClient(t)
	body := strings.Replace(serviceJSON, `"resources":[]`, `"resources":[],"initial_password":"`+initialPassword+`"`, 1)
	mt.RegisterResponder("POST", servicesURL, httpmock.NewStringResponder(202, body))
	svc, err := c.Services.Create(t.Context(), "p1", &dbcloud.CreateServiceRequest{Name: "db"})
	if err != nil {
		t.Fatal(err)
	}
	if string(svc.InitialPassword) != initialPassword {
		t.Fatalf("InitialPassword = %q, want the real value through string()", string(svc.InitialPassword))
	}
	for _, verb := range verbs {
		assertNoSecret(t, verb+" of *Service", fmt.Sprintf(verb, svc), initialPassword)
		assertNoSecret(t, verb+" of Service", fmt.Sprintf(verb, *svc), initialPassword)
	}
	b, err := json.Marshal(svc)
	if err != nil {
		t.Fatal(err)
	}
	assertNoSecret(t, "json.Marshal", string(b), initialPassword)
	var logs bytes.Buffer
	slog.New(slog.NewTextHandler(&logs, nil)).Info("created", "service", svc)
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("created", "service", svc)
	assertNoSecret(t, "slog", logs.String(), initialPassword)
}

// The API key and a password given to UpdatePassword reach neither the logs
// (at debug level, through retries and failures), nor error texts, nor the
// fmt output of the client, even when a server echoes them back.
func TestKeyAndPasswordNeverPrinted(t *testing.T) {
	const newPassword = "n3w-Secret-Pa55-plugh"
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	c, mt := mockClient(t, dbcloud.WithLogger(logger), dbcloud.WithRetryMax(1))

	echo := `{"code":"INVALID_REQUEST","message":"key ` + mockKey + ` cannot set ` + newPassword + `","details":"` + newPassword + `"}`
	mt.RegisterResponder("POST", serviceURL+"/updatePassword", httpmock.NewStringResponder(400, echo))
	mt.RegisterResponder("GET", serviceURL, httpmock.NewStringResponder(503, `{"message":"no key `+mockKey+`"}`).Then(httpmock.NewErrorResponder(errReset)))
	mt.RegisterResponder("POST", startURL, httpmock.NewStringResponder(401, `{"message":"bad key `+mockKey+`"}`))
	mt.RegisterResponder("GET", servicesURL, httpmock.NewStringResponder(200, "["+serviceJSON+"]"))

	var errs []error
	errs = append(errs, c.Services.UpdatePassword(t.Context(), "p1", "s1", newPassword))
	_, err := c.Services.Get(t.Context(), "p1", "s1")
	errs = append(errs, err)
	_, err = c.Services.Start(t.Context(), "p1", "s1")
	errs = append(errs, err)
	if _, err := c.Services.List(t.Context(), "p1"); err != nil {
		t.Fatal(err)
	}
	for i, err := range errs {
		if err == nil {
			t.Fatalf("call %d: want an error", i)
		}
		for _, verb := range verbs {
			assertNoSecret(t, fmt.Sprintf("error %d with %s", i, verb), fmt.Sprintf(verb, err), mockKey, newPassword)
		}
	}
	if !strings.Contains(logs.String(), "attempt=") || !strings.Contains(logs.String(), "status=503") {
		t.Fatalf("debug logs recorded no attempts:\n%s", logs.String())
	}
	assertNoSecret(t, "debug logs", logs.String(), mockKey, newPassword, "Authorization", "Bearer")
	for _, v := range []any{c, *c, c.Services, c.ReplicaSets} {
		for _, verb := range verbs {
			assertNoSecret(t, fmt.Sprintf("%s of %T", verb, v), fmt.Sprintf(verb, v), mockKey)
		}
	}
}

func TestNewClientErrorsDoNotLeakKey(t *testing.T) {
	for _, base := range []string{"", "http://example.com/v1", "https://example.com/v2", "https://u:" + mockKey + "@example.com/v1"} {
		_, err := dbcloud.NewClient(mockKey, dbcloud.WithBaseURL(base))
		if err == nil {
			t.Fatalf("base %q: want an error", base)
		}
		assertNoSecret(t, "NewClient error", fmt.Sprintf("%+v", err), mockKey)
	}
}
