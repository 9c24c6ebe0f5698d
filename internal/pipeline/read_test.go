package pipeline

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadAtMost(t *testing.T) {
	const limit = 10000
	boom := errors.New("boom")
	for _, tt := range []struct {
		name    string
		r       io.Reader
		wantLen int
		wantErr error
	}{
		{"empty", strings.NewReader(""), 0, nil},
		{"small", strings.NewReader("abc"), 3, nil},
		{"exactly the limit", bytes.NewReader(make([]byte, limit)), limit, nil},
		{"exactly the limit, one byte a read", iotest.OneByteReader(bytes.NewReader(make([]byte, limit))), limit, nil},
		{"one byte over", bytes.NewReader(make([]byte, limit+1)), limit, ErrTooLarge},
		{"far over", bytes.NewReader(make([]byte, 5*limit)), limit, ErrTooLarge},
		{"error mid-way", io.MultiReader(strings.NewReader("abc"), iotest.ErrReader(boom)), 3, boom},
		{"error at the limit", io.MultiReader(bytes.NewReader(make([]byte, limit)), iotest.ErrReader(boom)), limit, boom},
	} {
		got, err := readAtMost(tt.r, limit, ErrTooLarge)
		if len(got) != tt.wantLen || !errors.Is(err, tt.wantErr) || (tt.wantErr == nil) != (err == nil) {
			t.Errorf("%s: %d bytes, %v; want %d, %v", tt.name, len(got), err, tt.wantLen, tt.wantErr)
		}
	}
}
