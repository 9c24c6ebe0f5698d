package httpapi

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/logstore"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

// A cursor token carries a position of the walk (logstore.Position: eight
// bytes of number, a ninth of kind) and a MAC over it and the service, so a
// forged cursor or one from another service is refused. The MAC does not
// cover the window, so with WithWindowCursors the same text comes back in
// every window at the same depth, as the live service's cursors do.
const cursorMACLen = 12

func (a *API) cursorMAC(s *model.Service, pos []byte) []byte {
	m := hmac.New(sha256.New, a.cursorKey)
	m.Write([]byte(s.Project() + "\x00" + s.ID() + "\x00"))
	m.Write(pos)
	return m.Sum(nil)[:cursorMACLen]
}

func (a *API) makeCursor(s *model.Service, p logstore.Position) string {
	buf := append(binary.BigEndian.AppendUint64(nil, uint64(p.N)), byte(p.Kind))
	return base64.RawURLEncoding.EncodeToString(append(buf, a.cursorMAC(s, buf)...))
}

func (a *API) readCursor(s *model.Service, token string) (logstore.Position, error) {
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) != 9+cursorMACLen || logstore.Kind(raw[8]) > logstore.InWindow || !hmac.Equal(raw[9:], a.cursorMAC(s, raw[:9])) {
		return logstore.Position{}, apierr.BadRequest("cursor", "is not a cursor issued for this service")
	}
	return logstore.Position{Kind: logstore.Kind(raw[8]), N: int64(binary.BigEndian.Uint64(raw[:8]))}, nil
}
