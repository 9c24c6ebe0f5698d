package model

const (
	lowerAlnum    = "abcdefghijklmnopqrstuvwxyz0123456789"
	digitChars    = "0123456789"
	lowerHex      = "0123456789abcdef"
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

func (m *Model) uniqueServiceID() string { return m.uniqueID("", 10, lowerAlnum) }

func (m *Model) uniqueReplicaSetID() string { return m.uniqueID("rs-", 6, lowerAlnum) }

// uniqueDigitID is the id of a VPC or a peering connection: digits, as the
// live service's VPC ids are, which attachToVPC's vpc_id must be.
func (m *Model) uniqueDigitID() string { return m.uniqueID("", 8, digitChars) }

// uniqueID draws an id never handed out before, as the live service never
// gives a deleted resource's id to a new one.
func (m *Model) uniqueID(prefix string, n int, alphabet string) string {
	for {
		id := prefix + m.randString(n, alphabet)
		if !m.usedIDs[id] {
			m.usedIDs[id] = true
			return id
		}
	}
}

func (m *Model) password() string { return m.randString(20, passwordChars) }
