package dbcloud_test

import (
	"bytes"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// cursorPad makes every cursor of a paddedLogServer 64 KiB.
var cursorPad = strings.Repeat("p", 64<<10-len(benchCursor(0)))

// paddedLogServer serves the benchmark history (see appendLogPage) with
// 64 KiB cursors: benchCursor(k) and padding.
type paddedLogServer struct {
	pages int
	mu    sync.Mutex
	buf   []byte
}

func (s *paddedLogServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	k := 0
	if r.URL.Query().Has("until") {
		k = 1 // the window's second page; the history does not change
	}
	if c := r.URL.Query().Get("cursor"); c != "" {
		var ok bool
		if k, ok = benchParseCursor(strings.TrimSuffix(c, cursorPad)); !ok || k >= s.pages || !strings.HasSuffix(c, cursorPad) {
			http.Error(w, `{"code":"INVALID_REQUEST","message":"bad cursor"}`, http.StatusBadRequest)
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf = appendLogPage(s.buf[:0], k, s.pages)
	if next := []byte(`"` + benchCursor(k+1) + `"`); k+1 < s.pages {
		s.buf = bytes.ReplaceAll(s.buf, next, []byte(`"`+benchCursor(k+1)+cursorPad+`"`))
	}
	benchWrite(w, http.StatusOK, s.buf, []string{strconv.Itoa(len(s.buf))})
}

// measureLongCursorHeap reads entries entries through AllLogs from a server
// whose every cursor is 64 KiB, and samples the heap.
func measureLongCursorHeap(t *testing.T, entries int) heapPeak {
	t.Helper()
	c := benchSDK(t, benchServer(t, &paddedLogServer{pages: entries / benchLogPageSize}))
	defer debug.SetGCPercent(debug.SetGCPercent(measureGCPercent))
	p := startHeapPeak(entries)
	start := time.Now()
	n := 0
	for _, err := range c.Services.AllLogs(t.Context(), benchProject, benchService, nil) {
		if err != nil {
			t.Fatalf("after %d entries: %v", n, err)
		}
		n++
		p.sample(n + benchLogPageSize/2)
	}
	p.elapsed = time.Since(start)
	if n != entries {
		t.Fatalf("read %d entries, want %d", n, entries)
	}
	return p
}

// TestAllLogsLongCursorsPeakHeapIsFlat checks that cursors of 64 KiB, 40
// and 400 pages of them (2.5 and 25 MiB in all; with DBCLOUD_MEASURE=1,
// by default 10 and 100 pages), cost a read no more than the one cursor it
// sends next: what it keeps of the cursors it followed, to tell a cycle, is
// two hashes.
func TestAllLogsLongCursorsPeakHeapIsFlat(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("a heap measurement: skipped under -race and -short")
	}
	checkHeapFlatOver(t, "entries", atScale(10, 40)*benchLogPageSize, measureLongCursorHeap)
}
