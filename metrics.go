package dbcloud

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"
)

// MetricsClient reads the metric series of a service. Get it from
// Client.Metrics.
//
// The API marks these endpoints as a preview that may change without
// notice. What it does today:
//
//   - Buckets. Without MetricsQuery.Bucket the server picks about 1 minute
//     for a window up to 1 hour, 1 hour up to 30 days, and 1 day beyond.
//     A bucket finer than the window's storage tier is refused (a 400
//     INVALID_REQUEST): a window of 2 hours in 1-minute buckets, say.
//   - Points. Every bucket of the window is in the answer, one point each,
//     a bucket without data included (a gap: MetricPoint.Valid is false).
//     A window of length W in buckets of B gives about W/B points: 60 for
//     an hour by default, 720 for 30 days, 90 for 90 days.
//   - Aggregations. The default is AggLast. The system series (CPU,
//     memory, disk and disk I/O, such as
//     timescale_cloud_system_cpu_usage_millicores) and
//     timescale_cloud_database_qps, _num_connections, _job_duration_usecs
//     and _job_success refuse any Aggregation (a 400 INVALID_REQUEST); the
//     percentiles work only on series stored as sketches.
//   - Roles. The usual filter is the label role, primary or replica;
//     without one, some series answer for the primary and others with one
//     series per role.
//
// The API refuses what breaks these rules; the SDK checks only what the
// request's shape needs (see MetricsQuery), so that a rule the preview
// changes is not refused here.
type MetricsClient struct{ api *caller }

// Aggregation is how a metric's values are combined in a bucket.
type Aggregation string

// Aggregations.
const (
	AggRate     Aggregation = "RATE"
	AggIncrease Aggregation = "INCREASE"
	AggSum      Aggregation = "SUM"
	AggAvg      Aggregation = "AVG"
	AggMin      Aggregation = "MIN"
	AggMax      Aggregation = "MAX"
	AggCount    Aggregation = "COUNT"
	AggP50      Aggregation = "P50"
	AggP90      Aggregation = "P90"
	AggP99      Aggregation = "P99"
	AggLast     Aggregation = "LAST"
)

// MetricsQuery is the input of MetricsClient.Query.
type MetricsQuery struct {
	// Series is the series' name, one of ListSeries, such as
	// "timescale_cloud_system_cpu_usage_millicores". Required.
	Series string
	// From and To bound the window; both required, From before To. Sent
	// as RFC 3339 in UTC, to the nanosecond.
	From, To time.Time
	// Bucket is the width of a point: 0 lets the server choose; else whole
	// seconds, at least a minute.
	Bucket time.Duration
	// Aggregation combines each bucket's values; "" sends none (the
	// server's default is AggLast).
	Aggregation Aggregation
	// Filters keep the series whose labels match, such as
	// {Key: "role", Value: "primary"}; each Key and Value is required.
	Filters []MetricFilter
}

// MetricFilter is one label a series must have.
type MetricFilter struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// MetricSeries is one series of a query's answer: its labels (such as
// role, lower case, and ordinal) and one point per bucket of the window.
type MetricSeries struct {
	Labels map[string]string
	Points []MetricPoint
}

// MetricPoint is one bucket of a series. A bucket with no data is a gap:
// Valid is false and Value 0, which tells it from a measured 0.
type MetricPoint struct {
	Time  time.Time // the bucket's start
	Value float64
	Valid bool
}

// minMetricBucket is the API's smallest bucket.
const minMetricBucket = time.Minute

// metricsBody is the wire body of MetricsClient.Query; the API allows no
// other field.
type metricsBody struct {
	Name          string         `json:"name"`
	From          string         `json:"from"`
	To            string         `json:"to"`
	BucketSeconds int64          `json:"bucket_seconds,omitempty"`
	Fn            Aggregation    `json:"fn,omitempty"`
	Filters       []MetricFilter `json:"filters,omitempty"`
}

func (q *MetricsQuery) body() (*metricsBody, error) {
	switch {
	case q == nil:
		return nil, invalid("q", "nil MetricsQuery")
	case q.Series == "":
		return nil, invalid("Series", "required: a name from ListSeries")
	case q.From.IsZero() || q.To.IsZero():
		return nil, invalid("From", "From and To are required")
	case !q.From.Before(q.To):
		return nil, invalid("From", "must be before To")
	case q.Bucket != 0 && (q.Bucket < minMetricBucket || q.Bucket%time.Second != 0):
		return nil, invalid("Bucket", "0 (the server chooses) or whole seconds, at least 1m")
	}
	switch q.Aggregation {
	case "", AggRate, AggIncrease, AggSum, AggAvg, AggMin, AggMax, AggCount, AggP50, AggP90, AggP99, AggLast:
	default:
		return nil, invalid("Aggregation", strconv.Quote(string(q.Aggregation))+" is not an aggregation")
	}
	for i, f := range q.Filters {
		if f.Key == "" || f.Value == "" {
			return nil, invalid("Filters", "filter "+strconv.Itoa(i)+": Key and Value are required")
		}
	}
	return &metricsBody{
		Name: q.Series, From: q.From.UTC().Format(time.RFC3339Nano), To: q.To.UTC().Format(time.RFC3339Nano),
		BucketSeconds: int64(q.Bucket / time.Second), Fn: q.Aggregation, Filters: q.Filters,
	}, nil
}

// ListSeries returns the names of the metric series a service has (a
// preview endpoint: see MetricsClient).
func (m *MetricsClient) ListSeries(ctx context.Context, projectID, serviceID string) ([]string, error) {
	r := newRequest("Metrics.ListSeries", http.MethodGet, tplService+"/metrics/available-series", ref{projectID, serviceID, ""})
	var names []string
	if err := m.api.read(ctx, &r, &names); err != nil {
		return nil, err
	}
	return names, nil
}

// Query reads a metric series of a service over a window (a preview
// endpoint: see MetricsClient for what the server refuses and how many
// points a window gives). It changes nothing: it is sent as a POST, and
// retried like a GET, its lost or cut-off answer included.
func (m *MetricsClient) Query(ctx context.Context, projectID, serviceID string, q *MetricsQuery) ([]MetricSeries, error) {
	r := newRequest("Metrics.Query", http.MethodPost, tplService+"/metrics/series", ref{projectID, serviceID, ""})
	r.reads = true
	if r.err == nil {
		r.body, r.err = q.body()
	}
	var ws metricSeriesListJSON
	if err := m.api.read(ctx, &r, &ws); err != nil {
		return nil, err
	}
	out := make([]MetricSeries, len(ws))
	for i, w := range ws {
		out[i].Labels = w.Labels
		out[i].Points = make([]MetricPoint, len(w.Data))
		for j, p := range w.Data {
			out[i].Points[j] = MetricPoint{Time: p.Time, Valid: p.Value != nil}
			if p.Value != nil {
				out[i].Points[j].Value = *p.Value
			}
		}
	}
	return out, nil
}

// metricSeriesListJSON is a query's answer as it arrives: a null value is
// a bucket without data.
type metricSeriesListJSON []struct {
	Labels map[string]string `json:"labels"`
	Data   []struct {
		Time  time.Time `json:"time"`
		Value *float64  `json:"value"`
	} `json:"data"`
}

func (l metricSeriesListJSON) finish() error {
	for i := range l {
		for j, p := range l[i].Data {
			if p.Time.IsZero() {
				return errors.New("series " + strconv.Itoa(i) + ", point " + strconv.Itoa(j) + ": no time")
			}
		}
	}
	return nil
}
