//go:build race

package dbcloud_test

// raceEnabled reports a build with -race, under which the heap test is
// skipped: it is too slow there, and the race detector changes allocation.
const raceEnabled = true
