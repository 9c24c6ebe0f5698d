package dbcloud

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// numericKeys are the response fields SPEC.md types as numbers. Real servers
// send some of them as "4" or 4.0; decodeJSON rewrites those to plain integers.
var numericKeys = map[string]bool{
	"cpu_millis": true, "memory_gbs": true, "port": true, "nodes": true,
	"replica_count": true, "sync_replica_count": true,
	"memory_mb": true, "milli_cpu": true, "storage_mb": true,
}

// decodeJSON decodes data into out, accepting 4, 4.0 and "4" for the numeric
// fields of numericKeys.
//
// The strict decode runs first because almost every response is well typed:
// it costs one pass and no allocation beyond the result. Only when a value
// does not fit its Go type does the tolerant path rewrite the document, which
// keeps the public types plain structs with no custom decoding of their own.
func decodeJSON(data []byte, out any) error {
	err := json.Unmarshal(data, out)
	var typeErr *json.UnmarshalTypeError
	if err == nil || !errors.As(err, &typeErr) {
		return err
	}
	var doc any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if dec.Decode(&doc) != nil {
		return err
	}
	if !normalizeNumbers(doc) {
		return err
	}
	fixed, mErr := json.Marshal(doc)
	if mErr != nil {
		return err
	}
	v := reflect.ValueOf(out).Elem()
	v.SetZero() // drop what the failed attempt half-filled
	return json.Unmarshal(fixed, out)
}

// normalizeNumbers rewrites, in place, every numericKeys value that is a
// numeric string or an integral-valued number into a plain integer. It
// reports whether it changed anything.
func normalizeNumbers(doc any) bool {
	changed := false
	switch v := doc.(type) {
	case map[string]any:
		for k, e := range v {
			if numericKeys[k] {
				if n, ok := asInteger(e); ok {
					v[k] = n
					changed = true
					continue
				}
			}
			if normalizeNumbers(e) {
				changed = true
			}
		}
	case []any:
		for _, e := range v {
			if normalizeNumbers(e) {
				changed = true
			}
		}
	}
	return changed
}

// asInteger converts "4", 4.0 or "4.0" to json.Number("4"). A fractional
// value is rounded to the nearest integer: the API's sizes are integers and a
// server sending 0.5 should not make a whole List fail.
func asInteger(v any) (json.Number, bool) {
	var s string
	switch t := v.(type) {
	case json.Number:
		s = string(t)
	case string:
		s = strings.TrimSpace(t)
	default:
		return "", false
	}
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		if _, isNum := v.(json.Number); isNum {
			return "", false // already an integer: the type error is elsewhere
		}
		return json.Number(s), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return "", false
	}
	f = math.Round(f)
	if f >= 1<<63 || f < -(1<<63) {
		return "", false
	}
	return json.Number(strconv.FormatInt(int64(f), 10)), true
}

// serviceJSON is a Service as it arrives on the wire: it also catches the
// deprecated vpcEndpoint, used when vpc_endpoint is absent.
type serviceJSON struct {
	serviceFields
	LegacyVPCEndpoint *VPCEndpoint `json:"vpcEndpoint"`
}

// serviceFields has Service's fields and none of its methods, so embedding it
// promotes the fields to encoding/json.
type serviceFields Service

// finish falls back to the deprecated vpcEndpoint.
func (w *serviceJSON) finish() error {
	if w.VPCEndpoint == nil {
		w.VPCEndpoint = w.LegacyVPCEndpoint
	}
	return nil
}

func (w *serviceJSON) service() *Service { return (*Service)(&w.serviceFields) }

// serviceListJSON is a list of services as it arrives on the wire.
type serviceListJSON []serviceJSON

func (l serviceListJSON) finish() error {
	for i := range l {
		_ = l[i].finish() // never fails
	}
	return nil
}
