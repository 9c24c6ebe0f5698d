//go:build race

package dbcloudotel_test

// allocSlack is what the race detector adds to the allocations of a call
// (4 in TestObserverAllocs, bench_test.go): it changes allocation, so bounds allow for it.
const allocSlack = 4
