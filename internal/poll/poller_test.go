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

// A wait still handling a read when the next one starts is handed that
// read when it is done, not after its own delay: here a delay of an hour,
// so that without it the wait would see nothing more; with it, the read
// is in its channel as soon as Next returns. The test waits only on
// channels: the reads happen when it answers them.
func TestBusyWaitGetsTheReadItMissed(t *testing.T) {
	replies := make(chan []item)
	served := make(chan int, 2)
	p := &Poller[item]{
		All: func(ctx context.Context, serves []context.Context) ([]item, error) {
			served <- len(serves)
			select {
			case l := <-replies:
				return l, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		},
		ID:      func(v *item) string { return v.id },
		Missing: func(id string) error { return errors.New("missing " + id) },
	}
	var r Registry
	mk := func() *Poller[item] { return p }
	end := time.Now().Add(time.Hour)
	// a reads once, then not for an hour; b, joining later, every millisecond.
	_, wa := Join(&r, "p", mk, t.Context(), "a", Schedule{First: time.Hour, Longest: time.Hour, End: end})
	defer p.Leave(wa)
	<-served
	replies <- []item{{"a"}}
	if o := <-wa.C; o.Err != nil || o.Res.id != "a" {
		t.Fatalf("first read: %+v", o)
	}
	// a is busy with it: b's read is for b alone.
	_, wb := Join(&r, "p", mk, t.Context(), "b", Schedule{First: time.Millisecond, Longest: time.Millisecond, End: end})
	defer p.Leave(wb)
	if n := <-served; n != 0 {
		t.Fatalf("the read for b alone serves %d waits", n)
	}
	replies <- []item{{"a"}, {"b"}}
	if o := <-wb.C; o.Err != nil || o.Res.id != "b" {
		t.Fatalf("b's read: %+v", o)
	}
	// b stays busy, so no read follows; a, done, gets the read it missed.
	p.Next(wa, false)
	select {
	case o := <-wa.C:
		if o.Err != nil || o.Res.id != "a" {
			t.Fatalf("the missed read: %+v", o)
		}
	default:
		t.Fatal("a busy wait was not handed the read that started while it was busy")
	}
}
