package model

import (
	"strconv"
	"time"
)

// IssueToken issues a Bearer token that expires after lifetime on the
// clock, and returns it with its expiry. Its random part comes from the
// same generator as ids, so that a seed fixes both.
func (m *Model) IssueToken(lifetime time.Duration) (string, time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.tokens == nil {
		m.tokens = make(map[string]time.Time)
	}
	tok := "fake-token-" + strconv.Itoa(len(m.tokens)+1) + "-" + m.randString(16, lowerAlnum)
	exp := m.clock.Peek().Add(lifetime)
	m.tokens[tok] = exp
	return tok, exp
}

// TokenValid reports whether tok was issued and has not expired on the
// clock.
func (m *Model) TokenValid(tok string) bool {
	m.mu.Lock()
	exp, ok := m.tokens[tok]
	m.mu.Unlock()
	return ok && m.clock.Peek().Before(exp)
}
