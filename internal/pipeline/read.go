package pipeline

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Body size bounds: a runaway or hostile answer ends in an error, never in
// memory exhaustion.
const (
	MaxSuccessBody = 32 << 20
	MaxErrorBody   = 1 << 20
	// maxDrain is how much of an unread body is read so the connection can
	// be reused; past it, closing the connection is cheaper.
	maxDrain = 64 << 10
)

// ErrTooLarge is the failure of a body over its size bound.
var ErrTooLarge = errors.New("response body too large")

// readBody reads a body of at most limit bytes, in one allocation when the
// length is announced; one over the bound fails with tooLarge.
func readBody(r io.Reader, length, limit int64, tooLarge error) ([]byte, error) {
	if length > limit {
		return nil, fmt.Errorf("%w: %d bytes announced, the bound is %d", tooLarge, length, limit)
	}
	if length > 0 {
		buf := make([]byte, length)
		n, err := io.ReadFull(r, buf)
		if err != nil {
			return buf[:n], fmt.Errorf("body cut off after %d of %d bytes: %w", n, length, err)
		}
		return buf, nil
	}
	return readAtMost(r, limit, tooLarge)
}

// readAtMost reads r to its end, failing past limit bytes. It doubles its
// buffer up to limit and then probes one byte, so a runaway body costs about
// twice the bound in allocations; io.ReadAll grows large slices by a
// quarter, which would cost about five times.
func readAtMost(r io.Reader, limit int64, tooLarge error) ([]byte, error) {
	buf := make([]byte, 0, min(4096, limit))
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) >= limit {
				var probe [1]byte
				switch _, err := io.ReadFull(r, probe[:]); err {
				case io.EOF:
					return buf, nil
				case nil:
					return buf, fmt.Errorf("%w: over %d bytes", tooLarge, limit)
				default:
					return buf, err
				}
			}
			grown := make([]byte, len(buf), min(2*int64(cap(buf)), limit))
			copy(grown, buf)
			buf = grown
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// closeBody drains a little of what is left, so the connection returns to
// the pool, and closes.
func closeBody(b io.ReadCloser) {
	if b == http.NoBody {
		return // read already: nothing to drain or close
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(b, maxDrain))
	_ = b.Close()
}

// MaxRetryAfter bounds a parsed Retry-After so absurd values cannot overflow.
const MaxRetryAfter = 365 * 24 * time.Hour

// ParseRetryAfter reads Retry-After as delay-seconds or an HTTP date.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > int64(MaxRetryAfter/time.Second) {
			return MaxRetryAfter, true
		}
		return time.Duration(secs) * time.Second, true
	}
	at, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return min(max(at.Sub(now), 0), MaxRetryAfter), true
}
