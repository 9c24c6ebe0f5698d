package dbcloudtest_test

import (
	"math"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

const cpuSeries = "timescale_cloud_system_cpu_usage_millicores"

// point and series are a series query's answer as these tests read it.
type point struct {
	Time  time.Time
	Value *float64
}

type series struct {
	Labels map[string]string
	Data   []point
}

// RecordMetrics gives a series exactly the values a query answers, with a
// gap, null, where no sample falls, and per node.
func TestRecordMetrics(t *testing.T) {
	srv := newServer(t, dbcloudtest.WithStartTime(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)))
	c := srv.Client()
	svc := createReady(t, c, srv.ProjectID)
	start := srv.Now()
	srv.Advance(10 * time.Minute)
	at := func(m int) time.Time { return start.Add(time.Duration(m) * time.Minute) }
	err := srv.RecordMetrics(svc.ServiceID, cpuSeries,
		dbcloudtest.MetricSample{Time: at(0), Value: 250},
		dbcloudtest.MetricSample{Time: at(2), Value: 0},
		dbcloudtest.MetricSample{Value: 300}, // now: minute 10
	)
	if err != nil {
		t.Fatal(err)
	}
	var got []series
	send(t, srv, "POST", "/projects/"+srv.ProjectID+"/services/"+svc.ServiceID+"/metrics/series",
		`{"name": "`+cpuSeries+`", "from": "`+at(0).Format(time.RFC3339)+`", "to": "`+at(11).Format(time.RFC3339)+`"}`, 200, &got)
	if len(got) != 1 || got[0].Labels["role"] != "primary" || len(got[0].Data) != 11 {
		t.Fatalf("answer %+v", got)
	}
	for i, p := range got[0].Data {
		var want *float64
		switch i {
		case 0, 2, 10:
			want = new(map[int]float64{0: 250, 2: 0, 10: 300}[i])
		}
		if !p.Time.Equal(at(i)) || (p.Value == nil) != (want == nil) || (want != nil && *p.Value != *want) {
			t.Errorf("bucket %d: %v %v, want %v %v", i, p.Time, p.Value, at(i), want)
		}
	}

	checkUserError(t, "unknown service", srv.RecordMetrics("nope", cpuSeries))
	checkUserError(t, "unknown series", srv.RecordMetrics(svc.ServiceID, "cpu"))
	checkUserError(t, "negative node", srv.RecordMetrics(svc.ServiceID, cpuSeries, dbcloudtest.MetricSample{Node: -1}))
	checkUserError(t, "NaN", srv.RecordMetrics(svc.ServiceID, cpuSeries, dbcloudtest.MetricSample{Value: math.NaN()}))
}
