package fakeapi

const (
	lowerAlnum    = "abcdefghijklmnopqrstuvwxyz0123456789"
	passwordChars = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
)

// randString draws from idRand; the caller holds a.mu.
func (a *API) randString(n int, alphabet string) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[a.idRand.IntN(len(alphabet))]
	}
	return string(b)
}

func (a *API) uniqueServiceID() string {
	for {
		id := a.randString(10, lowerAlnum)
		if !a.idTaken(func(s *service, _ *replicaSet) bool { return s.id == id }) {
			return id
		}
	}
}

func (a *API) uniqueReplicaSetID() string {
	for {
		id := "rs-" + a.randString(6, lowerAlnum)
		if !a.idTaken(func(_ *service, rs *replicaSet) bool { return rs != nil && rs.id == id }) {
			return id
		}
	}
}

// idTaken reports whether used holds for any service, alone (rs nil) or
// with one of its replica sets.
func (a *API) idTaken(used func(*service, *replicaSet) bool) bool {
	for _, s := range a.services {
		if used(s, nil) {
			return true
		}
		for _, rs := range s.sets {
			if used(s, rs) {
				return true
			}
		}
	}
	return false
}

func (a *API) password() string { return a.randString(20, passwordChars) }
