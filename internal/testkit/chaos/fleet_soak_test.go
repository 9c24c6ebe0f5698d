package chaos_test

import (
	"flag"
	"os"
	"testing"

	"github.com/dbcloud/dbcloud-go/internal/testkit/chaos"
)

var (
	fleetSeeds    = flag.Int("chaos.fleet-seeds", 3, "fleet soak: how many seeds, from 1")
	fleetServices = flag.Int("chaos.fleet-services", 20, "fleet soak: services in the state")
	fleetRate     = flag.Float64("chaos.fleet-rate", 0.25, "fleet soak: share of requests faulted")
	fleetTimeout  = flag.Duration("chaos.fleet-run-timeout", 0, "fleet soak: each run's deadline (default: DefaultFleetConfig's)")
)

// The fleet workflow of the soak (issue 43): a 20-service fleet applied
// through the fault proxy at 25% faults, and applied again until a run has
// nothing to do, over several seeds: no duplicate, no orphan, nothing
// missing and no lost password. A measurement: it runs only with
// DBCLOUD_MEASURE=1, for example
//
//	DBCLOUD_MEASURE=1 go test -run TestChaosFleet -v ./internal/testkit/chaos -args -chaos.fleet-seeds=5
func TestChaosFleet(t *testing.T) {
	if os.Getenv("DBCLOUD_MEASURE") != "1" {
		t.Skip("a measurement: set DBCLOUD_MEASURE=1")
	}
	for seed := 1; seed <= *fleetSeeds; seed++ {
		cfg := chaos.DefaultFleetConfig()
		cfg.Seed, cfg.Services, cfg.Rate = uint64(seed), *fleetServices, *fleetRate
		if *fleetTimeout > 0 {
			cfg.RunTimeout = *fleetTimeout
		}
		rep, err := chaos.RunFleet(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Log(rep)
		if !rep.OK() {
			t.Errorf("seed %d:\n%s", seed, rep)
		}
	}
}
