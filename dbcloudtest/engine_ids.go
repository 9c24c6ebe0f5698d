package dbcloudtest

const (
	lowerAlnum    = "abcdefghijklmnopqrstuvwxyz0123456789"
	passwordChars = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
)

// randString draws from idRand; the caller holds a.mu.
func (a *engine) randString(n int, alphabet string) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[a.idRand.IntN(len(alphabet))]
	}
	return string(b)
}

func (a *engine) uniqueServiceID() string { return a.uniqueID("", 10) }

func (a *engine) uniqueReplicaSetID() string { return a.uniqueID("rs-", 6) }

// uniqueID draws an id never handed out before, as the live service never
// gives a deleted resource's id to a new one.
func (a *engine) uniqueID(prefix string, n int) string {
	for {
		id := prefix + a.randString(n, lowerAlnum)
		if !a.usedIDs[id] {
			a.usedIDs[id] = true
			return id
		}
	}
}

func (a *engine) password() string { return a.randString(20, passwordChars) }
