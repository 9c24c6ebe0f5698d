package dbcloud

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"
)

// Aggregation combines a metric's values in a bucket.
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
	Series      string         // required: a name from ListSeries
	From, To    time.Time      // required, From before To; sent in UTC
	Bucket      time.Duration  // 0: the server chooses; else whole seconds, at least 1m
	Aggregation Aggregation    // "": the server's default, AggLast
	Filters     []MetricFilter // labels a series must have, such as role=primary
}

// MetricFilter is one label a series must have; Key and Value are required.
type MetricFilter struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// MetricSeries is one series of an answer: its labels (lower case, such as
// role and ordinal) and a point per bucket.
type MetricSeries struct {
	Labels map[string]string
	Points []MetricPoint
}

// MetricPoint is one bucket of a series, from Time.
type MetricPoint struct {
	Time  time.Time
	Value float64
	Valid bool // false for a bucket with no data (Value 0)
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

// ListSeries returns the names of a service's metric series (preview).
func (m *MetricsClient) ListSeries(ctx context.Context, projectID, serviceID string) ([]string, error) {
	at := ref{projectID: projectID, serviceID: serviceID}
	seg, err := at.escape(inService)
	if err != nil {
		return nil, err
	}
	var names []string
	err = m.api.do(ctx, &request{op: "Metrics.ListSeries", method: http.MethodGet, kind: KindService, at: at,
		tpl:  tplService + "/metrics/available-series",
		path: "/projects/" + seg.projectID + "/services/" + seg.serviceID + "/metrics/available-series"}, &names)
	if err != nil {
		return nil, err
	}
	return names, nil
}

// Query reads a service's metric series over a window (preview: see
// MetricsClient). It is a POST retried like a GET: it changes nothing.
func (m *MetricsClient) Query(ctx context.Context, projectID, serviceID string, q *MetricsQuery) ([]MetricSeries, error) {
	at := ref{projectID: projectID, serviceID: serviceID}
	seg, err := at.escape(inService)
	body, bodyErr := q.body()
	if err := cmp.Or(err, bodyErr); err != nil { // the ids' error first
		return nil, err
	}
	var ws metricSeriesListJSON
	err = m.api.do(ctx, &request{op: "Metrics.Query", method: http.MethodPost, reads: true, kind: KindService, at: at,
		tpl:  tplService + "/metrics/series",
		path: "/projects/" + seg.projectID + "/services/" + seg.serviceID + "/metrics/series", body: body}, &ws)
	if err != nil {
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
