// Package jsonscan reads the structure of a JSON document without decoding
// it and without allocating, for the checks that bound what a body may
// cost before it is decoded: how long its arrays are, how many objects a
// list holds, whether it may hold a key. It skips over strings with
// bytes.IndexByte, so a scan costs a small part of a decode. It does not
// validate: on data that is not JSON its answers are only wrong hints, and
// the decoder reports the syntax.
package jsonscan

import "bytes"

// LongerThan reports whether an array that opens at depth (the top-level
// value is depth 1) has more than limit elements.
func LongerThan(data []byte, depth, limit int) bool {
	// commas counts the separators of the array open at depth, if one is.
	d, commas, inArray := 0, 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch c {
		case '"':
			i = stringEnd(data, i)
			continue
		case '[', '{':
			d++ // an opening byte has the depth it opens
		case ']', '}', ',':
		default:
			continue
		}
		if d == depth {
			switch {
			case c == '[':
				inArray, commas = true, 0
			case c == ']' || c == '}':
				inArray = false
			case c == ',' && inArray:
				if commas++; commas >= limit {
					return true
				}
			}
		}
		if c == ']' || c == '}' {
			d-- // a closing byte has the depth it closes
		}
	}
	return false
}

// Survey returns how many objects are elements of the top-level array of
// data (the capacity a decoded list needs), and whether data may hold a
// string that encoding/json would match to the object key key (given in
// lower case). It counts objects, not elements, so that a body of bare
// numbers ([0,0,...]), which cannot decode into objects, does not make a
// large list by itself. A key matches one equal to it without regard to
// ASCII case, or any string with an escape, which the decoder matches
// after unescaping: it errs on the side of yes. It does not see Unicode
// case folding: the caller's key must have no letter with a non-ASCII fold
// (only k and s do, to U+212A and U+017F).
func Survey(data, key []byte) (objects int, mayHaveKey bool) {
	d, inArray := 0, false
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			end := stringEnd(data, i)
			s := data[i+1 : end]
			if bytes.IndexByte(s, '\\') >= 0 || len(s) == len(key) && bytes.EqualFold(s, key) {
				mayHaveKey = true
			}
			i = end
		case '[':
			if d++; d == 1 {
				inArray = true
			}
		case '{':
			if d++; d == 2 && inArray {
				objects++
			}
		case ']', '}':
			d--
		}
	}
	return objects, mayHaveKey
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
