package dbcloud

import (
	"context"
	"testing"
	"time"
)

// A wait whose context has no deadline gets DefaultWaitTimeout; a deadline
// on the context or WithWaitTimeout replaces it.
func TestWaitDefaultTimeout(t *testing.T) {
	near := func(t *testing.T, ctx context.Context, want time.Duration) {
		t.Helper()
		dl, ok := ctx.Deadline()
		if got := time.Until(dl); !ok || got > want || got < want-time.Minute {
			t.Errorf("deadline in %v (set %v), want about %v", got, ok, want)
		}
	}
	api := &caller{pollFirst: DefaultPollMin, pollLongest: DefaultPollMax}
	cfg, err := api.newWaitConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := cfg.bound(context.Background())
	defer cancel()
	near(t, ctx, DefaultWaitTimeout)

	short, cancelShort := context.WithTimeout(context.Background(), 2*time.Hour)
	defer cancelShort()
	ctx, cancel = cfg.bound(short)
	defer cancel()
	near(t, ctx, 2*time.Hour)

	if cfg, err = api.newWaitConfig([]WaitOption{WithWaitTimeout(5 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel = cfg.bound(context.Background())
	defer cancel()
	near(t, ctx, 5*time.Minute)
}

// No poller is left in the registry (nor its goroutine) once its last wait
// has ended.
func TestPollerEndsWithItsLastWait(t *testing.T) {
	p := newPoller[Service]()
	reads := make(chan struct{}, 100)
	p.all = func(ctx context.Context) ([]Service, error) {
		reads <- struct{}{}
		return []Service{{ServiceID: "a"}, {ServiceID: "b"}}, nil
	}
	p.idOf = func(v *Service) string { return v.ServiceID }
	p.notFound = func(string) error { return ErrNotFound }
	key := pollerKey{client: t, project: "p"}
	mk := func() *poller[Service] { return p }
	_, wa := join(key, mk, "a", time.Millisecond, time.Millisecond, 0, time.Now().Add(time.Minute))
	_, wb := join(key, mk, "b", time.Millisecond, time.Millisecond, 0, time.Now().Add(time.Minute))
	if oa, ob := <-wa.ch, <-wb.ch; oa.res.ServiceID != "a" || ob.res.ServiceID != "b" {
		t.Fatalf("got %v and %v", oa, ob)
	}
	if len(reads) != 1 {
		t.Errorf("%d reads for two waits, want one List", len(reads))
	}
	p.leave(wa)
	p.leave(wb)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		pollersMu.Lock()
		_, left := pollers[key]
		pollersMu.Unlock()
		p.mu.Lock()
		running := p.running
		p.mu.Unlock()
		if !left && !running {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the poller outlived its waits")
		}
	}
}
