package dbcloud

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
)

// decodeAnswer decodes a 2xx body into out and completes it. An empty or
// null body where a value is expected is an error like a malformed one.
func decodeAnswer(data []byte, out any) error {
	if trimmed := bytes.TrimSpace(data); len(trimmed) == 0 || string(trimmed) == "null" {
		return errors.New("empty body")
	}
	if c, ok := out.(prechecker); ok {
		if err := c.precheck(data); err != nil {
			return err
		}
	}
	var err error
	if d, ok := out.(selfDecoder); ok {
		err = d.decode(data)
	} else {
		err = decodeJSON(data, out)
	}
	if err != nil {
		return err
	}
	if f, ok := out.(finisher); ok {
		return f.finish()
	}
	return nil
}

// prechecker is a wire type that looks at a body before it is decoded, to
// refuse one whose decoding would cost more than the API ever sends.
type prechecker interface{ precheck(data []byte) error }

// selfDecoder is a wire type that decodes itself from a body, where
// encoding/json alone would take memory out of proportion to the body
// (serviceListJSON).
type selfDecoder interface{ decode(data []byte) error }

// decodeJSON decodes data into out, accepting 4, 4.0 and "4" for the numeric
// fields of numericKeys.
//
// The strict decode runs first because almost every response is well typed:
// it costs one pass and no allocation beyond the result. Only when a value
// does not fit its Go type does the tolerant path rewrite the document, which
// keeps the public types plain structs with no custom decoding of their own.
func decodeJSON(data []byte, out any) error {
	err := json.Unmarshal(data, out)
	if err == nil {
		return nil // before errors.AsType: no allocation on success
	}
	if _, ok := errors.AsType[*json.UnmarshalTypeError](err); !ok {
		return err
	}
	fixed, changed := rewriteNumbers(data)
	if !changed {
		return err
	}
	reflect.ValueOf(out).Elem().SetZero() // drop what the failed attempt half-filled
	return json.Unmarshal(fixed, out)
}
