package dbcloud_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/jarcoal/httpmock"
)

// A query over a window with a gap: one point per bucket, the gap's
// buckets told apart from a measured zero.
func TestMetricsQueryWindowWithAGap(t *testing.T) {
	t.Parallel()
	s := newLiveServer(t)
	from := time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	gap := map[time.Time]bool{from.Add(20 * time.Minute): true, from.Add(25 * time.Minute): true}
	zero := from.Add(30 * time.Minute)
	s.metric = func(start time.Time) *float64 {
		switch {
		case gap[start]:
			return nil
		case start.Equal(zero):
			return new(0.0)
		}
		return new(float64(start.Minute()) + 0.5)
	}
	series, err := s.client(t).Metrics.Query(t.Context(), "p1", "svc-1", &dbcloud.MetricsQuery{
		Series: "timescale_cloud_system_cpu_usage_millicores", From: from, To: from.Add(time.Hour), Bucket: 5 * time.Minute,
		Filters: []dbcloud.MetricFilter{{Key: "role", Value: "primary"}},
	})
	if err != nil || len(series) != 1 {
		t.Fatalf("Query = %v, %v; want one series", series, err)
	}
	points := series[0].Points
	if len(points) != 12 {
		t.Fatalf("%d points, want 12: an hour in 5-minute buckets", len(points))
	}
	for i, p := range points {
		start := from.Add(time.Duration(i) * 5 * time.Minute)
		switch {
		case !p.Time.Equal(start):
			t.Errorf("point %d at %v, want %v", i, p.Time, start)
		case gap[start] && (p.Valid || p.Value != 0):
			t.Errorf("point %d = %+v, want a gap", i, p)
		case start.Equal(zero) && (!p.Valid || p.Value != 0):
			t.Errorf("point %d = %+v, want a measured zero", i, p)
		case !gap[start] && !start.Equal(zero) && (!p.Valid || p.Value != float64(start.Minute())+0.5):
			t.Errorf("point %d = %+v, want %v", i, p, float64(start.Minute())+0.5)
		}
	}
	if series[0].Labels["role"] != "primary" {
		t.Errorf("labels %v", series[0].Labels)
	}
}

// What a query needs is checked before anything is sent.
func TestMetricsQueryValidation(t *testing.T) {
	t.Parallel()
	s := newLiveServer(t)
	c := s.client(t)
	from := time.Date(2026, 11, 22, 8, 0, 0, 0, time.UTC)
	ok := dbcloud.MetricsQuery{Series: "x", From: from, To: from.Add(time.Hour)}
	for _, tt := range []struct {
		field string
		edit  func(q *dbcloud.MetricsQuery)
	}{
		{"Series", func(q *dbcloud.MetricsQuery) { q.Series = "" }},
		{"From", func(q *dbcloud.MetricsQuery) { q.From = time.Time{} }},
		{"From", func(q *dbcloud.MetricsQuery) { q.To = q.From }},
		{"Bucket", func(q *dbcloud.MetricsQuery) { q.Bucket = 30 * time.Second }},
		{"Bucket", func(q *dbcloud.MetricsQuery) { q.Bucket = 90500 * time.Millisecond }},
		{"Aggregation", func(q *dbcloud.MetricsQuery) { q.Aggregation = "MEDIAN" }},
		{"Filters", func(q *dbcloud.MetricsQuery) { q.Filters = []dbcloud.MetricFilter{{Key: "role"}} }},
	} {
		q := ok
		tt.edit(&q)
		var v *dbcloud.ValidationError
		if _, err := c.Metrics.Query(t.Context(), "p1", "svc-1", &q); !errors.As(err, &v) || v.Field != tt.field {
			t.Errorf("%+v: err = %v, want a *ValidationError for %s", q, err, tt.field)
		}
	}
	if _, err := c.Metrics.Query(t.Context(), "p1", "svc-1", nil); err == nil {
		t.Error("a nil query was accepted")
	}
	if len(s.requests()) != 0 {
		t.Errorf("requests %v, want none", s.requests())
	}
}

// A query changes nothing: its answer cut off is read again, as a GET's
// is, and a failure does not say that it took effect.
func TestMetricsQueryIsARead(t *testing.T) {
	t.Parallel()
	c, mt := mockClient(t, dbcloud.WithRetryMax(1))
	url := mockBase + "/projects/p1/services/s1/metrics/series"
	mt.RegisterResponder("POST", url, httpmock.NewStringResponder(200, `[{"labels":{},"data":[{"time":`).
		Then(httpmock.NewStringResponder(200, `[{"labels":{},"data":[{"time":"2026-11-22T08:00:00Z","value":null}]}]`)))
	q := &dbcloud.MetricsQuery{Series: "x", From: time.Now().Add(-time.Hour), To: time.Now()}
	series, err := c.Metrics.Query(t.Context(), "p1", "s1", q)
	if err != nil || len(series) != 1 || series[0].Points[0].Valid {
		t.Fatalf("Query = %+v, %v; want the second answer, a gap", series, err)
	}
	if n := mt.GetTotalCallCount(); n != 2 {
		t.Errorf("%d attempts, want 2", n)
	}
	mt.RegisterResponder("POST", url, httpmock.NewStringResponder(200, `[`))
	_, err = c.Metrics.Query(t.Context(), "p1", "s1", q)
	if !errors.Is(err, dbcloud.ErrInvalidResponse) || strings.Contains(err.Error(), "took effect") {
		t.Errorf("err = %v, want ErrInvalidResponse, not saying the query took effect", err)
	}
}
