package dbcloud

import (
	"bytes"
	"fmt"
)

// A scan of a JSON document's structure that allocates nothing, for the
// checks that bound what a body may cost before it is decoded: the logs
// page's length and the count of a list's elements.

// checkArrayLens returns an error when an array that opens at depth (the
// top-level value is depth 1) has more than limit elements. It allocates
// nothing and skips over strings with bytes.IndexByte, so it costs a small
// part of the decoding; on data that is not JSON it returns nil or an error,
// and the decoder reports the syntax.
func checkArrayLens(data []byte, depth, limit int) error {
	// commas counts the separators of the array open at depth, if one is.
	commas, inArray := 0, false
	var err error
	structure(data, func(c byte, d int) bool {
		switch {
		case d != depth:
		case c == '[':
			inArray, commas = true, 0
		case c == ']' || c == '}':
			inArray = false
		case c == ',' && inArray:
			if commas++; commas >= limit {
				err = fmt.Errorf("a page holds more than %d entries, the most the API sends", limit)
				return false
			}
		}
		return true
	})
	return err
}

// structure calls visit with each byte of data that opens, closes or
// separates outside strings ('[', '{', ']', '}', ','), and its depth (the
// top-level value is depth 1): the depth an opening byte opens, the depth a
// closing one closes, the depth of a comma's container. It stops when visit
// returns false. It allocates nothing and skips over strings with
// bytes.IndexByte; it does not validate.
func structure(data []byte, visit func(c byte, depth int) bool) {
	d := 0
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch c {
		case '"':
			i = stringEnd(data, i)
			continue
		case '[', '{':
			d++
		case ']', '}', ',':
		default:
			continue
		}
		if !visit(c, d) {
			return
		}
		if c == ']' || c == '}' {
			d--
		}
	}
}

// stringEnd returns the index of the quote that closes the string opening
// at data[start], or len(data) when none does.
func stringEnd(data []byte, start int) int {
	for j := start + 1; ; j++ {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			return len(data)
		}
		j += k
		backslashes := 0
		for p := j - 1; p > start && data[p] == '\\'; p-- {
			backslashes++
		}
		if backslashes%2 == 0 {
			return j
		}
	}
}
