package logwalk

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A walk through μ distinct requests into a cycle of λ is caught, before
// the 3(μ+λ)-th request and never before a request repeats.
func TestCyclesCatchEveryCycleWithinThreeTimesItsRequests(t *testing.T) {
	until := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for mu := 0; mu <= 40; mu++ {
		for lambda := 1; lambda <= 40; lambda++ {
			var c Cycles
			sent := 0
			for i := 0; ; i++ {
				j := i
				if i >= mu {
					j = mu + (i-mu)%lambda
				}
				if c.Seen("c"+strconv.Itoa(j), until) {
					break
				}
				sent++
				if sent > 3*(mu+lambda) {
					t.Fatalf("μ=%d λ=%d: no cycle found after %d requests", mu, lambda, sent)
				}
			}
			if sent < mu+lambda {
				t.Fatalf("μ=%d λ=%d: cycle reported after %d requests, before any repeated", mu, lambda, sent)
			}
			if bound := 2*max(mu+1, lambda) + lambda - 1; sent > bound {
				t.Errorf("μ=%d λ=%d: %d requests, want at most %d", mu, lambda, sent, bound)
			}
		}
	}
}

// The same cursor text in another window is another request; the same
// cursor and window is a repeat.
func TestCyclesKeyOnCursorAndWindow(t *testing.T) {
	t1 := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	var c Cycles
	for i, r := range []struct {
		cursor string
		until  time.Time
		repeat bool
	}{
		{"", time.Time{}, false},
		{"500", time.Time{}, false},
		{"", t1, false},
		{"500", t1, false},
		{"500", t1.Add(time.Nanosecond), false},
		{"500", t1.Add(time.Nanosecond), true},
	} {
		if got := c.Seen(r.cursor, r.until); got != r.repeat {
			t.Errorf("request %d (%q, %v): repeat %v, want %v", i, r.cursor, r.until, got, r.repeat)
		}
	}
}

type entry struct {
	at  time.Time
	msg string
}

var errRepeated = errors.New("repeated")

// fetcher is a Source of entries whose pages fetch sends.
type fetcher func(ctx context.Context, cursor string, until time.Time) ([]entry, string, error)

func (f fetcher) Fetch(ctx context.Context, cursor string, until time.Time) ([]entry, string, error) {
	return f(ctx, cursor, until)
}

func (fetcher) Time(e entry) time.Time { return e.at }

func (fetcher) Key(e entry) uint64 {
	var h uint64
	for _, b := range []byte(e.msg) {
		h = h*31 + uint64(b)
	}
	return h
}

func newWalk(fetch fetcher, until time.Time) *Walk[entry] {
	return New(Config[entry]{Source: fetch, Until: until, Repeated: errRepeated})
}

// windowServer holds a history, newest last, and issues cursors that are
// offsets from the newest entry of the request's window: the same text in
// every window.
type windowServer struct {
	hist     []entry
	pageSize int
	requests []string
}

func (s *windowServer) fetch(_ context.Context, cursor string, until time.Time) ([]entry, string, error) {
	s.requests = append(s.requests, fmt.Sprintf("%s|%v", cursor, until.IsZero()))
	top := len(s.hist) - 1
	for !until.IsZero() && top >= 0 && !s.hist[top].at.Before(until) {
		top--
	}
	off := 0
	if cursor != "" {
		off, _ = strconv.Atoi(cursor)
	}
	var out []entry
	i := top - off
	for ; i >= 0 && len(out) < s.pageSize; i-- {
		out = append(out, s.hist[i])
	}
	if i < 0 {
		return out, "", nil
	}
	return out, strconv.Itoa(top - i), nil
}

// A history read through window-relative cursors comes whole and once,
// with entries sharing the first page's oldest instant.
func TestWalkReadsAWindowRelativeHistory(t *testing.T) {
	base := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	s := &windowServer{pageSize: 5}
	for i := range 23 {
		at := base.Add(time.Duration(i) * time.Second)
		if i >= 15 && i <= 19 { // the first page's oldest instant, also on the second page
			at = base.Add(15 * time.Second)
		}
		s.hist = append(s.hist, entry{at, "m" + strconv.Itoa(i)})
	}
	w := newWalk(s.fetch, time.Time{})
	var got []string
	for !w.Done() {
		page, err := w.Next(t.Context())
		if err != nil {
			t.Fatalf("after %v: %v", got, err)
		}
		for _, e := range page {
			got = append(got, e.msg)
		}
	}
	var want []string
	for i := 22; i >= 0; i-- {
		want = append(want, "m"+strconv.Itoa(i))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	// 5 on the first page, 3 new on the second (2 dropped), 5, 5, 5.
	if len(s.requests) != 5 {
		t.Errorf("%d requests (%v), want 5", len(s.requests), s.requests)
	}
}

// A server that hands back the cursor it was given, or cycles through
// several, ends the walk with the error matching Repeated; a request is
// never sent twice in a row.
func TestWalkEndsACycle(t *testing.T) {
	at := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for _, period := range []int{1, 2, 7} {
		t.Run(fmt.Sprintf("period=%d", period), func(t *testing.T) {
			sent := 0
			w := newWalk(func(_ context.Context, cursor string, _ time.Time) ([]entry, string, error) {
				sent++
				n, _ := strconv.Atoi(cursor)
				return []entry{{at, "m"}}, strconv.Itoa((n + 1) % period), nil
			}, at.Add(time.Hour))
			var err error
			for err == nil && !w.Done() {
				_, err = w.Next(t.Context())
			}
			if !errors.Is(err, errRepeated) {
				t.Fatalf("after %d requests: %v, want the Repeated error", sent, err)
			}
			if sent > 3*(period+1) {
				t.Errorf("%d requests for a cycle of %d, want at most %d", sent, period, 3*(period+1))
			}
		})
	}
}
