package wire

// AuthInfo is who the credentials of a request belong to: Type says which
// of APIKey (a personal access token) and OAuth (a user) is filled.
// APIKeyOld is the deprecated duplicate of APIKey the API also sends.
type AuthInfo struct {
	Type      string  `json:"type"`
	APIKey    *APIKey `json:"api_key,omitempty"`
	APIKeyOld *APIKey `json:"apiKey,omitempty"`
	OAuth     *OAuth  `json:"oauth,omitempty"`
}

// APIKey is a personal access token: its public half, name, creation, the
// project it is scoped to and the user who issued it.
type APIKey struct {
	PublicKey   string  `json:"public_key"`
	Name        string  `json:"name"`
	Created     string  `json:"created"`
	Project     Project `json:"project"`
	IssuingUser User    `json:"issuing_user"`
}

// OAuth is a signed-in user's identity.
type OAuth struct {
	User User `json:"user"`
}

// User is a person with an account; ID is a numeric string.
type User struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

// Project is a project, as GET /projects lists it and as a token names it.
// PlanType is sent only inside a token's APIKey.
type Project struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	PlanType string `json:"plan_type,omitempty"`
}
