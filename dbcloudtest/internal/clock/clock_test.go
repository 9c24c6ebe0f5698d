package clock

import (
	"sync"
	"testing"
	"time"
)

func TestClockAdvanceConcurrent(t *testing.T) {
	epoch := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c := New(epoch, 0, false)
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			c.Advance(time.Second)
			_ = c.Now()
		})
	}
	wg.Wait()
	if got := c.Now(); !got.Equal(epoch.Add(10 * time.Second)) {
		t.Errorf("Now() = %v", got)
	}
}
