package chaos_test

import (
	"math"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/internal/testkit/chaos"
)

// TestStreamDrawsEvenly: at rate 1 every request is faulted, the seven
// kinds come about equally often, a 5xx is before, after or late about
// equally often, and statuses and delays stay in their ranges.
func TestStreamDrawsEvenly(t *testing.T) {
	const draws = 70000
	s := chaos.NewStream(7, 1, 500*time.Millisecond, 3*time.Second)
	counts := map[chaos.Kind]int{}
	for range draws {
		f := s.Next()
		counts[f.Kind]++
		switch f.Kind {
		case chaos.Status5xxBefore, chaos.Status5xxAfter, chaos.Status5xxLate:
			if f.Status < 500 || f.Status > 504 || f.Status == 501 {
				t.Fatalf("5xx fault with status %d", f.Status)
			}
		}
		switch f.Kind {
		case chaos.Spike, chaos.Status5xxLate:
			if f.Delay < 500*time.Millisecond || f.Delay > 3*time.Second {
				t.Fatalf("spike of %s", f.Delay)
			}
		}
	}
	near := func(got int, want float64) bool { return math.Abs(float64(got)-want) < 0.06*want }
	for _, k := range []chaos.Kind{chaos.RateLimited, chaos.ResetBefore, chaos.ResetAfter, chaos.CutOff, chaos.Malformed, chaos.Spike} {
		if !near(counts[k], draws/7) {
			t.Errorf("%s: %d of %d, want about %d", k, counts[k], draws, draws/7)
		}
	}
	if before, after, late := counts[chaos.Status5xxBefore], counts[chaos.Status5xxAfter], counts[chaos.Status5xxLate]; !near(before, draws/21) || !near(after, draws/21) || !near(late, draws/21) {
		t.Errorf("5xx: %d before, %d after forwarding, %d late, want about %d each", before, after, late, draws/21)
	}
	if counts[chaos.None] != 0 {
		t.Errorf("%d requests unfaulted at rate 1", counts[chaos.None])
	}
}

func TestStreamRate(t *testing.T) {
	const draws = 40000
	s := chaos.NewStream(7, 0.25, time.Second, time.Second)
	faulted := 0
	for range draws {
		if s.Next().Kind != chaos.None {
			faulted++
		}
	}
	if got := float64(faulted) / draws; math.Abs(got-0.25) > 0.01 {
		t.Errorf("faulted %.3f of the requests, want 0.25", got)
	}
}

// TestStreamSeed: a seed fixes the sequence of faults; another seed gives
// another.
func TestStreamSeed(t *testing.T) {
	a := chaos.NewStream(3, 0.5, 0, time.Second)
	b := chaos.NewStream(3, 0.5, 0, time.Second)
	c := chaos.NewStream(4, 0.5, 0, time.Second)
	differs := false
	for i := range 1000 {
		fa, fb, fc := a.Next(), b.Next(), c.Next()
		if fa != fb {
			t.Fatalf("draw %d: %+v and %+v from the same seed", i, fa, fb)
		}
		differs = differs || fa != fc
	}
	if !differs {
		t.Error("seeds 3 and 4 gave the same 1000 faults")
	}
}

// TestStreamHeld: with held spikes, about the asked share of the spikes hold
// a request in the held range, the rest in the spike range; nothing else
// changes kind.
func TestStreamHeld(t *testing.T) {
	s := chaos.NewStream(9, 1, 500*time.Millisecond, 2500*time.Millisecond).Held(0.5, 3500*time.Millisecond, 10*time.Second)
	spikes, held := 0, 0
	for range 20000 {
		f := s.Next()
		if f.Kind != chaos.Spike {
			continue
		}
		spikes++
		switch {
		case f.Delay >= 3500*time.Millisecond && f.Delay <= 10*time.Second:
			held++
		case f.Delay < 500*time.Millisecond || f.Delay > 2500*time.Millisecond:
			t.Fatalf("spike of %s, outside both ranges", f.Delay)
		}
	}
	if share := float64(held) / float64(spikes); spikes < 2000 || share < 0.45 || share > 0.55 {
		t.Errorf("%d of %d spikes held (%.2f), want about half", held, spikes, share)
	}
}
