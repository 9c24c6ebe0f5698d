package chaos_test

import (
	"flag"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/internal/testkit/chaos"
)

// The soak's flags. Their defaults are the soak that CI's measurement
// step runs (DBCLOUD_MEASURE=1, about 20 s); without DBCLOUD_MEASURE and
// with no -chaos flag, go test runs the short soak instead (see short).
// The long one is, for example:
//
//	go test -run 'TestChaosSoak$' -v ./internal/testkit/chaos -args -chaos.duration=60s -chaos.workers=8 -chaos.seed=2 -chaos.min-completion=0.95
//
// and in the regime of issue #16 (3 s per call, half of the spikes held
// past it), with and without create recovery:
//
//	go test -run 'TestChaosSoak$' -v ./internal/testkit/chaos -args -chaos.regime=deadline -chaos.duration=60s -chaos.workers=8 -chaos.seed=1
//	go test -run 'TestChaosSoak$' -v ./internal/testkit/chaos -args -chaos.regime=deadline -chaos.duration=60s -chaos.workers=8 -chaos.seed=1 -chaos.recovery=false
//
// -chaos.regime picks the defaults (classic: chaos.DefaultConfig, deadline:
// chaos.DeadlineConfig); the flags below it, when given, override them.
var (
	soakRegime     = flag.String("chaos.regime", "classic", "classic (10 s per call, spikes 0.5-3 s) or deadline (issue #16: 3 s per call, half of the spikes held 3.5-10 s)")
	soakSeed       = flag.Uint64("chaos.seed", 1, "seed of the fault stream")
	soakRate       = flag.Float64("chaos.rate", 0.25, "share of requests faulted")
	soakWorkers    = flag.Int("chaos.workers", 16, "workflows running at a time")
	soakDuration   = flag.Duration("chaos.duration", 12*time.Second, "no workflow starts after this")
	soakWorkflows  = flag.Int("chaos.workflows", 0, "no more workflows than this; 0 = no bound")
	soakCompletion = flag.Float64("chaos.min-completion", 0.85, "fail below this share of completed workflows (deadline regime: only when given)")
	soakSettle     = flag.Duration("chaos.settle", dbcloud.DefaultCreateSettle, "the client's WithCreateSettle")
	soakRecovery   = flag.Bool("chaos.recovery", true, "the client's WithCreateRecovery")
	soakDeadline   = flag.Duration("chaos.deadline", 0, "every call's deadline (default: the regime's)")
	soakSpikeMin   = flag.Duration("chaos.spike-min", 0, "shortest latency spike (default: the regime's)")
	soakSpikeMax   = flag.Duration("chaos.spike-max", 0, "longest latency spike (default: the regime's)")
	soakHeldShare  = flag.Float64("chaos.held-share", 0, "share of the spikes held HeldMin to HeldMax instead (default: the regime's)")
	soakHeldMin    = flag.Duration("chaos.held-min", 0, "shortest held spike (default: the regime's)")
	soakHeldMax    = flag.Duration("chaos.held-max", 0, "longest held spike (default: the regime's)")
)

// soakConfig is the configuration the flags ask for, and whether the
// completion threshold applies.
func soakConfig(t *testing.T) (chaos.Config, bool) {
	set := chaosFlags()
	var cfg chaos.Config
	switch *soakRegime {
	case "classic":
		cfg = chaos.DefaultConfig()
	case "deadline":
		cfg = chaos.DeadlineConfig()
	default:
		t.Fatalf("-chaos.regime=%q: want classic or deadline", *soakRegime)
	}
	cfg.Seed, cfg.Rate, cfg.Workers = *soakSeed, *soakRate, *soakWorkers
	cfg.Duration, cfg.Workflows, cfg.CreateSettle = *soakDuration, *soakWorkflows, *soakSettle
	cfg.Recovery = *soakRecovery
	overrides := []struct {
		name string
		dst  *time.Duration
		val  time.Duration
	}{
		{"chaos.deadline", &cfg.CallTimeout, *soakDeadline},
		{"chaos.spike-min", &cfg.SpikeMin, *soakSpikeMin},
		{"chaos.spike-max", &cfg.SpikeMax, *soakSpikeMax},
		{"chaos.held-min", &cfg.HeldMin, *soakHeldMin},
		{"chaos.held-max", &cfg.HeldMax, *soakHeldMax},
	}
	for _, o := range overrides {
		if set[o.name] {
			*o.dst = o.val
		}
	}
	if set["chaos.held-share"] {
		cfg.HeldShare = *soakHeldShare
	}
	if shortRun() {
		cfg = short(cfg)
	}
	return cfg, *soakRegime == "classic" || set["chaos.min-completion"]
}

// measuring is set by DBCLOUD_MEASURE=1, as CI's measurement step sets it:
// the soaks then run at the size their figures are stated for.
var measuring = os.Getenv("DBCLOUD_MEASURE") != ""

// short is cfg as the default run of go test ./... soaks it: 2 s of
// starts, with the waits of the workflows, the server and the proxy a
// tenth as long (latency spikes of 50 to 300 ms, the fake's step 5 ms,
// retry waits and polling, the create settle period of 500 ms, still
// longer than the longest spike, after which a late create lands), so that
// a workflow meets as many faults as at full length in a fraction of the
// time: a few seconds a soak rather than 15 to 20. What does not scale
// stays: the tolerance past a deadline (a machine's load), 429s'
// Retry-After of 1 s (whole seconds on the wire), and the SDK's own
// bounds, such as the jitter of a wait's first poll (up to 250 ms); a
// call's deadline is 5 s (classic: room for a few of those Retry-Afters)
// and 1.5 s (deadline regime, whose held spikes, 1.6 to 3 s, still outlast
// it).
func short(cfg chaos.Config) chaos.Config {
	for _, d := range []*time.Duration{&cfg.Step, &cfg.SpikeMin, &cfg.SpikeMax,
		&cfg.RetryWaitMin, &cfg.PollMin, &cfg.PollMax, &cfg.CreateSettle} {
		*d /= 10
	}
	cfg.Duration, cfg.CallTimeout = 2*time.Second, 5*time.Second
	if cfg.HeldShare > 0 {
		cfg.CallTimeout, cfg.HeldMin, cfg.HeldMax = 1500*time.Millisecond, 1600*time.Millisecond, 3*time.Second
	}
	return cfg
}

// TestChaosSoak runs deploy workflows through a fault-injecting proxy and
// fails on any duplicate, unknown leftover, call past its deadline, leaked
// goroutine or leaked secret, and below the completion threshold. -v prints
// the report. The short soak of the default run (see short) runs at the
// same time as TestChaosSoakDeadline's short one, which it checks too: the
// two wait on their own servers' real time, not on the CPU, so that
// together they take about as long as one.
func TestChaosSoak(t *testing.T) {
	skipShort(t)
	cfg, threshold := soakConfig(t)
	if !shortRun() {
		reps, err := chaos.Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		checkSoak(t, reps[0], threshold)
		return
	}
	reps, err := chaos.Run(cfg, deadlineConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Run("classic", func(t *testing.T) { checkSoak(t, reps[0], threshold) })
	t.Run("deadline", func(t *testing.T) { checkDeadlineSoak(t, reps[1]) })
}

// TestChaosSoakDeadline is CI's run of the regime of issue #16: 10 s,
// 8 workers, 3 s per call, half of the spikes held past it, under
// DBCLOUD_MEASURE=1. It fails on the invariants only; completion and the
// classes of the failures are reported (-v), since the SDK of today fails
// avoidably in this regime. The default run's short form (short's, 2 s
// and a tenth of every wait) runs with TestChaosSoak's, at the same time.
func TestChaosSoakDeadline(t *testing.T) {
	skipShort(t)
	if *soakRegime != "classic" {
		t.Skip("the long runs select their regime with -chaos.regime and run TestChaosSoak")
	}
	if shortRun() {
		t.Skip("the short form runs in TestChaosSoak, at the same time as its own soak (DBCLOUD_MEASURE=1 runs this one alone, at full length)")
	}
	reps, err := chaos.Run(deadlineConfig())
	if err != nil {
		t.Fatal(err)
	}
	checkDeadlineSoak(t, reps[0])
}

// chaosFlags are the -chaos flags given.
func chaosFlags() map[string]bool {
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) {
		if strings.HasPrefix(f.Name, "chaos.") {
			set[f.Name] = true
		}
	})
	return set
}

// shortRun is whether the soaks run short: go test's default run, without
// DBCLOUD_MEASURE and with no -chaos flag.
func shortRun() bool { return !measuring && len(chaosFlags()) == 0 }

// deadlineConfig is TestChaosSoakDeadline's soak: DeadlineConfig for 10 s
// with the seed of -chaos.seed, short unless measuring.
func deadlineConfig() chaos.Config {
	cfg := chaos.DeadlineConfig()
	cfg.Duration, cfg.Seed = 10*time.Second, *soakSeed
	if !measuring {
		cfg = short(cfg)
	}
	return cfg
}

// checkSoak logs rep and fails t on its invariants and, when threshold,
// below the completion asked for.
func checkSoak(t *testing.T, rep *chaos.Report, threshold bool) {
	t.Helper()
	t.Log("\n" + rep.String())
	checkInvariants(t, rep)
	if got := rep.Completion(); threshold && got < *soakCompletion {
		t.Errorf("%d of %d workflows completed (%.1f%%), want at least %.0f%%", rep.Completed, rep.Run, 100*got, 100**soakCompletion)
	}
}

// checkDeadlineSoak logs rep and the classes of its failures, and fails t
// on its invariants.
func checkDeadlineSoak(t *testing.T, rep *chaos.Report) {
	t.Helper()
	t.Log("\n" + rep.String())
	byClass, avoidable := rep.Classes()
	t.Logf("%d of %d workflows completed; %d failures avoidable; by class: %v", rep.Completed, rep.Run, avoidable, byClass)
	checkInvariants(t, rep)
}

func checkInvariants(t *testing.T, rep *chaos.Report) {
	t.Helper()
	for _, ch := range rep.Broken() {
		t.Errorf("%s: %d: %s", ch.Name, ch.Count, ch.Detail)
	}
	if len(rep.Stacks) > 0 {
		t.Logf("goroutines:\n%s", rep.Stacks)
	}
}

// skipShort skips a soak under -short: a run that asks for short tests
// (the newest Go release in .ci/run, after the full run with the race
// detector) wants the rest.
func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("a soak: runs without -short")
	}
}
