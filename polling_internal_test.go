package dbcloud

import (
	"context"
	"testing"
	"time"
)

// A wait whose context has no deadline gets DefaultWaitTimeout; a deadline
// on the context or WithWaitTimeout replaces it. setTimes is where a wait's
// end is decided; runWait and WaitForAll end their context then.
func TestWaitDefaultTimeout(t *testing.T) {
	t.Parallel()
	near := func(t *testing.T, cfg waitConfig, ctx context.Context, want time.Duration) {
		t.Helper()
		cfg.setTimes(ctx)
		if got := time.Until(cfg.end); got > want || got < want-time.Minute {
			t.Errorf("the wait ends in %v, want about %v", got, want)
		}
	}
	api := &caller{pollFirst: DefaultPollMin, pollLongest: DefaultPollMax}
	cfg, err := api.newWaitConfig(nil)
	if err != nil {
		t.Fatal(err)
	}
	near(t, cfg, context.Background(), DefaultWaitTimeout)

	short, cancelShort := context.WithTimeout(context.Background(), 2*time.Hour)
	defer cancelShort()
	near(t, cfg, short, 2*time.Hour)

	if cfg, err = api.newWaitConfig([]WaitOption{WithWaitTimeout(5 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	near(t, cfg, context.Background(), 5*time.Minute)
}
