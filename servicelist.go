package dbcloud

import (
	"bytes"
	"fmt"
)

// serviceListJSON is a list of services as it arrives on the wire. It
// decodes itself so that a list takes memory in proportion to its bytes: a
// 2 MiB list of minimal services ({"service_id":"s1"}, 20 bytes, each a
// 240-byte Service) would otherwise hold the decoder's grown slice of
// serviceJSON and then a copy of it as []Service, some 47 times the body.
// Here the slice is made once at its final length, and decoded into
// directly as []Service unless an element may carry the deprecated
// vpcEndpoint, which only serviceJSON catches.
type serviceListJSON struct{ services []Service }

// legacyVPCKey is serviceJSON's deprecated key, folded to lower case.
var legacyVPCKey = []byte("vpcendpoint")

func (l *serviceListJSON) decode(data []byte) error {
	n := countArrayObjects(data)
	if !mayHaveKey(data, legacyVPCKey) {
		l.services = make([]Service, 0, n)
		if err := decodeJSON(data, &l.services); err != nil {
			return err
		}
		for i := range l.services {
			if err := finishService(&l.services[i]); err != nil {
				return fmt.Errorf("element %d: %w", i, err)
			}
		}
		return nil
	}
	ws := make([]serviceJSON, 0, n)
	if err := decodeJSON(data, &ws); err != nil {
		return err
	}
	if err := finishAll(ws); err != nil {
		return err
	}
	l.services = make([]Service, len(ws))
	for i := range ws {
		l.services[i] = *ws[i].service()
	}
	return nil
}

// countArrayObjects returns how many objects are elements of the top-level
// array of data: the capacity the decoded list needs. It counts objects, not
// elements, so that a body of bare numbers ([0,0,...]), which cannot decode
// into services, does not make a large slice by itself. It does not
// validate: on data that is not JSON its count is only a wrong hint, and
// the decoder reports the syntax.
func countArrayObjects(data []byte) int {
	n, inArray := 0, false
	structure(data, func(c byte, d int) bool {
		switch {
		case d == 1 && c == '[':
			inArray = true
		case d == 2 && c == '{' && inArray:
			n++
		}
		return true
	})
	return n
}

// mayHaveKey reports whether data may hold a string that encoding/json
// would match to the object key key (given in lower case): one equal to it
// without regard to ASCII case, or any string with an escape, which the
// decoder matches after unescaping. It errs on the side of yes. It does not
// see Unicode case folding: none of the letters of the keys it is given
// (vpcendpoint) has a non-ASCII fold (only k and s do, to U+212A and
// U+017F).
func mayHaveKey(data, key []byte) bool {
	for i := 0; i < len(data); {
		j := bytes.IndexByte(data[i:], '"')
		if j < 0 {
			return false
		}
		start := i + j
		end := stringEnd(data, start)
		s := data[start+1 : end]
		if bytes.IndexByte(s, '\\') >= 0 || len(s) == len(key) && bytes.EqualFold(s, key) {
			return true
		}
		i = end + 1
	}
	return false
}
