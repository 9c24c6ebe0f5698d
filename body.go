package dbcloud

import (
	"fmt"
	"io"
	"net/http"
	"reflect"
)

// Body size bounds: a runaway or hostile response ends in an error, never in
// memory exhaustion.
const (
	maxSuccessBody = 32 << 20
	maxErrorBody   = 1 << 20
	// maxDrain is how much of an unread body is read so the connection can be
	// reused; past it, closing the connection is cheaper.
	maxDrain = 64 << 10
)

// receive reads a 2xx response's body, leaving the response with an empty
// one, and decodes it into x.out. It reports a body that cannot be used.
func (x *exchange) receive(resp *http.Response) error {
	data, err := readBody(resp.Body, resp.ContentLength, maxSuccessBody)
	_ = resp.Body.Close()
	resp.Body = http.NoBody
	if x.out == nil {
		return nil // the status is the answer; a body, whole or not, adds nothing
	}
	if x.attempts > 1 {
		reflect.ValueOf(x.out).Elem().SetZero() // what an earlier attempt half-filled
	}
	if err != nil {
		return err
	}
	return decodeAnswer(data, x.out)
}

// readBody reads a body of at most limit bytes, in one allocation when the
// length is announced.
func readBody(r io.Reader, length, limit int64) ([]byte, error) {
	if length > limit {
		return nil, fmt.Errorf("%w: %d bytes announced, the bound is %d", ErrResponseTooLarge, length, limit)
	}
	if length > 0 {
		buf := make([]byte, length)
		n, err := io.ReadFull(r, buf)
		if err != nil {
			return buf[:n], fmt.Errorf("body cut off after %d of %d bytes: %w", n, length, err)
		}
		return buf, nil
	}
	return readAtMost(r, limit)
}

// readAtMost reads r to its end, failing past limit bytes. It doubles its
// buffer up to limit and then probes one byte, so a runaway body costs about
// twice the bound in allocations; io.ReadAll grows large slices by a
// quarter, which would cost about five times.
func readAtMost(r io.Reader, limit int64) ([]byte, error) {
	buf := make([]byte, 0, min(4096, limit))
	for {
		if len(buf) == cap(buf) {
			if int64(len(buf)) >= limit {
				var probe [1]byte
				switch _, err := io.ReadFull(r, probe[:]); err {
				case io.EOF:
					return buf, nil
				case nil:
					return buf, fmt.Errorf("%w: over %d bytes", ErrResponseTooLarge, limit)
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
		return // receive has read it: nothing to drain or close
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(b, maxDrain))
	_ = b.Close()
}
