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
// following 100,000 (DBCLOUD_MEASURE=1, 10 to 20 s; by default 50,000 and
// 5,000), and both stay under 4 MiB above where they started.
func TestFollowLogsPeakHeapIsFlat(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("a heap measurement: skipped under -race and -short")
	}
	checkHeapFlatOver(t, "lines", atScale(5_000, 100_000), measureFollowHeap)
}

// measureFollowWalkHeap follows a history of entries seeded lines from the
// beginning: the first poll walks back through all of it, entries/500
// pages, then yields it oldest first. The fake holds the history before
// the baseline is taken, so the measure is the follow's: two pages and the
// walk's cursors.
func measureFollowWalkHeap(t *testing.T, entries int) heapPeak {
	t.Helper()
	srv, c, id := newLoggedService(t, entries)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	defer debug.SetGCPercent(debug.SetGCPercent(measureGCPercent))
	peak := startHeapPeak(entries)
	began := time.Now()
	before := srv.Count("GET", logsPattern)
	n := 0
	var prev time.Time
	for e, err := range c.Services.FollowLogs(ctx, srv.ProjectID, id, &dbcloud.LogOptions{After: &dbcloud.LogPosition{}}) {
		if err != nil {
			t.Fatalf("after %d lines: %v", n, err)
		}
		if e.Timestamp.Before(prev) {
			t.Fatalf("line %d at %v, older than the one before", n, e.Timestamp)
		}
		prev = e.Timestamp
		if n++; n == entries {
			break // the startup lines come next
		}
		peak.sample(n)
	}
	peak.elapsed = time.Since(began)
	t.Logf("%d lines in %d logs requests", n, srv.Count("GET", logsPattern)-before)
	return peak
}

// TestFollowLogsWalkBackPeakHeapIsFlat checks that a follow that walks back
// through many pages in one poll (40 and 400 pages with DBCLOUD_MEASURE=1,
// by default 10 and 100) holds two pages and a cursor a page, not the pages:
// under 4 MiB above the baseline, the longer walk holding about what the
// shorter does. (The fake's history is in the baseline; with GOGC=10 a
// larger one lets the garbage grow by a tenth of it before a collection,
// so the sizes stay where that is small.)
func TestFollowLogsWalkBackPeakHeapIsFlat(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("a heap measurement: skipped under -race and -short")
	}
	checkHeapFlatOver(t, "lines", atScale(5_000, 20_000), measureFollowWalkHeap)
}
