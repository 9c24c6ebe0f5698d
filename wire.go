package dbcloud

import (
	"errors"
	"fmt"
)

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
	if err := finishService(w.service()); err != nil {
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

func (w *serviceJSON) service() *Service { return (*Service)(&w.serviceFields) }

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
