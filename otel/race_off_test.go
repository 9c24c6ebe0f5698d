//go:build !race

package dbcloudotel_test

// allocSlack is what the race detector adds to allocations; see
// race_on_test.go.
const allocSlack = 0
