package model

const (
	lowerAlnum    = "abcdefghijklmnopqrstuvwxyz0123456789"
	passwordChars = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
)

// randString draws from idRand; the caller holds m.mu.
func (m *Model) randString(n int, alphabet string) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[m.idRand.IntN(len(alphabet))]
	}
	return string(b)
}

func (m *Model) uniqueServiceID() string { return m.uniqueID("", 10) }

func (m *Model) uniqueReplicaSetID() string { return m.uniqueID("rs-", 6) }

// uniqueID draws an id never handed out before, as the live service never
// gives a deleted resource's id to a new one.
func (m *Model) uniqueID(prefix string, n int) string {
	for {
		id := prefix + m.randString(n, lowerAlnum)
		if !m.usedIDs[id] {
			m.usedIDs[id] = true
			return id
		}
	}
}

func (m *Model) password() string { return m.randString(20, passwordChars) }
