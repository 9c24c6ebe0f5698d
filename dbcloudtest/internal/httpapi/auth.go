package httpapi

import (
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
)

// authorized checks the request's one Authorization header against the
// credentials the server accepts, one kind as the live service's accounts
// do: the API key (the default), a personal access token sent as HTTP
// Basic, or Bearer tokens the model issued. The error is the 401 to answer.
func (a *API) authorized(r *http.Request) error {
	got := r.Header.Values("Authorization")
	h := ""
	if len(got) == 1 {
		h = got[0]
	}
	switch {
	case a.cfg.PATPublic != "":
		want := "Basic " + base64.StdEncoding.EncodeToString([]byte(a.cfg.PATPublic+":"+a.cfg.PATSecret))
		if subtle.ConstantTimeCompare([]byte(h), []byte(want)) == 1 {
			return nil
		}
		return apierr.Unauthorized("missing or invalid personal access token",
			`send the header "Authorization: Basic base64(<public key>:<secret key>)"`)
	case a.cfg.TokenLife > 0:
		tok, ok := strings.CutPrefix(h, "Bearer ")
		if ok && a.model.TokenValid(tok) {
			return nil
		}
		return apierr.Unauthorized("missing, unknown or expired token",
			`send the header "Authorization: Bearer <token>" with a token that has not expired`)
	case h == "Bearer "+a.cfg.APIKey:
		return nil
	}
	return apierr.Unauthorized("missing or invalid API key", `send the header "Authorization: Bearer <API key>"`)
}
