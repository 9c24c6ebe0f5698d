package model

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/wire"
)

// A service's metric series (the API's preview metrics endpoints). Every
// series of a service has a sample each minute of the server's clock from
// the service's creation up to now, for its primary (node 0) and each HA
// replica (nodes 1..n), made up from the service's sizes and its fixed
// load: no data before the creation or after now, so a window that reaches
// past either has gaps there. A series a test has recorded samples of
// (RecordMetrics) holds those samples instead, and nothing else. This file
// holds the series, the query and its answer; samples.go where the samples
// come from.

// seriesInfo is what the API says of one series: whether it refuses an
// aggregation (fn), whether it answers one series per node when the query
// names no role (the others answer the primary's), whether it is stored as
// a sketch (which the percentiles need), and how its made-up samples go.
type seriesInfo struct {
	name    string
	noFn    bool
	perRole bool
	sketch  bool
	counter bool                     // its samples only grow: a total
	scale   func(s *Service) float64 // a typical sample, or a counter's growth a minute
}

func fixed(v float64) func(*Service) float64 { return func(*Service) float64 { return v } }

// catalog is every series, sorted by name: the available-series answer.
var catalog = []seriesInfo{
	{name: "timescale_cloud_database_job_duration_usecs", noFn: true, scale: fixed(250000)},
	{name: "timescale_cloud_database_job_success", noFn: true, scale: fixed(1)},
	{name: "timescale_cloud_database_num_connections", noFn: true, perRole: true, scale: fixed(20)},
	{name: "timescale_cloud_database_qps", noFn: true, perRole: true, scale: fixed(150)},
	{name: "timescale_cloud_database_query_duration_ms", perRole: true, sketch: true, scale: fixed(12)},
	{name: "timescale_cloud_database_transactions_total", counter: true, scale: fixed(6000)},
	{name: "timescale_cloud_system_cpu_usage_millicores", noFn: true, perRole: true, scale: func(s *Service) float64 { return float64(s.cpu) / 3 }},
	{name: "timescale_cloud_system_disk_io_read_bytes", noFn: true, scale: fixed(4 << 20)},
	{name: "timescale_cloud_system_disk_io_write_bytes", noFn: true, scale: fixed(2 << 20)},
	{name: "timescale_cloud_system_disk_usage_bytes", noFn: true, scale: fixed(512 << 20)},
	{name: "timescale_cloud_system_memory_usage_bytes", noFn: true, perRole: true, scale: func(s *Service) float64 { return float64(s.mem) * (1 << 30) / 3 }},
}

// SeriesNames is the name of every series, sorted.
func SeriesNames() []string {
	out := make([]string, len(catalog))
	for i, si := range catalog {
		out[i] = si.name
	}
	return out
}

// SeriesRules says whether the series name exists, and if so whether it
// refuses an aggregation and whether it is stored as a sketch.
func SeriesRules(name string) (known, noFn, sketch bool) {
	i, ok := seriesIndex(name)
	if !ok {
		return false, false, false
	}
	return true, catalog[i].noFn, catalog[i].sketch
}

func seriesIndex(name string) (int, bool) {
	return slices.BinarySearchFunc(catalog, name, func(si seriesInfo, n string) int { return strings.Compare(si.name, n) })
}

// The aggregations of a series query.
const (
	FnRate     = "RATE"
	FnIncrease = "INCREASE"
	FnSum      = "SUM"
	FnAvg      = "AVG"
	FnMin      = "MIN"
	FnMax      = "MAX"
	FnCount    = "COUNT"
	FnP50      = "P50"
	FnP90      = "P90"
	FnP99      = "P99"
	FnLast     = "LAST"
)

// MetricsQuery is a series query, read and checked: Bucket is a whole
// number of seconds, Fn one of the Fn constants, Filters key and value
// pairs that must all hold.
type MetricsQuery struct {
	Name     string
	From, To time.Time
	Bucket   int64 // seconds
	Fn       string
	Filters  [][2]string
}

// Buckets returns the start of the first bucket of a window, in Unix
// seconds, and how many there are: buckets start at multiples of bucket
// seconds since the Unix epoch, as time_bucket's do, from the one holding
// from to the one holding the last instant before to.
func Buckets(from, to time.Time, bucket int64) (first, n int64) {
	first = floorDiv(from.Unix(), bucket) * bucket
	last := floorDiv(to.Add(-time.Nanosecond).Unix(), bucket) * bucket
	return first, (last-first)/bucket + 1
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// MetricSeries answers a series query, checked, on the service: one
// series per node the filters keep, each with a point for every bucket.
func (s *Service) MetricSeries(now time.Time, q MetricsQuery) []wire.MetricSeries {
	i, _ := seriesIndex(q.Name)
	si := &catalog[i]
	first, n := Buckets(q.From, q.To, q.Bucket)
	out := []wire.MetricSeries{}
	for node := 0; node <= s.replicas; node++ {
		labels := nodeLabels(node)
		if !si.perRole && node > 0 && !hasKey(q.Filters, "role") && !hasKey(q.Filters, "ordinal") {
			continue // unless a filter names a node, such a series is the primary's
		}
		if !matches(labels, q.Filters) {
			continue
		}
		src := s.source(i, node, now)
		data := make([]wire.MetricPoint, n)
		var buf []float64
		for b := range n {
			lo := time.Unix(first+b*q.Bucket, 0)
			hi := lo.Add(time.Duration(q.Bucket) * time.Second)
			buf = src.between(buf[:0], laterOf(lo, q.From), earlierOf(hi, q.To))
			data[b] = wire.MetricPoint{Time: lo.UTC().Format(time.RFC3339), Value: aggregate(q.Fn, buf, src, lo, q.Bucket)}
		}
		out = append(out, wire.MetricSeries{Labels: labels, Data: data})
	}
	return out
}

func nodeLabels(node int) map[string]string {
	role := "primary"
	if node > 0 {
		role = "replica"
	}
	return map[string]string{"role": role, "ordinal": strconv.Itoa(node)}
}

func hasKey(filters [][2]string, key string) bool {
	for _, f := range filters {
		if f[0] == key {
			return true
		}
	}
	return false
}

// matches says whether every filter holds of labels; values are compared
// in any case, since the API lowercases the role.
func matches(labels map[string]string, filters [][2]string) bool {
	for _, f := range filters {
		if v, ok := labels[f[0]]; !ok || !strings.EqualFold(v, f[1]) {
			return false
		}
	}
	return true
}

func laterOf(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlierOf(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// aggregate is a bucket's value by fn from its samples' values, nil (a
// gap) when it has none. INCREASE and RATE count from the last sample
// before the bucket, when there is one.
func aggregate(fn string, vals []float64, src samples, lo time.Time, bucket int64) *float64 {
	if len(vals) == 0 {
		return nil
	}
	var v float64
	switch fn {
	case FnLast:
		v = vals[len(vals)-1]
	case FnCount:
		v = float64(len(vals))
	case FnSum, FnAvg:
		for _, x := range vals {
			v += x
		}
		if fn == FnAvg {
			v /= float64(len(vals))
		}
	case FnMin:
		v = slices.Min(vals)
	case FnMax:
		v = slices.Max(vals)
	case FnIncrease, FnRate:
		start := vals[0]
		if prev, ok := src.before(lo); ok {
			start = prev
		}
		v = vals[len(vals)-1] - start
		if fn == FnRate {
			v /= float64(bucket)
		}
	case FnP50, FnP90, FnP99:
		p, _ := strconv.Atoi(fn[1:])
		slices.Sort(vals)
		v = vals[max(0, int(math.Ceil(float64(p)/100*float64(len(vals))))-1)] // nearest rank
	}
	return &v
}
