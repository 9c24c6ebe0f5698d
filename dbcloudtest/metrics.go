package dbcloudtest

import (
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

// MetricSample is one sample of a service's metric series, for
// RecordMetrics.
type MetricSample struct {
	// Time is when the sample was taken; zero means now on the server's
	// clock (Now).
	Time time.Time
	// Node is whose sample it is: 0 the primary (labels role "primary",
	// ordinal "0"), 1 to n the HA replicas (role "replica", ordinal "1" to
	// "n"). A node the service does not have is never answered.
	Node int
	// Value is what the sample measured: a query aggregates these.
	Value float64
}

// RecordMetrics records samples of a service's metric series (one of the
// names the available-series endpoint lists), so that a test knows the
// values a series query answers: from the first call on, that series of
// that service holds the samples recorded, and no made-up ones (see
// "Metrics" in the package doc). A bucket none of them falls in is a gap,
// null on the wire; a first call with no samples leaves the series empty,
// every bucket a gap. Later calls add to what was recorded. It is an
// error, and nothing is recorded, when the service or the series is
// unknown, a node is negative or a value is not a finite number.
func (s *Server) RecordMetrics(serviceID, series string, samples ...MetricSample) error {
	recs := make([]model.MetricSample, len(samples))
	for i, smp := range samples {
		recs[i] = model.MetricSample(smp)
	}
	return s.model.RecordMetrics(serviceID, series, recs...)
}
