package chaos

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// Config sets a soak's size, its fault stream and the client's settings.
type Config struct {
	Seed      uint64        // seeds the fault stream and the fake's ids
	Rate      float64       // share of requests faulted, 0 to 1
	Workers   int           // workflows running at a time
	Duration  time.Duration // no workflow starts after this much time
	Workflows int           // no more workflows than this are started; 0 = no bound

	CallTimeout time.Duration // every SDK call's own deadline
	// Tolerance is how much later than its deadline a call may return
	// before it counts as past its deadline: the time to notice the
	// deadline and unwind, on a loaded machine.
	Tolerance time.Duration
	// Drain bounds how long, after Duration, running workflows (and their
	// cleanups) may take to end. Past it the soak reports the calls still
	// running, cancels them and ends.
	Drain time.Duration

	Step               time.Duration // how long each status of the fake lasts (real clock)
	SpikeMin, SpikeMax time.Duration // how long a latency spike holds a request
	// HeldShare of the spikes hold a request between HeldMin and HeldMax
	// instead; the deadline regime makes them longer than CallTimeout, so
	// that the caller sees a held connection: no answer, no reset. 0: none.
	HeldShare                  float64
	HeldMin, HeldMax           time.Duration
	RetryAfter                 time.Duration // the Retry-After of injected 429s
	RetryWaitMin, RetryWaitMax time.Duration // the client's WithRetryWait
	PollMin, PollMax           time.Duration // the waits' WithPollInterval
	// CreateSettle is the client's WithCreateSettle. The workflows' cleanup
	// also waits it out after a create failed with ErrMaybeCreated naming
	// no resource, before it looks for the resource by name.
	CreateSettle time.Duration
	// Recovery sets the client's WithCreateRecovery.
	Recovery bool
	// AttemptTimeout is the client's WithAttemptTimeout. The soak's
	// http.Client is the SDK's default one (a clone of http.DefaultTransport
	// with all idle connections allowed to the one host, no http.Client
	// Timeout) with the call number added as a header for the proxy: keep
	// both equal to the SDK's defaults, so the soak measures what users get.
	AttemptTimeout time.Duration
}

// DefaultConfig is the soak of the issue: a quarter of the requests faulted,
// 8 workflows at a time for 60 s, 10 s per call, retry waits of 10 ms to
// 1.5 s, spikes of 0.5 to 3 s, 429s asking for 1 s.
func DefaultConfig() Config {
	return Config{
		Seed: 1, Rate: 0.25, Workers: 8, Duration: 60 * time.Second,
		CallTimeout: 10 * time.Second, Tolerance: 250 * time.Millisecond, Drain: 60 * time.Second,
		Step: 50 * time.Millisecond, SpikeMin: 500 * time.Millisecond, SpikeMax: 3 * time.Second,
		RetryAfter: time.Second, RetryWaitMin: 10 * time.Millisecond, RetryWaitMax: 1500 * time.Millisecond,
		PollMin: 25 * time.Millisecond, PollMax: 250 * time.Millisecond,
		CreateSettle: dbcloud.DefaultCreateSettle, Recovery: true, AttemptTimeout: dbcloud.DefaultAttemptTimeout,
	}
}

// DeadlineConfig is the regime of issue #16: DefaultConfig with a 3 s
// deadline per call and half of the latency spikes held past it (3.5 to
// 10 s, so that the caller gives up first: a held connection), the other
// half short (0.5 to 2.5 s). A quarter of the requests faulted, 8 workers,
// create recovery on.
func DeadlineConfig() Config {
	cfg := DefaultConfig()
	cfg.CallTimeout = 3 * time.Second
	cfg.SpikeMin, cfg.SpikeMax = 500*time.Millisecond, 2500*time.Millisecond
	cfg.HeldShare, cfg.HeldMin, cfg.HeldMax = 0.5, 3500*time.Millisecond, 10*time.Second
	return cfg
}

// Run runs soaks, one for each of cfgs and all at once: for each, the fake
// behind the recorder, the proxy in front of it, cfg.Workers concurrent
// workflows through one client with create recovery, until cfg.Duration or
// cfg.Workflows, then the end checks. The goroutine check counts the
// goroutines of the process: soaks run together are checked together, once
// all have ended, and each report carries that count. An error means a soak
// could not be set up; what the soaks found is in the reports, in the order
// of cfgs.
func Run(cfgs ...Config) ([]*Report, error) {
	goroutines := runtime.NumGoroutine()
	runs := make([]*soakRun, len(cfgs))
	errs := make([]error, len(cfgs))
	var wg sync.WaitGroup
	for i, cfg := range cfgs {
		wg.Go(func() { runs[i], errs[i] = run(cfg) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	counted := true
	for _, r := range runs {
		counted = counted && r.end.ended
	}
	var leaked int
	var stacks []byte
	if counted {
		leaked, stacks = dbcloudtest.GoroutinesLeft(goroutines)
	}
	reps := make([]*Report, len(runs))
	for i, r := range runs {
		r.end.counted, r.end.together, r.end.leaked = counted, len(runs), leaked
		r.rep.Stacks = stacks
		r.s.fill(r.rep, r.backend, r.end)
		reps[i] = r.rep
	}
	return reps, nil
}

// soakRun is one soak of Run once its workflows have ended and its servers
// closed, before the end checks.
type soakRun struct {
	s       *soak
	backend *Backend
	rep     *Report
	end     ending
}

// run runs the soak of cfg up to its end checks, which need the goroutine
// count of every soak run with it.
func run(cfg Config) (*soakRun, error) {
	start := time.Now()

	stream := NewStream(cfg.Seed, cfg.Rate, cfg.SpikeMin, cfg.SpikeMax)
	if cfg.HeldShare > 0 {
		stream.Held(cfg.HeldShare, cfg.HeldMin, cfg.HeldMax)
	}
	backend, proxy, err := startServers(cfg.Step, cfg.Seed, stream.Next, cfg.RetryAfter)
	if err != nil {
		return nil, err
	}
	defer backend.Close()
	defer proxy.Close()
	logs := &logStore{}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = tr.MaxIdleConns
	opts := []dbcloud.Option{
		dbcloud.WithBaseURL(proxy.URL),
		dbcloud.WithHTTPClient(&http.Client{Transport: tagging{tr}}),
		dbcloud.WithAttemptTimeout(cfg.AttemptTimeout),
		dbcloud.WithRetryWait(cfg.RetryWaitMin, cfg.RetryWaitMax),
		dbcloud.WithLogger(slog.New(logs.handler())),
		dbcloud.WithCreateSettle(cfg.CreateSettle),
	}
	if cfg.Recovery {
		opts = append(opts, dbcloud.WithCreateRecovery())
	}
	client, err := dbcloud.NewClient(backend.APIKey, opts...)
	if err != nil {
		return nil, err
	}

	root, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := &soak{
		cfg: cfg, client: client, project: backend.ProjectID, root: root,
		calls:  newCalls(cfg.CallTimeout, cfg.Tolerance),
		ledger: &ledger{known: map[string]bool{}},
		poll:   dbcloud.WithPollInterval(cfg.PollMin, cfg.PollMax),
	}
	running, ended := s.workers(s.workflow, start.Add(cfg.Duration), start.Add(cfg.Duration+cfg.Drain), grace, cancel, proxy.Close)

	client.CloseIdleConnections()
	tr.CloseIdleConnections()
	var end ending
	if ended {
		// What lands late must be seen by the checks. A request is held
		// at most SpikeMax, then forwarded like any call.
		ctx, cancel := context.WithTimeout(context.Background(), max(cfg.SpikeMax, cfg.HeldMax)+cfg.CallTimeout)
		end.drainErr = proxy.Drain(ctx)
		cancel()
	}
	rep := &Report{Config: cfg, Running: running, Proxy: proxy.Counts()}
	end.final = backend.fake.Services() // the model itself: neither the proxy nor the SDK take part
	proxy.Close()
	backend.Close()
	rep.Elapsed = time.Since(start)

	end.given, end.records, end.ended = proxy.Passwords(), logs.snapshot(), ended
	end.attempts = proxy.Attempts
	return &soakRun{s: s, backend: backend, rep: rep, end: end}, nil
}

// soak is the state the workflows share.
type soak struct {
	cfg     Config
	client  *dbcloud.Client
	project string
	root    context.Context
	calls   *calls
	ledger  *ledger
	poll    dbcloud.WaitOption
}

// grace is how long the soak waits for its workflows after each step of
// stopping them past the hard bound.
const grace = 5 * time.Second

// workflow runs workflow number n.
func (s *soak) workflow(n int) {
	w := &workflow{soak: s, n: n, name: fmt.Sprintf("soak-%d-%d", s.cfg.Seed, n)}
	w.run()
}

// workers calls run with workflow numbers, cfg.Workers at a time, starting
// new ones until lastStart (or the count bound), and waits for them until
// hard. Past hard it takes note of the calls still running, and stops them
// in two steps (cancel, which ends their contexts, then teardown, which
// closes every connection), waiting up to patience after each. ended
// reports whether every run returned.
func (s *soak) workers(run func(n int), lastStart, hard time.Time, patience time.Duration, cancel, teardown func()) (running []Call, ended bool) {
	var started atomic.Int64
	next := func() (int, bool) {
		if time.Now().After(lastStart) || s.root.Err() != nil {
			return 0, false
		}
		n := started.Add(1)
		return int(n), s.cfg.Workflows <= 0 || n <= int64(s.cfg.Workflows)
	}
	var wg sync.WaitGroup
	for range s.cfg.Workers {
		wg.Go(func() {
			for n, ok := next(); ok; n, ok = next() {
				run(n)
			}
		})
	}
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	timer := time.NewTimer(time.Until(hard))
	defer timer.Stop()
	select {
	case <-done:
		return nil, true
	case <-timer.C:
	}
	running = s.calls.stillRunning()
	// A call that ignores its context outlives cancel; one blocked on the
	// network ends when the teardown closes its connection.
	for _, step := range []func(){cancel, teardown} {
		step()
		select {
		case <-done:
			return running, true
		case <-time.After(patience):
		}
	}
	return running, false
}
