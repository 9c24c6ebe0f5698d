package wire

// MetricSeries is one series of a metrics query: its labels (role and
// ordinal) and a point for every bucket of the window.
type MetricSeries struct {
	Labels map[string]string `json:"labels"`
	Data   []MetricPoint     `json:"data"`
}

// MetricPoint is one bucket of a series, from Time on; Value is null
// (nil) when the bucket holds no data: a gap, not a zero.
type MetricPoint struct {
	Time  string   `json:"time"`
	Value *float64 `json:"value"`
}
