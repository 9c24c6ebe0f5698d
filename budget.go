package dbcloud

import "sync/atomic"

// Costs of the retry budget, in tokens, as in the AWS SDK v2's retry quota:
// a retry costs retryCost, a retry after a timeout (which held a connection
// and may mean an overloaded server) timeoutCost, and a call that succeeds
// on its first attempt earns successGain. A call that succeeds after retries
// gives back what they cost.
const (
	retryCost   = 5
	timeoutCost = 10
	successGain = 1
)

// retryBudget is the client-wide token bucket that caps retries across all
// goroutines of a Client. A nil *retryBudget allows every retry.
type retryBudget struct {
	capacity int64
	tokens   atomic.Int64
}

// newRetryBudget returns a full budget of retries retries; nil for 0.
func newRetryBudget(retries int) *retryBudget {
	if retries <= 0 {
		return nil
	}
	b := &retryBudget{capacity: int64(retries) * retryCost}
	b.tokens.Store(b.capacity)
	return b
}

// take spends cost tokens, or reports false, spending nothing, when there
// are not enough.
func (b *retryBudget) take(cost int64) bool {
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

// give returns n tokens, up to the capacity.
func (b *retryBudget) give(n int64) {
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
