package dbcloud_test

import (
	"context"
	"fmt"
	"log"
	"slices"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// A series over a window in buckets of a minute, where one minute has no
// sample: its point is a gap (Valid false), not a zero. The test server
// is given the samples, so that the values are known.
func ExampleMetricsClient_Query() {
	start := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	srv := dbcloudtest.NewServer(dbcloudtest.WithStartTime(start))
	defer srv.Close()
	client, projectID := srv.Client(), srv.ProjectID
	ctx := context.Background()
	svc, err := client.Services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	const qps = "timescale_cloud_database_qps"
	srv.Advance(10 * time.Minute)
	_ = srv.RecordMetrics(svc.ServiceID, qps,
		dbcloudtest.MetricSample{Time: start.Add(0 * time.Minute), Value: 120},
		dbcloudtest.MetricSample{Time: start.Add(1 * time.Minute), Value: 0},
		// none at 09:02
		dbcloudtest.MetricSample{Time: start.Add(3 * time.Minute), Value: 95.5})

	names, err := client.Metrics.ListSeries(ctx, projectID, svc.ServiceID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("has", qps+":", slices.Contains(names, qps))

	series, err := client.Metrics.Query(ctx, projectID, svc.ServiceID, &dbcloud.MetricsQuery{
		Series:  qps,
		From:    start,
		To:      start.Add(4 * time.Minute),
		Bucket:  time.Minute,
		Filters: []dbcloud.MetricFilter{{Key: "role", Value: "primary"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range series {
		fmt.Println("role:", s.Labels["role"])
		for _, p := range s.Points {
			if !p.Valid {
				fmt.Println(p.Time.Format(time.TimeOnly), "gap")
				continue
			}
			fmt.Println(p.Time.Format(time.TimeOnly), p.Value)
		}
	}
	// Output:
	// has timescale_cloud_database_qps: true
	// role: primary
	// 09:00:00 120
	// 09:01:00 0
	// 09:02:00 gap
	// 09:03:00 95.5
}
