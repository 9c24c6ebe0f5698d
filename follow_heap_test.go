package dbcloud_test

import (
	"context"
	"runtime/debug"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// followBatches are the numbers of lines written between two polls, in
// turn: mostly a page's worth, a short poll, and bursts of three and six
// pages (walked back, then read again).
var followBatches = []int{450, 450, 1234, 450, 450, 1, 450, 2600, 450, 37}

// measureFollowHeap follows lines lines, written between polls in
// followBatches, and samples the heap. The fake writes a generated line
// every microsecond of its clock and keeps only the newest 5,000, so the
// fake's own size stays flat too; each line has its own microsecond, so
// every yielded timestamp is checked: no gap, no duplicate.
func measureFollowHeap(t *testing.T, lines int) heapPeak {
	t.Helper()
	// At the service's creation: no line is due yet.
	f := newFollowFixtureAtCreation(t, []dbcloudtest.Option{dbcloudtest.WithLogInterval(time.Microsecond), dbcloudtest.WithLogRetention(5000)})
	start := f.srv.Now()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	p := pull(t, f.c.Services.FollowLogs(ctx, f.project, f.service,
		&dbcloud.LogOptions{Since: start.Add(time.Nanosecond), PollInterval: 100 * time.Microsecond}))

	defer debug.SetGCPercent(debug.SetGCPercent(measureGCPercent))
	peak := startHeapPeak(lines)
	began := time.Now()
	n := 0
	for batch := 0; n < lines; batch++ {
		size := min(followBatches[batch%len(followBatches)], lines-n)
		f.srv.Advance(time.Duration(size) * time.Microsecond)
		for range size {
			e, err, ok := p.next()
			if !ok || err != nil {
				t.Fatalf("after %d lines: ended %v, error %v", n, !ok, err)
			}
			n++
			if want := start.Add(time.Duration(n) * time.Microsecond); !e.Timestamp.Equal(want) {
				t.Fatalf("line %d at %v, want %v", n, e.Timestamp, want)
			}
			peak.sample(n)
		}
	}
	peak.elapsed = time.Since(began)
	t.Logf("%d lines in %d logs requests", n, f.requests())
	return peak
}

// TestFollowLogsPeakHeapIsFlat checks that a follow holds a bounded amount
// whatever it has followed: following 1,000,000 lines retains no more than
// following 100,000, and both stay under 4 MiB above where they started.
func TestFollowLogsPeakHeapIsFlat(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("follows 1.1M lines, 10 to 20 s: skipped under -race and -short")
	}
	checkHeapFlatOver(t, "lines", measureFollowHeap)
}
