package httpapi

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

// The handlers of a service's metrics (preview) routes, and the rules of a
// series query, as the package documentation of dbcloudtest states them
// under "Metrics".

// maxBuckets bounds the points of one series: the fake's own bound, so that
// a query cannot make it build an answer of any size.
const maxBuckets = 10000

// The storage tiers: a window up to tierMinute long is kept in buckets of a
// minute, up to tierHour of an hour, longer ones of a day; a finer bucket is
// refused, and the tier's bucket is the default.
const (
	tierMinute = time.Hour
	tierHour   = 30 * 24 * time.Hour
)

var seriesFields = []string{"name", "from", "to", "bucket_seconds", "fn", "filters"}

var aggregations = []string{
	model.FnRate, model.FnIncrease, model.FnSum, model.FnAvg, model.FnMin, model.FnMax,
	model.FnCount, model.FnP50, model.FnP90, model.FnP99, model.FnLast,
}

func (a *API) getServiceMetricsAvailableSeries(c *call) (reply, error) {
	return ok(model.SeriesNames()), nil
}

func (a *API) getServiceMetricsSeries(c *call) (reply, error) {
	q, err := c.body.seriesQuery()
	if err != nil {
		return reply{}, err
	}
	return ok(c.svc.MetricSeries(c.now, q)), nil
}

// seriesQuery reads a series query: no field but seriesFields, a known
// series, an RFC 3339 window, a bucket the window's tier allows, an
// aggregation the series takes, and filters of non-empty keys and values.
func (b jsonBody) seriesQuery() (q model.MetricsQuery, err error) {
	var unknown []string
	for k := range b {
		if !slices.Contains(seriesFields, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown) // the same answer every time
		return q, apierr.BadRequest(unknown[0], "unknown field: a series query has only "+fmt.Sprint(seriesFields))
	}
	if q.Name, err = b.required("name"); err != nil {
		return q, err
	}
	known, noFn, sketch := model.SeriesRules(q.Name)
	if !known {
		return q, apierr.BadRequest("name", "unknown series "+q.Name+": see available-series")
	}
	if q.From, err = b.instant("from"); err != nil {
		return q, err
	}
	if q.To, err = b.instant("to"); err != nil {
		return q, err
	}
	if !q.To.After(q.From) {
		return q, apierr.BadRequest("to", "must be after from")
	}
	if q.Bucket, err = b.bucket(q.To.Sub(q.From)); err != nil {
		return q, err
	}
	if _, n := model.Buckets(q.From, q.To, q.Bucket); n > maxBuckets {
		return q, apierr.BadRequest("bucket_seconds", fmt.Sprintf("the window holds %d buckets of %d s, more than %d", n, q.Bucket, maxBuckets))
	}
	if q.Fn, err = b.aggregation(noFn, sketch, q.Name); err != nil {
		return q, err
	}
	q.Filters, err = b.filters()
	return q, err
}

// instant reads a required RFC 3339 time, nanoseconds allowed.
func (b jsonBody) instant(field string) (time.Time, error) {
	v, err := b.required(field)
	if err != nil {
		return time.Time{}, err
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return time.Time{}, apierr.BadRequest(field, "must be an RFC 3339 timestamp")
	}
	return t, nil
}

// bucket reads bucket_seconds for a window this long: by default, and at
// the finest, the window's tier.
func (b jsonBody) bucket(window time.Duration) (int64, error) {
	tier := int64(86400)
	switch {
	case window <= tierMinute:
		tier = 60
	case window <= tierHour:
		tier = 3600
	}
	v, ok, err := b.integer("bucket_seconds")
	switch {
	case err != nil:
		return 0, err
	case !ok:
		return tier, nil
	case v < 60:
		return 0, apierr.BadRequest("bucket_seconds", "must be at least 60")
	case int64(v) < tier:
		return 0, apierr.BadRequest("bucket_seconds", fmt.Sprintf("must be at least %d: a window of %s is stored in buckets of %d s", tier, window, tier))
	}
	return int64(v), nil
}

// aggregation reads fn: LAST by default; refused on a series that takes
// none, and the percentiles on a series not stored as a sketch.
func (b jsonBody) aggregation(noFn, sketch bool, series string) (string, error) {
	fn, ok, err := b.str("fn")
	switch {
	case err != nil:
		return "", err
	case !ok:
		return model.FnLast, nil
	case !slices.Contains(aggregations, fn):
		return "", apierr.BadRequest("fn", fmt.Sprintf("must be one of %v", aggregations))
	case noFn:
		return "", apierr.BadRequest("fn", "series "+series+" takes no aggregation")
	case !sketch && (fn == model.FnP50 || fn == model.FnP90 || fn == model.FnP99):
		return "", apierr.BadRequest("fn", fn+" needs a series stored as a sketch, and "+series+" is not")
	}
	return fn, nil
}

// filters reads the optional filters: objects of a key and a value, both
// non-empty strings, and nothing else.
func (b jsonBody) filters() ([][2]string, error) {
	raw, ok := b.value("filters")
	if !ok {
		return nil, nil
	}
	var list []jsonBody
	if raw[0] != '[' || json.Unmarshal(raw, &list) != nil {
		return nil, apierr.BadRequest("filters", `must be an array of {"key", "value"} objects`)
	}
	out := make([][2]string, len(list))
	for i, f := range list {
		field := fmt.Sprintf("filters[%d]", i)
		if f == nil {
			return nil, apierr.BadRequest(field, `must be a {"key", "value"} object`)
		}
		for k := range f {
			if k != "key" && k != "value" {
				return nil, apierr.BadRequest(field+"."+k, "unknown field: a filter has only key and value")
			}
		}
		for j, name := range []string{"key", "value"} {
			raw, ok := f.value(name)
			if !ok || raw[0] != '"' || json.Unmarshal(raw, &out[i][j]) != nil || out[i][j] == "" {
				return nil, apierr.BadRequest(field+"."+name, "is required, a non-empty string")
			}
		}
	}
	return out, nil
}
