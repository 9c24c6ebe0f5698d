package dbcloud

// How an answer's body becomes the SDK's values: the decoding every 2xx
// body goes through (decodeAnswer, the pipeline's Decode), the tolerance
// of numbers sent as strings, and the wire types of services and replica
// sets, as they arrive.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/dbcloud/dbcloud-go/internal/jsonnum"
	"github.com/dbcloud/dbcloud-go/internal/jsonscan"
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
	} else if err = json.Unmarshal(data, out); err != nil {
		err = decodeLoosely(data, out, err)
	}
	if err == nil {
		if f, ok := out.(finisher); ok {
			err = f.finish()
		}
	}
	if err != nil {
		// Nothing of an answer that could not be used is kept: an
		// operation's answer holds a resource only when it was read.
		reflect.ValueOf(out).Elem().SetZero()
	}
	return err
}

// prechecker is a wire type that looks at a body before it is decoded, to
// refuse one whose decoding would cost more than the API ever sends.
type prechecker interface{ precheck(data []byte) error }

// selfDecoder is a wire type that decodes itself from a body, where
// encoding/json alone would take memory out of proportion to the body
// (serviceListJSON).
type selfDecoder interface{ decode(data []byte) error }

// numericKeys are the response fields the API types as numbers. Real
// servers send some of them as "4" or 4.0; decodeJSON rewrites those to
// plain integers.
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
// does not fit its Go type does the tolerant path (decodeLoosely) rewrite
// the document, which keeps the public types plain structs with no custom
// decoding of their own. The decodes of every answer (decodeAnswer, a list
// of services) make the strict decode themselves, and call decodeLoosely
// only when it failed.
func decodeJSON(data []byte, out any) error {
	if err := json.Unmarshal(data, out); err != nil {
		return decodeLoosely(data, out, err)
	}
	return nil
}

// decodeLoosely is decodeJSON once the strict decode of data into out
// failed with err: it decodes again with the numbers rewritten, when a
// number sent otherwise is why.
func decodeLoosely(data []byte, out any, err error) error {
	if _, ok := errors.AsType[*json.UnmarshalTypeError](err); !ok {
		return err
	}
	fixed, changed := jsonnum.Rewrite(data, numericKeys)
	if !changed {
		return err
	}
	reflect.ValueOf(out).Elem().SetZero() // drop what the failed attempt half-filled
	return json.Unmarshal(fixed, out)
}

// finisher is a wire type that completes itself once decoded, typically by
// falling back to a deprecated field.
type finisher interface{ finish() error }

// serviceTypeTimescaleDB is how the live service spells the time-series
// type in what it sends; the API's document says TIMESERIESDB. Both mean
// the time-series type, and both are read as it.
const serviceTypeTimescaleDB ServiceType = "TIMESCALEDB"

// serviceJSON is a Service as it arrives on the wire: it also catches the
// deprecated vpcEndpoint, used when vpc_endpoint is absent.
type serviceJSON struct {
	serviceFields
	// LegacyVPCEndpoint is decoded only when needed, and a malformed one is
	// ignored: a deprecated duplicate should not fail a response.
	LegacyVPCEndpoint rawRef `json:"vpcEndpoint"`
}

// serviceFields has Service's fields and none of its methods, so embedding it
// promotes the fields to encoding/json.
type serviceFields Service

// finish checks the required id, names the time-series type by one value,
// and falls back to the deprecated vpcEndpoint.
func (w *serviceJSON) finish() error {
	if err := finishService((*Service)(&w.serviceFields)); err != nil {
		return err
	}
	if w.VPCEndpoint == nil && len(w.LegacyVPCEndpoint) > 0 {
		var vpc *VPCEndpoint
		if decodeJSON(w.LegacyVPCEndpoint, &vpc) == nil {
			w.VPCEndpoint = vpc
		}
	}
	w.LegacyVPCEndpoint = nil // it refers to the whole response body
	return nil
}

// held is the service decoded, where create recovery leaves the one it
// found.
func (w *serviceJSON) held() *Service { return (*Service)(&w.serviceFields) }

// finishService checks a service's required id and names the time-series
// type by one value: what every service decoded needs, with or without the
// deprecated vpcEndpoint. A function, not a method, so that Service does not
// become a finisher.
func finishService(s *Service) error {
	if s.ServiceID == "" {
		return errors.New("the service has no service_id")
	}
	if s.ServiceType == serviceTypeTimescaleDB {
		s.ServiceType = ServiceTypeTimeSeries
	}
	return nil
}

// replicaSetJSON is a ReadReplicaSet as it arrives on the wire.
type replicaSetJSON ReadReplicaSet

// held is the replica set, for create recovery to leave the one it found
// in.
func (r *replicaSetJSON) held() *ReadReplicaSet { return (*ReadReplicaSet)(r) }

func (r *replicaSetJSON) finish() error {
	if r.ID == "" {
		return errors.New("the replica set has no id")
	}
	return nil
}

// replicaSetListJSON is a list of read replica sets as it arrives.
type replicaSetListJSON []replicaSetJSON

func (l replicaSetListJSON) finish() error { return finishAll(l) }

// finishAll finishes every element of a decoded list, naming the first that
// fails.
func finishAll[T any, P interface {
	*T
	finisher
}](items []T) error {
	for i := range items {
		if err := P(&items[i]).finish(); err != nil {
			return fmt.Errorf("element %d: %w", i, err)
		}
	}
	return nil
}

// rawRef keeps a reference to a JSON value without decoding or copying it.
// The logs response repeats every message in "logs"; decoding it when
// "entries" is there would double the allocations of every page. Keeping a
// reference is safe because decodeJSON owns its input and never reuses it.
type rawRef []byte

// UnmarshalJSON records b.
func (r *rawRef) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

// serviceListJSON is a list of services as it arrives on the wire. It
// decodes itself so that a list takes memory in proportion to its bytes: a
// 2 MiB list of minimal services ({"service_id":"s1"}, 20 bytes, each a
// 240-byte Service) would otherwise hold the decoder's grown slice of
// serviceJSON and then a copy of it as []Service, some 47 times the body.
// Here the slice is made once at its final length, and decoded into
// directly as []Service unless an element may carry the deprecated
// vpcEndpoint, which only serviceJSON catches.
type serviceListJSON struct{ services []Service }

// legacyVPCKey is serviceJSON's deprecated key, folded to lower case: none
// of its letters has a non-ASCII fold (jsonscan.Survey).
var legacyVPCKey = []byte("vpcendpoint")

func (l *serviceListJSON) decode(data []byte) error {
	n, legacy := jsonscan.Survey(data, legacyVPCKey)
	if !legacy {
		l.services = make([]Service, 0, n)
		if err := json.Unmarshal(data, &l.services); err != nil {
			if err = decodeLoosely(data, &l.services, err); err != nil {
				return err
			}
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
		l.services[i] = *ws[i].held()
	}
	return nil
}
