package logwalk

import (
	"encoding/binary"
	"hash/maphash"
	"time"
)

// Cycles tells when the requests of a walk repeat: a server that answers a
// request with a cursor leading back to a request already made would make
// the walk loop forever.
//
// It keeps two requests, whatever the walk's length (Brent's cycle
// detection): the one just before, so that a server handing back the
// cursor it was given is caught at once, and a mark moved to the current
// request each time the count since the last move reaches a doubling
// power. A walk whose requests run through d distinct ones and then cycle
// is caught before it sends its 3d-th request (see Seen). Requests are
// compared by a 64-bit hash of cursor and window: 16 bytes, not the
// cursors, which a server may make as long as it likes.
//
// The zero value is ready to use.
type Cycles struct {
	seed       maphash.Seed
	mark, last uint64 // hashes of the marked request and of the previous one
	n          int    // requests seen
	power, lam int    // the current phase's length, and how far into it
}

// Seen records the request that reads cursor within the window ending at
// until (zero: none), and reports whether it repeats the previous request
// or the marked one: the walk cycles, and the request must not be sent.
//
// With d distinct requests before the cycle closes (μ before the cycle and
// λ in it, d = μ+λ), Seen reports the repeat at the latest at request
// number 2^k - 1 + λ (counting from 0), where 2^k is the smallest power of
// two at least max(μ+1, λ): fewer than 2·max(μ+1, λ) + λ ≤ 3d requests are
// sent. It never reports a request that was not made before.
func (c *Cycles) Seen(cursor string, until time.Time) bool {
	if c.n == 0 {
		c.seed = maphash.MakeSeed()
	}
	k := c.key(cursor, until)
	c.n++
	if c.n == 1 {
		c.mark, c.last, c.power = k, k, 1
		return false
	}
	if k == c.mark || k == c.last {
		return true
	}
	c.last = k
	if c.lam++; c.lam == c.power {
		c.mark, c.power, c.lam = k, 2*c.power, 0
	}
	return false
}

// key hashes what identifies a request: the cursor and the window.
func (c *Cycles) key(cursor string, until time.Time) uint64 {
	var h maphash.Hash
	h.SetSeed(c.seed)
	var b [9]byte
	if !until.IsZero() {
		b[0] = 1
		binary.BigEndian.PutUint64(b[1:], uint64(until.UnixNano()))
	}
	_, _ = h.Write(b[:])
	_, _ = h.WriteString(cursor)
	return h.Sum64()
}
