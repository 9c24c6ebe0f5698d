package poll

import (
	"context"
	"errors"
	"testing"
	"time"
)

type item struct{ id string }

// No poller is left in the registry (nor its goroutine) once its last wait
// has ended.
func TestPollerEndsWithItsLastWait(t *testing.T) {
	p := &Poller[item]{
		All:     func(context.Context, []context.Context) ([]item, error) { return []item{{"a"}, {"b"}}, nil },
		ID:      func(v *item) string { return v.id },
		Missing: func(string) error { return errors.New("missing") },
	}
	var r Registry
	mk := func() *Poller[item] { return p }
	s := Schedule{First: time.Millisecond, Longest: time.Millisecond, End: time.Now().Add(time.Minute)}
	_, wa := Join(&r, "p", mk, t.Context(), "a", s)
	_, wb := Join(&r, "p", mk, t.Context(), "b", s)
	if oa, ob := <-wa.C, <-wb.C; oa.Res.id != "a" || ob.Res.id != "b" {
		t.Fatalf("got %v and %v", oa, ob)
	}
	p.Leave(wa)
	p.Leave(wb)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		p.mu.Lock()
		running := p.running
		p.mu.Unlock()
		r.mu.Lock()
		left := len(r.pollers)
		r.mu.Unlock()
		if left == 0 && !running {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the poller outlived its waits")
		}
	}
}

// A wait alone is read under its own context, so that its values reach the
// read.
func TestLoneWaitReadsUnderItsContext(t *testing.T) {
	type key struct{}
	got := make(chan any, 1)
	p := &Poller[item]{
		One: func(ctx context.Context, id string) (*item, error) {
			got <- ctx.Value(key{})
			return &item{id}, nil
		},
		ID: func(v *item) string { return v.id },
	}
	var r Registry
	ctx := context.WithValue(t.Context(), key{}, "mine")
	_, w := Join(&r, "scope", func() *Poller[item] { return p }, ctx, "a", Schedule{First: time.Millisecond, Longest: time.Millisecond, End: time.Now().Add(time.Minute)})
	<-w.C
	p.Leave(w)
	if v := <-got; v != "mine" {
		t.Errorf("the read's context carries %v, want the wait's value", v)
	}
}

// The wait schedule: each delay grows by a factor in [1.5, 2] from the
// minimum, and reaches the maximum within ten polls here (1.5^9 > 30).
func TestNextDelay(t *testing.T) {
	const lo, hi = 10 * time.Millisecond, 300 * time.Millisecond
	for range 200 {
		d, schedule := lo, []time.Duration{lo}
		for range 10 {
			next := NextDelay(d, hi)
			if next > hi || (next < hi && (next < d+d/2 || next > 2*d)) {
				t.Fatalf("after %v came %v, want in [%v, %v] capped at %v (schedule %v)", d, next, d+d/2, 2*d, hi, schedule)
			}
			d = next
			schedule = append(schedule, d)
		}
		if d != hi {
			t.Fatalf("schedule %v never reached the max %v", schedule, hi)
		}
	}
}
