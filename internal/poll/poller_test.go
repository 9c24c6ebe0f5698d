package poll

import (
	"context"
	"errors"
	"testing"
	"time"
)

type item struct{ id string }

// reads is a Reader of items whose All is all; its One, when not nil, is
// the Reader's One (readsOne).
type reads struct {
	all func(ctx context.Context, serves []context.Context) ([]item, error)
}

func (r reads) All(ctx context.Context, serves []context.Context) ([]item, error) {
	return r.all(ctx, serves)
}
func (reads) ID(v *item) string               { return v.id }
func (reads) Missing(id string) error         { return errors.New("missing " + id) }
func (reads) HoldFor(error) (d time.Duration) { return d }

// readsOne is reads with a One.
type readsOne struct {
	reads
	one func(ctx context.Context, id string) (*item, error)
}

func (r readsOne) One(ctx context.Context, id string) (*item, error) { return r.one(ctx, id) }

// No poller is left in the registry (nor its goroutine) once its last wait
// has ended.
func TestPollerEndsWithItsLastWait(t *testing.T) {
	rd := reads{all: func(context.Context, []context.Context) ([]item, error) { return []item{{"a"}, {"b"}}, nil }}
	var r Registry
	s := Schedule{First: time.Millisecond, Longest: time.Millisecond, End: time.Now().Add(time.Minute)}
	p, wa := Join(&r, "p", Reader[item](rd), t.Context(), "a", s)
	_, wb := Join(&r, "p", Reader[item](rd), t.Context(), "b", s)
	if oa, ob := <-wa.C, <-wb.C; oa.Res.id != "a" || ob.Res.id != "b" {
		t.Fatalf("got %v and %v", oa, ob)
	}
	p.Leave(wa)
	p.Leave(wb)
	waitEnded(t, p, &r)
}

// waitEnded waits until p's loop has ended and, when r is not nil, p is no
// longer in it.
func waitEnded(t *testing.T, p *Poller[item], r *Registry) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		p.mu.Lock()
		running := p.running
		p.mu.Unlock()
		left := 0
		if r != nil {
			r.mu.Lock()
			left = len(r.pollers)
			r.mu.Unlock()
		}
		if left == 0 && !running {
			return
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
	rd := readsOne{one: func(ctx context.Context, id string) (*item, error) {
		got <- ctx.Value(key{})
		return &item{id}, nil
	}}
	var r Registry
	ctx := context.WithValue(t.Context(), key{}, "mine")
	p, w := Join(&r, "scope", Reader[item](rd), ctx, "a", Schedule{First: time.Millisecond, Longest: time.Millisecond, End: time.Now().Add(time.Minute)})
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
	p, served, replies := scripted()
	end := time.Now().Add(time.Hour)
	// a reads once, then not for an hour; b, joining later, every millisecond.
	wa := p.Join(t.Context(), "a", Schedule{First: time.Hour, Longest: time.Hour, End: end})
	<-served
	replies <- []item{{"a"}}
	if o := <-wa.C; o.Err != nil || o.Res.id != "a" {
		t.Fatalf("first read: %+v", o)
	}
	// a is busy with it: b's read is for b alone.
	wb := p.Join(t.Context(), "b", Schedule{First: time.Millisecond, Longest: time.Millisecond, End: end})
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
	leaveAll(t, p, wa, wb)
}

// scripted is a private Poller whose reads are answered by the test: each
// read sends the number of waits it serves on served (0 for a wait alone),
// then returns the next list of replies.
func scripted() (p *Poller[item], served chan int, replies chan []item) {
	served, replies = make(chan int, 4), make(chan []item)
	p = New[item](reads{all: func(ctx context.Context, serves []context.Context) ([]item, error) {
		served <- len(serves)
		select {
		case l := <-replies:
			return l, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}})
	return p, served, replies
}

// within returns what c sends, failing the test if nothing comes within a
// bound far above what the event takes (microseconds) and far below the
// hour after which a poller that holds the read back would send it.
func within[V any](t *testing.T, c <-chan V, what string) V {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("waited 10s for %s", what)
		panic("unreachable")
	}
}

// leaveAll ends the waits and waits for the poller's loop to end.
func leaveAll(t *testing.T, p *Poller[item], ws ...*Waiter[item]) {
	t.Helper()
	for _, w := range ws {
		p.Leave(w)
	}
	waitEnded(t, p, nil)
}

// A wait that joins just after a read is read when it is due, as it would
// be alone, not a first interval (an hour here) after that read; and the
// wait already served, idle until its next delay, shares that read.
func TestJoinAfterAReadIsReadWhenDue(t *testing.T) {
	p, served, replies := scripted()
	hour := Schedule{First: time.Hour, Longest: time.Hour, End: time.Now().Add(2 * time.Hour)}
	wa := p.Join(t.Context(), "a", hour)
	within(t, served, "first read")
	replies <- []item{{"a"}}
	if o := within(t, wa.C, "a's read"); o.Err != nil || o.Res.id != "a" {
		t.Fatalf("a's read: %+v", o)
	}
	p.Next(wa, false) // a is due again in an hour
	wb := p.Join(t.Context(), "b", hour)
	if n := within(t, served, "b's first read"); n != 2 {
		t.Errorf("b's first read serves %d waits, want a and b", n)
	}
	replies <- []item{{"a"}, {"b"}}
	for _, w := range []*Waiter[item]{wa, wb} {
		if o := within(t, w.C, w.id+"'s read"); o.Err != nil || o.Res.id != w.id {
			t.Errorf("%s's read: %+v", w.id, o)
		}
	}
	leaveAll(t, p, wa, wb)
}

// Waits that join while a read is in flight are not handed it (it may
// predate their caller's change): they share the next read, which starts
// as soon as that one ends, since they are due, not a first interval
// later.
func TestWaitsJoiningDuringAReadShareTheNext(t *testing.T) {
	p, served, replies := scripted()
	hour := Schedule{First: time.Hour, Longest: time.Hour, End: time.Now().Add(2 * time.Hour)}
	wa := p.Join(t.Context(), "a", hour)
	within(t, served, "first read")
	wb := p.Join(t.Context(), "b", hour)
	wc := p.Join(t.Context(), "c", hour)
	replies <- []item{{"a"}, {"b"}, {"c"}}
	if o := within(t, wa.C, "a's read"); o.Err != nil || o.Res.id != "a" {
		t.Fatalf("a's read: %+v", o)
	}
	if n := within(t, served, "the read for b and c"); n != 2 {
		t.Errorf("the read after the one b and c joined during serves %d waits, want 2", n)
	}
	for _, w := range []*Waiter[item]{wb, wc} {
		select {
		case o := <-w.C:
			t.Fatalf("%s was handed a read that started before it joined: %+v", w.id, o)
		default:
		}
	}
	replies <- []item{{"b"}, {"c"}}
	for _, w := range []*Waiter[item]{wb, wc} {
		if o := within(t, w.C, w.id+"'s read"); o.Err != nil || o.Res.id != w.id {
			t.Errorf("%s's read: %+v", w.id, o)
		}
	}
	leaveAll(t, p, wa, wb, wc)
}
