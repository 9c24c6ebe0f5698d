// Package jsonnum makes a JSON document's numbers fit the integers a
// decoder wants: real servers send some numeric fields as "4" or 4.0. The
// caller decodes strictly first and, when a value does not fit its Go
// type, rewrites the document with the fields it names as plain integers
// (Rewrite) and decodes again. It knows no field of any API: the caller
// names them.
package jsonnum

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"strings"
)

// frame is an object or array being copied by Rewrite.
type frame struct {
	object  bool
	n       int    // members or elements copied so far
	key     string // an object's current member
	inValue bool   // between a member's key and the end of its value
}

// Rewrite copies a JSON document token by token, in its original order
// (duplicate and case-variant keys keep their meaning), writing the value
// of each member whose key is in numeric that is a numeric string or a
// non-integer number as the nearest integer. It reports whether it changed
// anything; a document that is not JSON is not changed.
func Rewrite(data []byte, numeric map[string]bool) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	out := make([]byte, 0, len(data))
	var stack []frame
	changed := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out, changed
		}
		if err != nil {
			return nil, false
		}
		var top *frame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		if top != nil && tok != json.Delim('}') && tok != json.Delim(']') {
			if top.n > 0 && !top.inValue {
				out = append(out, ',')
			}
			if top.object && !top.inValue {
				top.n++
				top.key, _ = tok.(string)
				top.inValue = true
				out = appendJSON(out, top.key)
				out = append(out, ':')
				continue
			}
			if !top.object {
				top.n++
			}
		}
		isNumeric := top != nil && top.object && numeric[top.key]
		switch v := tok.(type) {
		case json.Delim:
			if v == '{' || v == '[' {
				stack = append(stack, frame{object: v == '{'})
				out = append(out, byte(v))
				continue // the parent's value ends with this container
			}
			stack = stack[:len(stack)-1]
			out = append(out, byte(v))
		case string:
			if n, ok := asInteger(strings.TrimSpace(v)); isNumeric && ok {
				out, changed = append(out, n...), true
			} else {
				out = appendJSON(out, v)
			}
		case json.Number:
			if n, ok := asInteger(string(v)); isNumeric && ok && n != string(v) {
				out, changed = append(out, n...), true
			} else {
				out = append(out, v...)
			}
		default: // bool or nil
			out = appendJSON(out, v)
		}
		if len(stack) > 0 {
			stack[len(stack)-1].inValue = false
		}
	}
}

func appendJSON(out []byte, v any) []byte {
	b, _ := json.Marshal(v) // a string, bool or nil cannot fail
	return append(out, b...)
}

// maxExponent bounds the exponents asInteger reads: a hostile 1e999999999
// must not cost anything.
const maxExponent = 1000

// asInteger reads a decimal number (sign, digits, fraction, exponent) and
// returns the nearest integer, halves away from zero, as canonical digits.
// It works on the digits, not through float64, which would be wrong past
// 2^53: "9007199254740993.0" is 9007199254740993. Fractional values are
// rounded rather than refused: the API's sizes are integers, and a server
// sending 0.5 should not make a whole List fail.
func asInteger(s string) (string, bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	mantissa, exponent, hasExp := strings.Cut(strings.ToLower(s), "e")
	exp := 0
	if hasExp {
		e, err := strconv.Atoi(exponent)
		if err != nil || e < -maxExponent || e > maxExponent {
			return "", false
		}
		exp = e
	}
	whole, fraction, _ := strings.Cut(mantissa, ".")
	digits := whole + fraction
	if digits == "" || strings.ContainsFunc(digits, func(r rune) bool { return r < '0' || r > '9' }) {
		return "", false
	}
	point := len(whole) + exp // where the decimal point falls in digits
	trimmed := strings.TrimLeft(digits, "0")
	point -= len(digits) - len(trimmed)
	digits = trimmed
	var intDigits string
	roundUp := false
	switch {
	case digits == "" || point < 0:
		intDigits = "0"
	case point == 0:
		intDigits, roundUp = "0", digits[0] >= '5'
	case point < len(digits):
		intDigits, roundUp = digits[:point], digits[point] >= '5'
	case point-len(digits) > 19:
		return "", false // beyond int64
	default:
		intDigits = digits + strings.Repeat("0", point-len(digits))
	}
	n, err := strconv.ParseInt(intDigits, 10, 64)
	if err != nil || (roundUp && n == math.MaxInt64) {
		return "", false
	}
	if roundUp {
		n++
	}
	if neg {
		n = -n
	}
	return strconv.FormatInt(n, 10), true
}
