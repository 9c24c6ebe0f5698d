package httpapi

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apitest"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

const (
	cpuSeries     = "timescale_cloud_system_cpu_usage_millicores"
	diskSeries    = "timescale_cloud_system_disk_usage_bytes"
	latencySeries = "timescale_cloud_database_query_duration_ms"
	txSeries      = "timescale_cloud_database_transactions_total"
)

// series sends a series query and returns the series answered.
func (f *fake) series(svc string, q map[string]any) []map[string]any {
	f.T.Helper()
	var out []map[string]any
	for _, s := range f.Send("POST", f.SvcPath(svc)+"/metrics/series", q).Must(f.T, 200).List(f.T) {
		out = append(out, s.(map[string]any))
	}
	return out
}

// window is a query of name from from to to, both offsets from Epoch.
func window(name string, from, to time.Duration, more ...any) map[string]any {
	q := map[string]any{"name": name, "from": apitest.Epoch.Add(from).Format(time.RFC3339Nano), "to": apitest.Epoch.Add(to).Format(time.RFC3339Nano)}
	for i := 0; i+1 < len(more); i += 2 {
		q[more[i].(string)] = more[i+1]
	}
	return q
}

// values returns a series' points' values, nil for a gap, and checks that
// the points are the buckets from first on, step apart.
func values(t *testing.T, s map[string]any, first time.Time, step time.Duration) []*float64 {
	t.Helper()
	var out []*float64
	for i, p := range s["data"].([]any) {
		pt := p.(map[string]any)
		if want := first.Add(time.Duration(i) * step).Format(time.RFC3339); pt["time"] != want {
			t.Fatalf("point %d at %v, want %s", i, pt["time"], want)
		}
		v, ok := pt["value"]
		if !ok {
			t.Fatalf("point %d has no value field: %v", i, pt)
		}
		if v == nil {
			out = append(out, nil)
			continue
		}
		n, err := v.(json.Number).Float64()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, &n)
	}
	return out
}

func TestAvailableSeries(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(nil)
	got := f.Send("GET", f.SvcPath(svc)+"/metrics/available-series", nil).Must(t, 200).List(t)
	var names []string
	for _, n := range got {
		names = append(names, n.(string))
	}
	if !slices.IsSorted(names) || !slices.Contains(names, cpuSeries) || !slices.Equal(names, model.SeriesNames()) {
		t.Errorf("available series %v", names)
	}
	f.Send("GET", f.SvcPath("nope")+"/metrics/available-series", nil).MustError(t, 404, "NOT_FOUND", "service not found")
	f.Send("POST", f.SvcPath("nope")+"/metrics/series", window(cpuSeries, 0, time.Hour)).MustError(t, 404, "NOT_FOUND", "service not found")
}

// A made-up series has a value each bucket from the service's creation to
// now, and null (present, not omitted) before and after: the gaps.
func TestMetricSeriesGaps(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(nil) // created at Epoch, now Epoch+1h
	for _, tc := range []struct {
		from, to   time.Duration
		data, gaps int // points with a value, then without; or the reverse
		early      bool
	}{
		{-10 * time.Minute, 10 * time.Minute, 10, 10, true}, // before the creation
		{50 * time.Minute, 70 * time.Minute, 11, 9, false},  // after now
	} {
		got := f.series(svc, window(cpuSeries, tc.from, tc.to))
		if len(got) != 1 || !jsonEqual(got[0]["labels"], map[string]any{"role": "primary", "ordinal": "0"}) {
			t.Fatalf("series %v", got)
		}
		vals := values(t, got[0], apitest.Epoch.Add(tc.from), time.Minute)
		if len(vals) != tc.data+tc.gaps {
			t.Fatalf("%d points, want %d", len(vals), tc.data+tc.gaps)
		}
		for i, v := range vals {
			if data := (i < tc.data) != tc.early; (v != nil) != data {
				t.Errorf("window %s to %s, bucket %d: value %v, want data %v", tc.from, tc.to, i, v, data)
			}
		}
	}
	got := f.series(svc, window(cpuSeries, -10*time.Minute, 30*time.Minute))
	// The same query answers the same values: they are made up, but fixed.
	if again := f.series(svc, window(cpuSeries, -10*time.Minute, 30*time.Minute)); !jsonEqual(again, got) {
		t.Error("a second query answered other values")
	}
	// Buckets are aligned on multiples of their size; nanoseconds are taken.
	got = f.series(svc, window(cpuSeries, 90*time.Second+time.Nanosecond, 5*time.Minute, "bucket_seconds", 120))
	if vals := values(t, got[0], apitest.Epoch, 2*time.Minute); len(vals) != 3 {
		t.Errorf("%d buckets of 2 minutes from 1m30s to 5m, want 3", len(vals))
	}
	// Default buckets follow the window's tier.
	day := apitest.Epoch.Truncate(24 * time.Hour)
	for _, tc := range []struct {
		window, bucket time.Duration
		first          time.Time
		n              int
	}{
		{time.Hour, time.Minute, apitest.Epoch, 60},
		{2 * time.Hour, time.Hour, apitest.Epoch, 2},
		{30 * 24 * time.Hour, time.Hour, apitest.Epoch, 720},
		{31 * 24 * time.Hour, 24 * time.Hour, day, 32}, // from the day holding from to the one holding to
	} {
		got := f.series(svc, window(diskSeries, 0, tc.window))
		if n := len(values(t, got[0], tc.first, tc.bucket)); n != tc.n {
			t.Errorf("window %s: %d points, want %d", tc.window, n, tc.n)
		}
	}
}

// Without a role filter, some series answer one series per node and the
// others the primary's; a filter keeps the nodes whose labels match, in
// any case, and labels come lowercased.
func TestMetricSeriesRoles(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(map[string]any{"name": "db", "replica_count": 2})
	f.Clock.Advance(5 * time.Minute)
	labels := func(q map[string]any) (out []any) {
		for _, s := range f.series(svc, q) {
			out = append(out, s["labels"])
		}
		return out
	}
	primary := map[string]any{"role": "primary", "ordinal": "0"}
	r1 := map[string]any{"role": "replica", "ordinal": "1"}
	r2 := map[string]any{"role": "replica", "ordinal": "2"}
	role := func(v string) []any { return []any{map[string]any{"key": "role", "value": v}} }
	for _, tc := range []struct {
		name string
		q    map[string]any
		want []any
	}{
		{"per role", window(cpuSeries, 0, time.Hour), []any{primary, r1, r2}},
		{"primary by default", window(diskSeries, 0, time.Hour), []any{primary}},
		{"replicas", window(diskSeries, 0, time.Hour, "filters", role("replica")), []any{r1, r2}},
		{"role in any case", window(cpuSeries, 0, time.Hour, "filters", role("PRIMARY")), []any{primary}},
		{"ordinal", window(cpuSeries, 0, time.Hour, "filters", []any{map[string]any{"key": "ordinal", "value": "2"}}), []any{r2}},
		{"a replica by ordinal", window(diskSeries, 0, time.Hour, "filters", []any{map[string]any{"key": "ordinal", "value": "1"}}), []any{r1}},
		{"no such label", window(cpuSeries, 0, time.Hour, "filters", []any{map[string]any{"key": "zone", "value": "a"}}), nil},
	} {
		if got := labels(tc.q); !jsonEqual(got, tc.want) {
			t.Errorf("%s: labels %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := f.Send("POST", f.SvcPath(svc)+"/metrics/series", window(cpuSeries, 0, time.Hour, "filters", role("standby"))).Must(t, 200).List(t); len(got) != 0 {
		t.Errorf("no node matches, yet %v", got)
	}
}

// Recorded samples are what a query aggregates, by each fn; buckets none
// falls in are gaps.
func TestMetricSeriesAggregations(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(nil)
	f.Clock.Advance(time.Hour)
	at := func(d time.Duration) time.Time { return apitest.Epoch.Add(d) }
	for _, name := range []string{latencySeries, txSeries, cpuSeries} {
		err := f.model.RecordMetrics(svc, name,
			model.MetricSample{Time: at(0), Value: 10},
			model.MetricSample{Time: at(30 * time.Second), Value: 40},
			model.MetricSample{Time: at(90 * time.Second), Value: 20},
			model.MetricSample{Time: at(4 * time.Minute), Value: 100},
			model.MetricSample{Time: at(4 * time.Minute), Node: 1, Value: 7}, // a node the service lacks
		)
		if err != nil {
			t.Fatal(err)
		}
	}
	num := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		series, fn string
		want       []*float64 // buckets of a minute from Epoch to Epoch+5m
	}{
		{cpuSeries, "", []*float64{num(40), num(20), nil, nil, num(100)}},
		{latencySeries, "LAST", []*float64{num(40), num(20), nil, nil, num(100)}},
		{latencySeries, "AVG", []*float64{num(25), num(20), nil, nil, num(100)}},
		{latencySeries, "SUM", []*float64{num(50), num(20), nil, nil, num(100)}},
		{latencySeries, "MIN", []*float64{num(10), num(20), nil, nil, num(100)}},
		{latencySeries, "MAX", []*float64{num(40), num(20), nil, nil, num(100)}},
		{latencySeries, "COUNT", []*float64{num(2), num(1), nil, nil, num(1)}},
		{latencySeries, "P50", []*float64{num(10), num(20), nil, nil, num(100)}},
		{latencySeries, "P99", []*float64{num(40), num(20), nil, nil, num(100)}},
		{txSeries, "INCREASE", []*float64{num(30), num(-20), nil, nil, num(80)}},
		{txSeries, "RATE", []*float64{num(0.5), num(-20.0 / 60), nil, nil, num(80.0 / 60)}},
	} {
		q := window(tc.series, 0, 5*time.Minute)
		if tc.fn != "" {
			q["fn"] = tc.fn
		}
		got := f.series(svc, q)
		if len(got) != 1 {
			t.Fatalf("%s %s: %d series", tc.series, tc.fn, len(got))
		}
		if vals := values(t, got[0], apitest.Epoch, time.Minute); !jsonEqual(vals, tc.want) {
			t.Errorf("%s %s: %v, want %v", tc.series, tc.fn, jsonText(vals), jsonText(tc.want))
		}
	}
	if err := f.model.RecordMetrics(svc, "nope"); err == nil {
		t.Error("RecordMetrics of an unknown series")
	}
	if err := f.model.RecordMetrics("nope", cpuSeries); err == nil {
		t.Error("RecordMetrics of an unknown service")
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Each rule of a series query: a 400 whose message starts with the field.
func TestMetricSeriesValidation(t *testing.T) {
	f := newFake(t, Config{})
	svc := f.Ready(nil)
	path := f.SvcPath(svc) + "/metrics/series"
	const w = `"from": "2026-03-01T12:00:00Z", "to": "2026-03-01T13:00:00Z"`
	cpu := `"name": "` + cpuSeries + `", ` + w
	lat := `"name": "` + latencySeries + `", ` + w
	for _, tc := range []struct{ body, field string }{
		{`{` + cpu + `, "step": 60}`, "step"},
		{`{` + cpu + `, "Name": "x"}`, "Name"},
		{`{` + w + `}`, "name"},
		{`{"name": 5, ` + w + `}`, "name"},
		{`{"name": "timescale_cloud_nope", ` + w + `}`, "name"},
		{`{"name": "` + cpuSeries + `", "to": "2026-03-01T13:00:00Z"}`, "from"},
		{`{"name": "` + cpuSeries + `", "from": "yesterday", "to": "2026-03-01T13:00:00Z"}`, "from"},
		{`{"name": "` + cpuSeries + `", "from": "2026-03-01T12:00:00Z"}`, "to"},
		{`{"name": "` + cpuSeries + `", "from": "2026-03-01T12:00:00Z", "to": "2026-03-01T12:00:00Z"}`, "to"},
		{`{"name": "` + cpuSeries + `", "from": "2026-03-01T12:00:00Z", "to": "2026-03-01T11:00:00Z"}`, "to"},
		{`{` + lat + `, "bucket_seconds": 59}`, "bucket_seconds"},
		{`{` + lat + `, "bucket_seconds": 60.5}`, "bucket_seconds"},
		{`{` + lat + `, "bucket_seconds": "60"}`, "bucket_seconds"},
		{`{"name": "` + latencySeries + `", "from": "2026-03-01T12:00:00Z", "to": "2026-03-01T14:00:00Z", "bucket_seconds": 60}`, "bucket_seconds"},
		{`{"name": "` + latencySeries + `", "from": "2000-01-01T00:00:00Z", "to": "2099-01-01T00:00:00Z"}`, "bucket_seconds"},
		{`{` + lat + `, "fn": "MEDIAN"}`, "fn"},
		{`{` + lat + `, "fn": "avg"}`, "fn"},
		{`{` + cpu + `, "fn": "AVG"}`, "fn"},
		{`{` + cpu + `, "fn": "LAST"}`, "fn"},
		{`{"name": "timescale_cloud_database_qps", ` + w + `, "fn": "MAX"}`, "fn"},
		{`{"name": "` + txSeries + `", ` + w + `, "fn": "P90"}`, "fn"},
		{`{` + lat + `, "filters": {"key": "role", "value": "primary"}}`, "filters"},
		{`{` + lat + `, "filters": [{"key": "", "value": "primary"}]}`, "filters[0].key"},
		{`{` + lat + `, "filters": [{"key": "role"}]}`, "filters[0].value"},
		{`{` + lat + `, "filters": [{"key": "role", "value": 1}]}`, "filters[0].value"},
		{`{` + lat + `, "filters": [{"key": "role", "value": "replica"}, null]}`, "filters[1]"},
		{`{` + lat + `, "filters": [{"key": "role", "value": "replica", "op": "="}]}`, "filters[0].op"},
	} {
		f.Send("POST", path, tc.body).MustError(t, 400, "INVALID_REQUEST", tc.field+": ")
	}
	// What is allowed: nanoseconds, a bucket at the tier or coarser, a fn
	// the series takes, no filters.
	for _, body := range []string{
		`{"name": "` + cpuSeries + `", "from": "2026-03-01T12:00:00.123456789Z", "to": "2026-03-01T13:00:00+00:30", "filters": null}`,
		`{` + lat + `, "bucket_seconds": 3600, "fn": "P90", "filters": []}`,
		`{"name": "` + txSeries + `", ` + w + `, "fn": "RATE", "bucket_seconds": 300}`,
	} {
		f.Send("POST", path, body).Must(t, 200)
	}
}
