package chaos

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/deploy"
)

// FleetConfig is a fleet soak: a deploy.State of Services services (each
// with its pooler on and one replica set, the first with a fork too),
// applied through the fault proxy and applied again, as a pipeline
// re-runs a failed deploy, until a run has nothing to do.
type FleetConfig struct {
	Seed     uint64  // seeds the fault stream and the fake's ids
	Rate     float64 // share of requests faulted, 0 to 1
	Services int
	// MaxRuns bounds the runs; a fleet not converged by then fails the
	// soak.
	MaxRuns int
	// RunTimeout is each run's deadline.
	RunTimeout                 time.Duration
	Step                       time.Duration // how long each status of the fake lasts (real clock)
	SpikeMin, SpikeMax         time.Duration // how long a latency spike holds a request
	RetryAfter                 time.Duration // the Retry-After of injected 429s
	RetryWaitMin, RetryWaitMax time.Duration // the client's WithRetryWait
	PollMin, PollMax           time.Duration // the waits' WithPollInterval
	CreateSettle               time.Duration // the client's WithCreateSettle
}

// DefaultFleetConfig is the fleet soak of issue 43: 20 services at 25%
// faults, at most 30 runs of a minute each.
func DefaultFleetConfig() FleetConfig {
	return FleetConfig{
		Seed: 1, Rate: 0.25, Services: 20, MaxRuns: 30, RunTimeout: time.Minute,
		Step: 50 * time.Millisecond, SpikeMin: 100 * time.Millisecond, SpikeMax: time.Second,
		RetryAfter: 100 * time.Millisecond, RetryWaitMin: 10 * time.Millisecond, RetryWaitMax: 500 * time.Millisecond,
		PollMin: 25 * time.Millisecond, PollMax: 250 * time.Millisecond, CreateSettle: time.Second,
	}
}

// FleetReport is what a fleet soak found.
type FleetReport struct {
	Config FleetConfig
	// Runs is how many runs it took, the last one finding nothing to do
	// when Converged.
	Runs      int
	Converged bool
	// Failed is how many runs ended with an error, and FirstErrors the
	// first line of each of the first few.
	Failed      int
	FirstErrors []string
	Proxy       ProxyCounts
	// What the server holds at the end, against the state: a name held
	// by more than one live resource, a live resource the state does not
	// name, one it names that is missing, and a live service or fork
	// whose password (as the server last set it) no password hook got.
	Duplicates, Orphans, Missing, LostPasswords []string
	RecordErrors                                []error
	Elapsed                                     time.Duration
}

// OK holds when the fleet converged with no duplicate, no orphan, nothing
// missing and no password lost.
func (r *FleetReport) OK() bool {
	return r.Converged && len(r.Duplicates)+len(r.Orphans)+len(r.Missing)+len(r.LostPasswords)+len(r.RecordErrors) == 0
}

// String is the report in a few lines.
func (r *FleetReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "fleet soak: %d services, seed %d, %.0f%% faults: %d run(s), converged %v, %d failed run(s), in %v\n",
		r.Config.Services, r.Config.Seed, 100*r.Config.Rate, r.Runs, r.Converged, r.Failed, r.Elapsed.Round(time.Millisecond))
	fmt.Fprintf(&b, "proxy: %+v\n", r.Proxy)
	fmt.Fprintf(&b, "duplicates %v, orphans %v, missing %v, lost passwords %v, record errors %v\n",
		r.Duplicates, r.Orphans, r.Missing, r.LostPasswords, r.RecordErrors)
	for _, e := range r.FirstErrors {
		fmt.Fprintf(&b, "  a failed run: %s\n", e)
	}
	return b.String()
}

// fleetState is the soak's state of n services.
func fleetState(n int) *deploy.State {
	st := &deploy.State{}
	for i := range n {
		name := fmt.Sprintf("fleet-%02d", i)
		st.Services = append(st.Services, deploy.Service{Name: name, Pooler: new(true),
			ReplicaSets: []deploy.ReplicaSet{{Name: name + "-read", Nodes: 1, CPUMillis: 500, MemoryGBs: 2}}})
	}
	st.Services[0].Forks = []deploy.Fork{{Name: "fleet-00-copy", Strategy: dbcloud.ForkNow}}
	return st
}

// RunFleet runs a fleet soak. An error means it could not be set up; what
// it found is in the report.
func RunFleet(cfg FleetConfig) (*FleetReport, error) {
	start := time.Now()
	backend, proxy, err := startServers(cfg.Step, cfg.Seed, NewStream(cfg.Seed, cfg.Rate, cfg.SpikeMin, cfg.SpikeMax).Next, cfg.RetryAfter)
	if err != nil {
		return nil, err
	}
	defer backend.Close()
	defer proxy.Close()
	tr := http.DefaultTransport.(*http.Transport).Clone()
	defer tr.CloseIdleConnections()
	client, err := dbcloud.NewClient(backend.APIKey, dbcloud.WithBaseURL(proxy.URL), dbcloud.WithProjectID(backend.ProjectID),
		dbcloud.WithHTTPClient(&http.Client{Transport: tr}), dbcloud.WithRetryWait(cfg.RetryWaitMin, cfg.RetryWaitMax),
		dbcloud.WithCreateSettle(cfg.CreateSettle))
	if err != nil {
		return nil, err
	}
	defer client.CloseIdleConnections()

	rep := &FleetReport{Config: cfg}
	st := fleetState(cfg.Services)
	var mu sync.Mutex
	got := map[string]string{} // each service's last password a hook got, by id
	keep := deploy.WithPasswords(func(p deploy.Password) error {
		mu.Lock()
		defer mu.Unlock()
		got[p.ServiceID] = string(p.Password)
		return nil
	})
	waits := deploy.WithWaitOptions(dbcloud.WithPollInterval(cfg.PollMin, cfg.PollMax))
	for rep.Runs < cfg.MaxRuns && !rep.Converged {
		rep.Runs++
		ctx, cancel := context.WithTimeout(context.Background(), cfg.RunTimeout)
		res, err := st.Apply(ctx, client, keep, waits)
		cancel()
		switch {
		case err != nil:
			rep.Failed++
			if len(rep.FirstErrors) < 5 {
				first, _, _ := strings.Cut(err.Error(), "\n")
				rep.FirstErrors = append(rep.FirstErrors, first)
			}
		case !res.Changed():
			rep.Converged = true
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.SpikeMax+cfg.RunTimeout)
	_ = proxy.Drain(ctx) // what lands late must be seen by the checks
	cancel()
	rep.Proxy = proxy.Counts()
	rep.checkFleet(st, backend.fake.Services(), backend.CurrentPasswords(), got)
	rep.RecordErrors = backend.RecordErrors()
	rep.Elapsed = time.Since(start)
	return rep, nil
}

// checkFleet compares the server's services with the state.
func (r *FleetReport) checkFleet(st *deploy.State, final []dbcloud.Service, current, got map[string]string) {
	want, services := map[string]bool{}, map[string]bool{}
	for _, svc := range st.Services {
		want[svc.Name], services[svc.Name] = true, true
		for _, f := range svc.Forks {
			want[f.Name] = true
		}
	}
	live := map[string]int{}
	for _, svc := range final {
		if svc.Status == dbcloud.StatusDeleting || svc.Status == dbcloud.StatusDeleted {
			continue
		}
		live[svc.Name]++
		if !want[svc.Name] {
			r.Orphans = append(r.Orphans, svc.Name+" ("+svc.ServiceID+")")
		}
		if got[svc.ServiceID] != current[svc.ServiceID] {
			r.LostPasswords = append(r.LostPasswords, svc.Name+" ("+svc.ServiceID+")")
		}
		sets := map[string]int{}
		for _, rs := range svc.ReadReplicaSets {
			sets[rs.Name]++
			if rs.Name != svc.Name+"-read" {
				r.Orphans = append(r.Orphans, "replica set "+rs.Name+" of "+svc.Name)
			}
		}
		if services[svc.Name] && sets[svc.Name+"-read"] == 0 {
			r.Missing = append(r.Missing, "replica set "+svc.Name+"-read of "+svc.Name)
		}
		for name, n := range sets {
			if n > 1 {
				r.Duplicates = append(r.Duplicates, "replica set "+name+" of "+svc.Name)
			}
		}
	}
	for name := range want {
		switch {
		case live[name] == 0:
			r.Missing = append(r.Missing, name)
		case live[name] > 1:
			r.Duplicates = append(r.Duplicates, name)
		}
	}
	slices.Sort(r.Missing)
	slices.Sort(r.Duplicates)
}
