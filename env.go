package dbcloud

import (
	"io"
	"os"
	"strings"
)

// maxSecretFile bounds what is read of a secret's file: a key is short, and
// a variable pointing at a large file by mistake must not fill memory.
const maxSecretFile = 64 << 10

// NewClientFromEnv returns a client configured from DBCLOUD_API_KEY
// (Bearer) or DBCLOUD_PUBLIC_KEY and DBCLOUD_SECRET_KEY (a personal access
// token; setting both kinds is an error), DBCLOUD_BASE_URL, and
// DBCLOUD_PROJECT_ID (see Client.ProjectID). DBCLOUD_API_KEY_FILE and
// DBCLOUD_SECRET_KEY_FILE name files holding the secret instead, white
// space trimmed; setting both a variable and its _FILE form is an error.
// Options win over variables. For BearerTokens use NewClientWithCredentials.
func NewClientFromEnv(opts ...Option) (*Client, error) {
	env := []Option{}
	if base := os.Getenv(envBaseURL); base != "" {
		env = append(env, WithBaseURL(base))
	}
	if id := os.Getenv(envProjectID); id != "" {
		env = append(env, WithProjectID(id))
	}
	creds, err := credentialsFromEnv()
	if err != nil {
		return nil, err
	}
	return NewClientWithCredentials(creds, append(env, opts...)...)
}

// credentialsFromEnv picks the one kind of credentials the environment
// holds.
func credentialsFromEnv() (Credentials, error) {
	key, err := secretFromEnv(envAPIKey)
	if err != nil {
		return Credentials{}, err
	}
	public := os.Getenv(envPublicKey)
	secret, err := secretFromEnv(envSecretKey)
	if err != nil {
		return Credentials{}, err
	}
	switch {
	case key != "" && (public != "" || secret != ""):
		return Credentials{}, invalid("credentials", "both "+envAPIKey+" and a personal access token ("+
			envPublicKey+", "+envSecretKey+") are set: unset one")
	case public != "" || secret != "":
		return PersonalAccessToken(public, secret), nil
	case key == "":
		return Credentials{}, invalid("apiKey", "no credentials in the environment: set "+envAPIKey+
			" (or "+envAPIKey+envFileSuffix+"), or "+envPublicKey+" and "+envSecretKey+" (or "+envSecretKey+envFileSuffix+")")
	}
	return APIKey(key), nil
}

// secretFromEnv reads the variable name, or the file named by name_FILE.
// Errors name the variable, never its value or the file's content.
func secretFromEnv(name string) (string, error) {
	value, path := os.Getenv(name), os.Getenv(name+envFileSuffix)
	switch {
	case path == "":
		return value, nil
	case value != "":
		return "", invalid(name, "both "+name+" and "+name+envFileSuffix+" are set: unset one")
	}
	f, err := os.Open(path)
	if err != nil {
		return "", invalid(name+envFileSuffix, err.Error())
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSecretFile+1))
	switch {
	case err != nil:
		return "", invalid(name+envFileSuffix, "reading "+path+" failed")
	case len(b) > maxSecretFile:
		return "", invalid(name+envFileSuffix, path+" is larger than 64 KiB: not a key")
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "", invalid(name+envFileSuffix, path+" is empty")
	}
	return s, nil
}
