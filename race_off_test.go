//go:build !race

package dbcloud_test

// raceEnabled reports a build with -race; see race_on_test.go.
const raceEnabled = false
