package dbcloud_test

// Benchmarks of the SDK against raw net/http + encoding/json. Each SDK
// benchmark has a baseline beside it doing the same work by hand against
// the same in-process server, with the same transport settings, so that
// benchstat can compare them as a ratio:
//
//	go test -run '^$' -bench . -benchmem -count 6 . | tee /tmp/bench.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -col '/impl@(baseline sdk)' /tmp/bench.txt
//
// (scripts/benchrounds.sh runs them all in interleaved rounds.) The
// per-call benchmarks run on two nets (benchNets): a loopback socket, and
// the handler called in memory, which prices the client alone. Each also
// runs as impl=paired, the two clients called in turn (internal/testkit/benchpair),
// reporting their ratio: the steadiest figure on a machine whose speed
// drifts.
//
// The server runs in the same process: allocs/op, B/op and allocs/entry
// include its share, which is the same for both sides. On a shared machine,
// compare medians over several counts; sec/op is sensitive to other load,
// cpu-us/op (the process's CPU time per call, client and server) much less.

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/benchpair"
	"github.com/dbcloud/dbcloud-go/internal/testkit/cpuclock"
)

// Sinks keep the compiler from discarding results.
var (
	sinkService  *dbcloud.Service
	sinkServices []dbcloud.Service
	sinkPlain    *plainService
	sinkPlains   []plainService
	sinkInt      int
)

// benchLoop calls call once outside the timing, which also opens the
// connection, and checks its result with check; then it calls it in the
// benchmark loop and keeps the last result in *sink. The SDK and its
// baseline go through the same loop.
func benchLoop[T any](b *testing.B, call func(context.Context) (T, error), check func(T), sink *T) {
	ctx := b.Context()
	v, err := call(ctx)
	if err != nil {
		b.Fatal(err)
	}
	check(v)
	b.ReportAllocs()
	cpu := cpuclock.Now()
	for b.Loop() {
		if v, err = call(ctx); err != nil {
			b.Fatal(err)
		}
	}
	cpu.Report(b, b.N, "cpu-us/op")
	*sink = v
}

// benchPaired measures the SDK's call against the baseline's, the two
// called in turn (impl=paired): it reports sdk-us/op, baseline-us/op and
// their ratio, sdk/baseline.
func benchPaired(b *testing.B, sdk, baseline func(context.Context) error) {
	benchpair.Run(b, benchpair.Call{Name: "sdk", Do: sdk}, benchpair.Call{Name: "baseline", Do: baseline})
}

// benchServiceCall benchmarks a call that returns one service, answered by
// h, on both nets: the SDK's as impl=sdk, the baseline's as impl=baseline.
func benchServiceCall(b *testing.B, h http.Handler,
	sdk func(context.Context, *dbcloud.Client) (*dbcloud.Service, error),
	baseline func(context.Context, *plainClient) (*plainService, error),
) {
	benchNets(b, h, func(b *testing.B, t benchTarget) {
		b.Run("impl=sdk", func(b *testing.B) {
			c := t.sdk(b)
			benchLoop(b, func(ctx context.Context) (*dbcloud.Service, error) { return sdk(ctx, c) },
				func(s *dbcloud.Service) { checkFullService(b, s) }, &sinkService)
		})
		b.Run("impl=baseline", func(b *testing.B) {
			c := t.plain()
			benchLoop(b, func(ctx context.Context) (*plainService, error) { return baseline(ctx, c) },
				func(s *plainService) { checkPlainService(b, s) }, &sinkPlain)
		})
		// impl=paired-unbounded: the SDK without its attempt bound
		// (WithAttemptTimeout(0)), which gives each attempt a context of
		// its own: what the bound costs is the difference.
		for name, opts := range map[string][]dbcloud.Option{
			"paired": nil, "paired-unbounded": {dbcloud.WithAttemptTimeout(0)},
		} {
			b.Run("impl="+name, func(b *testing.B) {
				c, p := t.sdk(b, opts...), t.plain()
				benchPaired(b, func(ctx context.Context) (err error) {
					sinkService, err = sdk(ctx, c)
					return err
				}, func(ctx context.Context) (err error) {
					sinkPlain, err = baseline(ctx, p)
					return err
				})
			})
		}
	})
}

func BenchmarkGetService(b *testing.B) {
	body := benchMarshal(b, benchFullService(0))
	h := benchResponder(http.MethodGet, "/v1/projects/"+benchProject+"/services/"+benchService, http.StatusOK, body)

	benchServiceCall(b, h, func(ctx context.Context, c *dbcloud.Client) (*dbcloud.Service, error) {
		return c.Services.Get(ctx, benchProject, benchService)
	}, func(ctx context.Context, c *plainClient) (*plainService, error) {
		return c.getService(ctx, benchProject, benchService)
	})
}

func BenchmarkListServices(b *testing.B) {
	const n = 100
	list := make([]plainService, n)
	for i := range list {
		list[i] = benchFullService(i)
	}
	body := benchMarshal(b, list)
	h := benchResponder(http.MethodGet, "/v1/projects/"+benchProject+"/services", http.StatusOK, body)

	benchNets(b, h, func(b *testing.B, t benchTarget) {
		b.Run("impl=sdk", func(b *testing.B) {
			c := t.sdk(b)
			benchLoop(b, func(ctx context.Context) ([]dbcloud.Service, error) {
				return c.Services.List(ctx, benchProject)
			}, func(ss []dbcloud.Service) { checkList(b, ss, n, checkFullService) }, &sinkServices)
		})
		b.Run("impl=baseline", func(b *testing.B) {
			c := t.plain()
			benchLoop(b, func(ctx context.Context) ([]plainService, error) {
				return c.listServices(ctx, benchProject)
			}, func(ss []plainService) { checkList(b, ss, n, checkPlainService) }, &sinkPlains)
		})
		b.Run("impl=paired", func(b *testing.B) {
			c, p := t.sdk(b), t.plain()
			benchPaired(b, func(ctx context.Context) (err error) {
				sinkServices, err = c.Services.List(ctx, benchProject)
				return err
			}, func(ctx context.Context) (err error) {
				sinkPlains, err = p.listServices(ctx, benchProject)
				return err
			})
		})
	})
}

// checkList fails unless ss holds n services, each passing check.
func checkList[S any](tb testing.TB, ss []S, n int, check func(testing.TB, *S)) {
	tb.Helper()
	if len(ss) != n {
		tb.Fatalf("got %d services, want %d", len(ss), n)
	}
	for i := range ss {
		check(tb, &ss[i])
	}
}

func BenchmarkCreateService(b *testing.B) {
	created := benchFullService(0)
	created.Status = "QUEUED"
	body := benchMarshal(b, created)
	h := benchResponder(http.MethodPost, "/v1/projects/"+benchProject+"/services", http.StatusAccepted, body)
	req := fullCreateRequest()

	benchServiceCall(b, h, func(ctx context.Context, c *dbcloud.Client) (*dbcloud.Service, error) {
		return c.Services.Create(ctx, benchProject, req)
	}, func(ctx context.Context, c *plainClient) (*plainService, error) {
		return c.createService(ctx, benchProject, req)
	})
}

// BenchmarkContextPerRequest is the cost of the SDK's attempt bound
// measured without the SDK: the hand-written Get with a context of its own
// per request (context.WithCancel of the caller's, cancelled once the body
// is read, as each attempt of the SDK has) against the same Get under the
// caller's context. child/caller is what net/http itself spends on a
// request whose context is new: impl=paired-unbounded of GetService is the
// SDK without it.
func BenchmarkContextPerRequest(b *testing.B) {
	body := benchMarshal(b, benchFullService(0))
	srv := benchServer(b, benchResponder(http.MethodGet,
		"/v1/projects/"+benchProject+"/services/"+benchService, http.StatusOK, body))
	c := newPlainClient(b, srv)
	benchpair.Run(b, benchpair.Call{Name: "child", Do: func(ctx context.Context) (err error) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		sinkPlain, err = c.getService(ctx, benchProject, benchService)
		return err
	}}, benchpair.Call{Name: "caller", Do: func(ctx context.Context) (err error) {
		sinkPlain, err = c.getService(ctx, benchProject, benchService)
		return err
	}})
}

// BenchmarkAllLogs reads 100,000 entries, 200 pages of 500, per op
// (impl=paired: 10 pages).
func BenchmarkAllLogs(b *testing.B) {
	const pages = 200
	const perOp = pages * benchLogPageSize
	srv := benchServer(b, newPreEncodedLogServer(pages))

	// measure runs readAll, which reads the whole history, in the
	// benchmark loop and reports entries/s and allocs/entry besides the
	// usual metrics.
	measure := func(b *testing.B, readAll func() error) {
		if err := readAll(); err != nil { // opens the connection and warms up
			b.Fatal(err)
		}
		b.ReportAllocs()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		entries := 0
		for b.Loop() {
			if err := readAll(); err != nil {
				b.Fatal(err)
			}
			entries += perOp
		}
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(entries)/b.Elapsed().Seconds(), "entries/s")
		b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(entries), "allocs/entry")
	}

	// sdkRead and plainRead read the whole history with each client and
	// return how many entries they read.
	sdkRead := func(ctx context.Context, c *dbcloud.Client) (int, error) {
		n := 0
		for e, err := range c.Services.AllLogs(ctx, benchProject, benchService, nil) {
			if err != nil {
				return n, err
			}
			n++
			sinkInt += len(e.Message)
		}
		return n, nil
	}
	plainRead := func(ctx context.Context, c *plainClient) (int, error) {
		n := 0
		err := c.allLogs(ctx, benchProject, benchService, func(e *plainLogEntry) {
			n++
			sinkInt += len(e.Message)
		})
		return n, err
	}
	// whole is the error of a read of a history of want entries that
	// read n of them.
	whole := func(want int) func(n int, err error) error {
		return func(n int, err error) error {
			if err == nil && n != want {
				err = fmt.Errorf("read %d entries, want %d", n, want)
			}
			return err
		}
	}
	b.Run("impl=sdk", func(b *testing.B) {
		c := benchSDK(b, srv)
		measure(b, func() error { return whole(perOp)(sdkRead(b.Context(), c)) })
	})
	b.Run("impl=baseline", func(b *testing.B) {
		c := newPlainClient(b, srv)
		measure(b, func() error { return whole(perOp)(plainRead(b.Context(), c)) })
	})
	// Paired, on a history of 10 pages (5,000 entries) rather than 200,
	// so that a run holds tens of pairs rather than one or two.
	b.Run("impl=paired", func(b *testing.B) {
		const pages = 10
		srv := benchServer(b, newPreEncodedLogServer(pages))
		all := whole(pages * benchLogPageSize)
		c, p := benchSDK(b, srv), newPlainClient(b, srv)
		benchPaired(b, func(ctx context.Context) error { return all(sdkRead(ctx, c)) },
			func(ctx context.Context) error { return all(plainRead(ctx, p)) })
	})
}

// heapPeak is the heap seen while AllLogs reads a history.
type heapPeak struct {
	entries int
	// base and baseInuse are HeapAlloc and HeapInuse after a full GC,
	// before the read.
	base, baseInuse uint64
	// peakAlloc and peakInuse are the highest HeapAlloc and HeapInuse
	// sampled every heapSampleEvery entries, the GC left to its pacing (at
	// measureGCPercent): they include the garbage of the pages read.
	peakAlloc, peakInuse uint64
	// peakLive is the highest HeapAlloc right after a forced GC, every
	// liveEvery entries: what the read retains.
	peakLive  uint64
	liveEvery int
	elapsed   time.Duration
}

const (
	heapSampleEvery = 250
	// liveSampleEvery is the most entries between two forced GCs: a read
	// of fewer than ten times that many forces one every tenth of it.
	liveSampleEvery = 10_000
	mib             = 1 << 20
	// measureGCPercent is the GOGC of the heap measurement.
	measureGCPercent = 10
)

func (p heapPeak) String() string {
	over := func(v, base uint64) string { return formatMiB(int64(v) - int64(base)) }
	return fmt.Sprintf("%d entries in %v: base HeapAlloc %s, HeapInuse %s; "+
		"peak HeapAlloc +%s, peak HeapInuse +%s (GOGC=%d, sampled every %d entries); "+
		"peak live +%s (after a forced GC every %d entries)",
		p.entries, p.elapsed.Round(time.Millisecond), formatMiB(int64(p.base)), formatMiB(int64(p.baseInuse)),
		over(p.peakAlloc, p.base), over(p.peakInuse, p.baseInuse), measureGCPercent, heapSampleEvery,
		over(p.peakLive, p.base), p.liveEvery)
}

func formatMiB(n int64) string { return fmt.Sprintf("%.2f MiB", float64(n)/mib) }

// startHeapPeak takes the baseline of a measurement of entries entries
// after a full GC.
func startHeapPeak(entries int) heapPeak {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return heapPeak{entries: entries, base: ms.HeapAlloc, baseInuse: ms.HeapInuse,
		peakAlloc: ms.HeapAlloc, peakInuse: ms.HeapInuse, peakLive: ms.HeapAlloc,
		liveEvery: max(min(entries/10, liveSampleEvery), 1)}
}

// sample records the heap after the nth entry read: the heap every
// heapSampleEvery entries, the live heap (after a forced GC) every
// liveEvery. Callers shift n to sample where a reader holds the most.
func (p *heapPeak) sample(n int) {
	var ms runtime.MemStats
	if n%heapSampleEvery == 0 {
		runtime.ReadMemStats(&ms)
		p.peakAlloc = max(p.peakAlloc, ms.HeapAlloc)
		p.peakInuse = max(p.peakInuse, ms.HeapInuse)
	}
	if n%p.liveEvery == 0 {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		p.peakLive = max(p.peakLive, ms.HeapAlloc)
	}
}

// checkHeapFlat fails t unless both reads stayed under 4 MiB above their
// baselines, in the working set (sampled, garbage included) and in what
// they retain (after a forced GC), and the larger read, ten times the
// entries, holds about the same: the slack covers noise and a few bytes a
// page (AllLogs' cursor hashes).
func checkHeapFlat(t *testing.T, small, large heapPeak) {
	t.Helper()
	t.Logf("%v", small)
	t.Logf("%v", large)
	const bound = 4 * mib
	over := func(v, base uint64) int64 { return max(int64(v)-int64(base), 0) }
	for _, p := range []heapPeak{small, large} {
		for _, m := range []struct {
			what string
			d    int64
		}{
			{"peak HeapInuse", over(p.peakInuse, p.baseInuse)},
			{"peak HeapAlloc", over(p.peakAlloc, p.base)},
			{"retained heap", over(p.peakLive, p.base)},
		} {
			if m.d >= bound {
				t.Errorf("%d entries: %s is %s over the baseline, want < 4 MiB", p.entries, m.what, formatMiB(m.d))
			}
		}
	}
	const slack = mib / 2
	if l, s := over(large.peakLive, large.base), over(small.peakLive, small.base); l > 2*s+slack {
		t.Errorf("retained heap grows with the entries read: +%s for %d, +%s for %d", formatMiB(l), large.entries, formatMiB(s), small.entries)
	}
	if l, s := over(large.peakInuse, large.baseInuse), over(small.peakInuse, small.baseInuse); l > 2*s+slack {
		t.Errorf("peak heap in use grows with the entries read: +%s for %d, +%s for %d", formatMiB(l), large.entries, formatMiB(s), small.entries)
	}
}

// checkHeapFlatOver measures n and ten times n of unit (entries, lines)
// with measure, each in a subtest, so that one read's server and
// connections are gone before the next starts; then checkHeapFlat.
func checkHeapFlatOver(t *testing.T, unit string, n int, measure func(t *testing.T, n int) heapPeak) {
	t.Helper()
	var small, large heapPeak
	t.Run(fmt.Sprintf("%s=%d", unit, n), func(t *testing.T) { small = measure(t, n) })
	t.Run(fmt.Sprintf("%s=%d", unit, 10*n), func(t *testing.T) { large = measure(t, 10*n) })
	if !t.Failed() {
		checkHeapFlat(t, small, large)
	}
}

// measureAllLogsHeap reads entries log entries through AllLogs from a
// server that generates each page from its cursor, and samples the heap.
func measureAllLogsHeap(t *testing.T, entries int) heapPeak {
	t.Helper()
	pages := entries / benchLogPageSize
	srv := benchServer(t, &logServer{pages: pages})
	c := benchSDK(t, srv)
	ctx := t.Context()

	// With the default GOGC the runtime lets garbage grow to a 4 MB heap
	// before collecting, whatever AllLogs holds: the sampled peak would
	// measure the pacer. A low GOGC makes it measure the read's working set.
	defer debug.SetGCPercent(debug.SetGCPercent(measureGCPercent))

	p := startHeapPeak(entries)
	start := time.Now()
	n := 0
	var prev time.Time
	for e, err := range c.Services.AllLogs(ctx, benchProject, benchService, nil) {
		if err != nil {
			t.Fatalf("after %d entries: %v", n, err)
		}
		if n > 0 && !e.Timestamp.Before(prev) {
			t.Fatalf("entry %d at %v, not older than the one before (%v)", n, e.Timestamp, prev)
		}
		prev = e.Timestamp
		n++
		p.sample(n + benchLogPageSize/2) // mid-page, while AllLogs holds a page
	}
	p.elapsed = time.Since(start)
	if n != entries {
		t.Fatalf("read %d entries, want %d", n, entries)
	}
	if !prev.Equal(benchLogTime(entries - 1)) {
		t.Fatalf("oldest entry at %v, want %v", prev, benchLogTime(entries-1))
	}
	return p
}

// TestAllLogsPeakHeapIsBounded checks that AllLogs holds one page, not the
// history: the heap it retains stays under 4 MiB above where it started,
// and is the same for 100,000 and 1,000,000 entries (DBCLOUD_MEASURE=1;
// by default 10,000 and 100,000, where a read that kept its entries would
// retain megabytes more for the larger).
func TestAllLogsPeakHeapIsBounded(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("a heap measurement: skipped under -race and -short")
	}
	checkHeapFlatOver(t, "entries", atScale(10_000, 100_000), measureAllLogsHeap)
}

// TestWaitPollSchedule checks the schedule of a wait: one GET per poll and
// none more, the first at once, then gaps between the min and max interval.
func TestWaitPollSchedule(t *testing.T) {
	const (
		configuring = 8
		minGap      = time.Millisecond
		maxGap      = 8 * time.Millisecond
		// margin is how late a timer may fire and a request arrive on a
		// loaded machine under -race (seen: 180 ms with fuzzers running).
		// It only catches gross errors, such as the 1 s default interval;
		// TestNextDelay checks the schedule exactly.
		margin = time.Second
	)
	body := func(status string) []byte {
		s := benchFullService(0)
		s.Status = status
		return benchMarshal(t, s)
	}
	configuringBody, readyBody := body("CONFIGURING"), body("READY")
	var (
		mu    sync.Mutex
		times []time.Time
	)
	path := "/v1/projects/" + benchProject + "/services/" + benchService
	srv := benchServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := time.Now()
		if r.Method != http.MethodGet || r.URL.Path != path {
			t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
			http.Error(w, "unexpected", http.StatusTeapot)
			return
		}
		mu.Lock()
		times = append(times, now)
		n := len(times)
		mu.Unlock()
		b := readyBody
		if n <= configuring {
			b = configuringBody
		}
		benchWrite(w, http.StatusOK, b, []string{strconv.Itoa(len(b))})
	}))
	c := benchSDK(t, srv)

	var polls []string
	start := time.Now()
	s, err := c.Services.WaitForReady(t.Context(), benchProject, benchService,
		dbcloud.WithPollInterval(minGap, maxGap),
		dbcloud.WithProgress(func(p dbcloud.WaitProgress) { polls = append(polls, fmt.Sprint(p.Status)) }))
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != dbcloud.StatusReady {
		t.Fatalf("status %s, want READY", s.Status)
	}
	c.CloseIdleConnections()
	srv.Close() // no request can arrive after this

	mu.Lock()
	defer mu.Unlock()
	if len(times) != configuring+1 || len(polls) != configuring+1 {
		t.Fatalf("%d GETs for %d polls, want %d of each", len(times), len(polls), configuring+1)
	}
	for i, st := range polls {
		if want := map[bool]string{true: "CONFIGURING", false: "READY"}[i < configuring]; st != want {
			t.Errorf("poll %d saw %s, want %s", i, st, want)
		}
	}
	if d := times[0].Sub(start); d > margin {
		t.Errorf("first GET %v after the call, want at once", d)
	}
	gaps := make([]time.Duration, 0, configuring)
	for i := 1; i < len(times); i++ {
		gap := times[i].Sub(times[i-1])
		gaps = append(gaps, gap)
		if gap < minGap {
			t.Errorf("gap %d is %v, shorter than the min interval %v", i, gap, minGap)
		}
		if gap > maxGap+margin {
			t.Errorf("gap %d is %v, longer than the max interval %v by more than %v", i, gap, maxGap, margin)
		}
	}
	t.Logf("%d polls in %v, gaps %v", len(times), elapsed.Round(time.Microsecond), gaps)
}

// noopObserver is an Observer that does nothing, to price the calls to it.
type noopObserver struct{}

func (noopObserver) StartCall(ctx context.Context, _ dbcloud.CallInfo) context.Context { return ctx }
func (noopObserver) StartAttempt(ctx context.Context, _ dbcloud.CallInfo, _ int) context.Context {
	return ctx
}
func (noopObserver) EndAttempt(context.Context, dbcloud.CallInfo, dbcloud.AttemptInfo) {}
func (noopObserver) EndCall(context.Context, dbcloud.CallInfo, dbcloud.CallResult)     {}

// BenchmarkGetServiceObserved prices the Observer: observer=nil must cost
// what BenchmarkGetService/impl=sdk does; observer=noop is what calling a
// do-nothing observer adds.
func BenchmarkGetServiceObserved(b *testing.B) {
	body := benchMarshal(b, benchFullService(0))
	srv := benchServer(b, benchResponder(http.MethodGet,
		"/v1/projects/"+benchProject+"/services/"+benchService, http.StatusOK, body))
	for _, tt := range []struct {
		name string
		o    dbcloud.Observer
	}{{"nil", nil}, {"noop", noopObserver{}}} {
		b.Run("observer="+tt.name, func(b *testing.B) {
			c, err := dbcloud.NewClient(benchKey, dbcloud.WithBaseURL(srv.URL+"/v1"),
				dbcloud.WithHTTPClient(&http.Client{Transport: benchTransport()}), dbcloud.WithObserver(tt.o))
			if err != nil {
				b.Fatal(err)
			}
			defer c.CloseIdleConnections()
			ctx := b.Context()
			b.ReportAllocs()
			for b.Loop() {
				if sinkService, err = c.Services.Get(ctx, benchProject, benchService); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGetParallel is many goroutines sharing one client, as a
// fleet-wide script does: 128 goroutines per GOMAXPROCS (256 on a 2-core
// machine) call Get at once against the same in-process server. impl=sdk
// is a Client with its default transport (no WithHTTPClient); impl=baseline
// is the hand-written client on a transport tuned for it (as many idle
// connections per host as goroutines). conns/op counts the connections the
// server accepted, per call: a client that cannot keep its connections dials
// again and again.
func BenchmarkGetParallel(b *testing.B) {
	const perProc = 128
	body := benchMarshal(b, benchFullService(0))
	dbcloudtest.CheckGoroutines(b)
	srv, conns := countingServer(benchResponder(http.MethodGet,
		"/v1/projects/"+benchProject+"/services/"+benchService, http.StatusOK, body))
	b.Cleanup(srv.Close)

	run := func(b *testing.B, get func(context.Context) error) {
		ctx := b.Context()
		conns.Store(0)
		b.ReportAllocs()
		b.SetParallelism(perProc)
		b.ResetTimer()
		cpu := cpuclock.Now()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				if err := get(ctx); err != nil {
					b.Error(err)
					return
				}
			}
		})
		cpu.Report(b, b.N, "cpu-us/op")
		b.ReportMetric(float64(conns.Load())/float64(b.N), "conns/op")
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "calls/s")
	}
	// sdkGet is Get on a Client with its default transport; plainGet the
	// hand-written Get on a transport tuned for the goroutines (as many
	// idle connections per host as there are of them).
	sdkGet := func(b *testing.B) func(context.Context) error {
		c, err := dbcloud.NewClient(benchKey, dbcloud.WithBaseURL(srv.URL+"/v1"))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(c.CloseIdleConnections)
		return func(ctx context.Context) error {
			s, err := c.Services.Get(ctx, benchProject, benchService)
			sinkService = s
			return err
		}
	}
	plainGet := func(b *testing.B) func(context.Context) error {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConns = 0 // no limit
		tr.MaxIdleConnsPerHost = perProc * runtime.GOMAXPROCS(0)
		b.Cleanup(tr.CloseIdleConnections)
		c := &plainClient{hc: &http.Client{Transport: tr}, base: srv.URL + "/v1", auth: "Bearer " + benchKey}
		return func(ctx context.Context) error {
			s, err := c.getService(ctx, benchProject, benchService)
			sinkPlain = s
			return err
		}
	}
	b.Run("impl=sdk", func(b *testing.B) { run(b, sdkGet(b)) })
	b.Run("impl=baseline", func(b *testing.B) { run(b, plainGet(b)) })
	// impl=paired: every goroutine calls both in turn; sdk/baseline is the
	// ratio of their mean latencies under the same load.
	b.Run("impl=paired", func(b *testing.B) {
		benchpair.RunParallel(b, perProc, benchpair.Call{Name: "sdk", Do: sdkGet(b)},
			benchpair.Call{Name: "baseline", Do: plainGet(b)})
	})
}
