package pipeline

import "sync/atomic"

// Budget is the client-wide token bucket that caps retries across all
// goroutines of a Client. A nil *Budget allows every retry.
type Budget struct {
	capacity int64
	tokens   atomic.Int64
}

// NewBudget returns a full budget of retries retries; nil for 0.
func NewBudget(retries int) *Budget {
	if retries <= 0 {
		return nil
	}
	b := &Budget{capacity: int64(retries) * RetryCost}
	b.tokens.Store(b.capacity)
	return b
}

// Available is what the budget holds, or -1 when it is off, for
// Policy.Decide.
func (b *Budget) Available() int64 {
	if b == nil {
		return -1
	}
	return b.tokens.Load()
}

// Take spends cost tokens, or reports false, spending nothing, when there
// are not enough (another goroutine took them since Available).
func (b *Budget) Take(cost int64) bool {
	if b == nil {
		return true
	}
	for {
		have := b.tokens.Load()
		if have < cost {
			return false
		}
		if b.tokens.CompareAndSwap(have, have-cost) {
			return true
		}
	}
}

// Give returns n tokens, up to the capacity.
func (b *Budget) Give(n int64) {
	if b == nil || n <= 0 {
		return
	}
	for {
		have := b.tokens.Load()
		if have >= b.capacity {
			return
		}
		if b.tokens.CompareAndSwap(have, min(have+n, b.capacity)) {
			return
		}
	}
}
