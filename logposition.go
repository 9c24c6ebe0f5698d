package dbcloud

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"maps"
	"slices"
	"strings"
	"time"
)

// LogPosition is a place in a service's log, just after an entry, to
// resume at with no entry missed or repeated, also after a restart (store
// it with String, read it with ParseLogPosition). It holds the newest
// timestamp consumed and a 64-bit hash (severity, message) count of that
// instant's entries: 28 characters of text, 12 more per further distinct
// line. Advance it as each entry is done with, oldest first:
//
//	var pos dbcloud.LogPosition
//	for entry, err := range client.Services.FollowLogs(ctx, projectID, serviceID, &dbcloud.LogOptions{After: &pos}) {
//		...
//		handle(entry)
//		pos.Advance(entry)
//		save(pos.String())
//	}
//
// The zero value is the log's beginning. Not safe for concurrent use;
// FollowLogs copies the one it is given.
type LogPosition struct {
	at   time.Time
	seen map[uint64]uint32 // entries at exactly at, consumed
}

// Advance moves the position past e: a newer entry starts a new instant, one
// at the position's instant is counted, an older one changes nothing.
func (p *LogPosition) Advance(e LogEntry) {
	switch {
	case p.seen != nil && e.Timestamp.Before(p.at):
		return
	case p.seen != nil && e.Timestamp.Equal(p.at):
		p.seen[entryHash(e)]++
	default:
		p.at = e.Timestamp
		p.seen = map[uint64]uint32{entryHash(e): 1}
	}
}

// IsZero reports the beginning of the log: nothing consumed yet.
func (p *LogPosition) IsZero() bool { return p == nil || p.seen == nil }

// Time returns the timestamp of the newest entry consumed, or the zero time.
func (p *LogPosition) Time() time.Time {
	if p == nil {
		return time.Time{}
	}
	return p.at
}

// Clone returns an independent copy of p.
func (p *LogPosition) Clone() *LogPosition {
	if p == nil {
		return &LogPosition{}
	}
	return &LogPosition{at: p.at, seen: maps.Clone(p.seen)}
}

// logPositionPrefix versions the text form.
const logPositionPrefix = "lp1."

// maxLogPositionText bounds the text ParseLogPosition reads.
const maxLogPositionText = 1 << 20

// MarshalText encodes the position as printable text ("lp1." and base64):
// store it in a file, a database or a flag; as a struct field, encoding/json
// writes it as that string. A zero position encodes as "".
func (p LogPosition) MarshalText() ([]byte, error) {
	if p.seen == nil {
		return []byte{}, nil
	}
	buf := binary.BigEndian.AppendUint64(nil, uint64(p.at.UnixNano()))
	keys := slices.Sorted(maps.Keys(p.seen)) // one position, one text
	buf = binary.AppendUvarint(buf, uint64(len(keys)))
	for _, k := range keys {
		buf = binary.BigEndian.AppendUint64(buf, k)
		buf = binary.AppendUvarint(buf, uint64(p.seen[k]))
	}
	out := make([]byte, len(logPositionPrefix)+base64.RawURLEncoding.EncodedLen(len(buf)))
	copy(out, logPositionPrefix)
	base64.RawURLEncoding.Encode(out[len(logPositionPrefix):], buf)
	return out, nil
}

// String returns the text of MarshalText. A position holds no secret: only
// a time and hashes.
func (p LogPosition) String() string {
	b, _ := p.MarshalText()
	return string(b)
}

// ErrBadLogPosition matches the error of a text that is not a LogPosition.
var ErrBadLogPosition = errors.New("dbcloud: not a log position")

// UnmarshalText reads a position written by MarshalText; "" is the zero
// position.
func (p *LogPosition) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*p = LogPosition{}
		return nil
	}
	s, ok := strings.CutPrefix(string(text), logPositionPrefix)
	if !ok || len(text) > maxLogPositionText {
		return ErrBadLogPosition
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(raw) < 8 {
		return ErrBadLogPosition
	}
	at := time.Unix(0, int64(binary.BigEndian.Uint64(raw))).UTC()
	raw = raw[8:]
	n, k := binary.Uvarint(raw)
	if k <= 0 || n == 0 || n > uint64(len(raw)) {
		return ErrBadLogPosition
	}
	raw = raw[k:]
	seen := make(map[uint64]uint32, n)
	for range n {
		if len(raw) < 9 {
			return ErrBadLogPosition
		}
		h := binary.BigEndian.Uint64(raw)
		c, k := binary.Uvarint(raw[8:])
		if k <= 0 || c == 0 || c > 1<<32-1 {
			return ErrBadLogPosition
		}
		seen[h] = uint32(c)
		raw = raw[8+k:]
	}
	if len(raw) != 0 {
		return ErrBadLogPosition
	}
	*p = LogPosition{at: at, seen: seen}
	return nil
}

// ParseLogPosition reads a position stored with String or MarshalText.
func ParseLogPosition(s string) (*LogPosition, error) {
	p := new(LogPosition)
	if err := p.UnmarshalText([]byte(s)); err != nil {
		return nil, err
	}
	return p, nil
}

// entryHash identifies an entry within its instant: the node is not on the
// wire, so severity and message are all there is. FNV-1a is stable across
// processes, which a stored position needs.
func entryHash(e LogEntry) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i := 0; i < len(e.Severity); i++ {
		h = (h ^ uint64(e.Severity[i])) * prime
	}
	h *= prime // a 0 byte between the two: "A"+"BC" is not "AB"+"C"
	for i := 0; i < len(e.Message); i++ {
		h = (h ^ uint64(e.Message[i])) * prime
	}
	return h
}
