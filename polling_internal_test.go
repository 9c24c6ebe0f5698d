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
