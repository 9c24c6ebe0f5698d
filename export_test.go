package dbcloud

import "testing"

// checkGoroutines is dbcloudtest.CheckGoroutines for this package's own
// tests, which cannot import dbcloudtest (it imports this package). The
// external test package, linked into the same test binary, sets it before
// any test runs (helpers_test.go).
var checkGoroutines func(testing.TB)

// WithFollowWalkBound sets the follow walk's page bound, maxFollowWalk, to
// n, so that a test reaches it in a few pages; only the tests see it.
func WithFollowWalkBound(n int) Option { return func(c *clientConfig) { c.followWalk = n } }

// SetCheckGoroutines sets checkGoroutines; only the tests see it.
func SetCheckGoroutines(check func(testing.TB)) { checkGoroutines = check }

// Create recovery's rounds, which the fault matrix counts: tuning numbers
// the documentation states and no option sets, so they are not exported.
const (
	CreateRecoverySends      = createRecoverySends
	CreateRecoveryListRounds = createRecoveryListRounds
)

// The follow walk's bound, the token refresh margin and the retry
// budget's default: figures the documentation states, which the tests
// reach past or fill.
const (
	MaxFollowWalk      = maxFollowWalk
	TokenRefreshMargin = tokenRefreshMargin
	DefaultRetryBudget = defaultRetryBudget
)
