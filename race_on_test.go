//go:build race

package dbcloud_test

// raceEnabled reports a build with -race, under which the heap tests are
// skipped (too slow there, and the race detector changes allocation) and
// the connection count beyond the pool is only logged (it slows the SDK's
// side of the comparison far more than raw net/http's).
const raceEnabled = true
