package dbcloudtest_test

import (
	"slices"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/internal/testkit/cpuclock"
)

// The benchmarks measure what a user's test gets through the server with
// WithStep(0): SDK calls per second through one client, and the latency of
// a whole create -> ready -> delete. cpu-us/call is the process's CPU time
// (client and server together) per call: close to the time per call, since
// a call waits for nothing but the work on both sides, and less sensitive
// than ns/op to other work on the machine.
//
//	go test -run '^$' -bench . -benchmem ./dbcloudtest

func BenchmarkGet(b *testing.B) {
	srv := newServer(b)
	c := srv.Client()
	ctx := b.Context()
	svc := createReady(b, c, srv.ProjectID)
	b.ReportAllocs()
	cpu := cpuclock.Now()
	for b.Loop() {
		if _, err := c.Services.Get(ctx, srv.ProjectID, svc.ServiceID); err != nil {
			b.Fatal(err)
		}
	}
	report(b, cpu, 1)
}

func BenchmarkCreate(b *testing.B) {
	srv := newServer(b)
	c := srv.Client()
	ctx := b.Context()
	req := &dbcloud.CreateServiceRequest{Name: "bench"}
	b.ReportAllocs()
	cpu := cpuclock.Now()
	for b.Loop() {
		if _, err := c.Services.Create(ctx, srv.ProjectID, req); err != nil {
			b.Fatal(err)
		}
	}
	report(b, cpu, 1)
}

// BenchmarkAllLogs reads a history of 10,000 entries (20 pages) per
// iteration.
func BenchmarkAllLogs(b *testing.B) {
	const entries = 10_000
	srv := newServer(b)
	c := srv.Client()
	ctx := b.Context()
	svc := createReady(b, c, srv.ProjectID)
	n := 0
	for range c.Services.AllLogs(ctx, srv.ProjectID, svc.ServiceID, nil) {
		n++
	}
	if err := srv.SeedLogs(svc.ServiceID, entries-n); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	cpu := cpuclock.Now()
	for b.Loop() {
		n = 0
		for _, err := range c.Services.AllLogs(ctx, srv.ProjectID, svc.ServiceID, nil) {
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != entries {
			b.Fatalf("%d entries, want %d", n, entries)
		}
	}
	b.ReportMetric(float64(b.N*entries)/b.Elapsed().Seconds(), "entries/s")
	report(b, cpu, entries/500)
}

// BenchmarkLifecycle runs a whole create -> wait for READY -> delete ->
// wait for the deletion per iteration and reports the median besides the
// mean.
func BenchmarkLifecycle(b *testing.B) {
	srv := newServer(b)
	c := srv.Client()
	ctx := b.Context()
	var took []time.Duration
	b.ReportAllocs()
	cpu := cpuclock.Now()
	for b.Loop() {
		start := time.Now()
		svc := createReady(b, c, srv.ProjectID)
		if err := c.Services.Delete(ctx, srv.ProjectID, svc.ServiceID); err != nil {
			b.Fatal(err)
		}
		if err := c.Services.WaitForDeleted(ctx, srv.ProjectID, svc.ServiceID); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "ns-median/lifecycle")
	report(b, cpu, 4)
}

// report reports SDK calls per second and CPU time per call since cpu, for
// perOp calls per iteration.
func report(b *testing.B, cpu cpuclock.Start, perOp int) {
	calls := b.N * perOp
	b.ReportMetric(float64(calls)/b.Elapsed().Seconds(), "calls/s")
	cpu.Report(b, calls, "cpu-us/call")
}
