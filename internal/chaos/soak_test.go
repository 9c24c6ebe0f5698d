package chaos_test

import (
	"flag"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/internal/chaos"
)

// The soak's flags. The defaults are the short soak that CI runs inside
// go test ./... (about 20 s); the long one is, for example:
//
//	go test -run TestChaosSoak -v ./internal/chaos -args -chaos.duration=60s -chaos.workers=8 -chaos.seed=2 -chaos.min-completion=0.95
var (
	soakSeed       = flag.Uint64("chaos.seed", 1, "seed of the fault stream")
	soakRate       = flag.Float64("chaos.rate", 0.25, "share of requests faulted")
	soakWorkers    = flag.Int("chaos.workers", 16, "workflows running at a time")
	soakDuration   = flag.Duration("chaos.duration", 12*time.Second, "no workflow starts after this")
	soakWorkflows  = flag.Int("chaos.workflows", 0, "no more workflows than this; 0 = no bound")
	soakCompletion = flag.Float64("chaos.min-completion", 0.85, "fail below this share of completed workflows")
	soakSettle     = flag.Duration("chaos.settle", dbcloud.DefaultCreateSettle, "the client's WithCreateSettle")
)

// TestChaosSoak runs deploy workflows through a fault-injecting proxy and
// fails on any duplicate, unknown leftover, call past its deadline, leaked
// goroutine or leaked secret, and below the completion threshold. -v prints
// the report.
func TestChaosSoak(t *testing.T) {
	cfg := chaos.DefaultConfig()
	cfg.Seed, cfg.Rate, cfg.Workers = *soakSeed, *soakRate, *soakWorkers
	cfg.Duration, cfg.Workflows, cfg.CreateSettle = *soakDuration, *soakWorkflows, *soakSettle
	rep, err := chaos.Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + rep.String())
	for _, ch := range rep.Broken() {
		t.Errorf("%s: %d: %s", ch.Name, ch.Count, ch.Detail)
	}
	if len(rep.Stacks) > 0 {
		t.Logf("goroutines:\n%s", rep.Stacks)
	}
	if got := rep.Completion(); got < *soakCompletion {
		t.Errorf("%d of %d workflows completed (%.1f%%), want at least %.0f%%", rep.Completed, rep.Run, 100*got, 100**soakCompletion)
	}
}
