package deploy_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/deploy"
)

// benchStep is how long each status lasts, in real time, on the servers of
// the fleet benchmark; benchPoll the waits' first poll interval (growing to
// benchPollLongest). The same settings serve the fleet and the service
// alone it is compared with.
const (
	benchStep        = 200 * time.Millisecond
	benchPoll        = 100 * time.Millisecond
	benchPollLongest = time.Second
)

// benchFleet is n services, each with one replica set.
func benchFleet(n int) *deploy.State {
	st := &deploy.State{}
	for i := range n {
		name := fmt.Sprintf("svc-%03d", i)
		st.Services = append(st.Services, deploy.Service{Name: name,
			ReplicaSets: []deploy.ReplicaSet{{Name: name + "-read", Nodes: 1, CPUMillis: 500, MemoryGBs: 2}}})
	}
	return st
}

// benchApply applies st on a new real-time server and returns how long it
// took, the requests it sent by method, and the requests of a second run.
func benchApply(b *testing.B, st *deploy.State, parallelism int) (took time.Duration, sent map[string]int, rerun int) {
	b.Helper()
	srv := dbcloudtest.NewServer(dbcloudtest.WithRealTime(), dbcloudtest.WithStep(benchStep))
	defer srv.Close()
	c := srv.Client(dbcloud.WithDefaultPollInterval(benchPoll, benchPollLongest))
	start := time.Now()
	if _, err := st.Apply(b.Context(), c, deploy.WithParallelism(parallelism)); err != nil {
		b.Fatal(err)
	}
	took = time.Since(start)
	sent = byMethod(srv, 0)
	mark := len(srv.Requests())
	if _, err := st.Apply(b.Context(), c); err != nil {
		b.Fatal(err)
	}
	return took, sent, len(srv.Requests()) - mark
}

// A 100-service fleet, each service with one replica set, applied to an
// empty project, against one such service applied alone on the same
// server settings: the fleet's requests (its 200 creates, and the reads:
// the plan's, create recovery's and the waits' polls, which the waits
// share), its wall time as a multiple of the one service's, and the
// requests of a second run, which finds everything done (the plan's
// reads: 1 service list and 100 set lists). go test -run X -bench
// FleetApply -benchtime 3x ./deploy
func BenchmarkFleetApply(b *testing.B) {
	for _, parallelism := range []int{deploy.DefaultParallelism, 100} {
		b.Run(fmt.Sprintf("parallelism=%d", parallelism), func(b *testing.B) {
			var ratio, requests, creates, gets, rerun, aloneSecs, fleetSecs float64
			for b.Loop() {
				alone, _, _ := benchApply(b, benchFleet(1), parallelism)
				took, sent, again := benchApply(b, benchFleet(100), parallelism)
				ratio += float64(took) / float64(alone)
				aloneSecs += alone.Seconds()
				fleetSecs += took.Seconds()
				for _, n := range sent {
					requests += float64(n)
				}
				creates += float64(sent[http.MethodPost])
				gets += float64(sent[http.MethodGet])
				rerun += float64(again)
			}
			n := float64(b.N)
			b.ReportMetric(ratio/n, "x-one-service")
			b.ReportMetric(aloneSecs/n, "s-one-service")
			b.ReportMetric(fleetSecs/n, "s-fleet")
			b.ReportMetric(requests/n, "requests")
			b.ReportMetric(creates/n, "POSTs")
			b.ReportMetric(gets/n, "GETs")
			b.ReportMetric(rerun/n, "rerun-requests")
		})
	}
}
