package dbcloud_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
	"github.com/google/go-cmp/cmp"
)

const (
	listPattern = "/projects/*/services"
	setsPattern = "/projects/*/services/*/replicaSets"
)

// fleet starts a server whose services stay where they are until the test
// moves them (Advance or SetStatus) and creates n services, QUEUED.
func fleet(t *testing.T, n int) (*dbcloudtest.Server, *dbcloud.Client, []string) {
	t.Helper()
	dbcloudtest.CheckGoroutines(t)
	srv := dbcloudtest.NewServer(dbcloudtest.WithStep(time.Minute))
	t.Cleanup(srv.Close)
	c := srv.Client()
	ids := make([]string, n)
	for i := range ids {
		svc, err := c.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: fmt.Sprintf("db-%d", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = svc.ServiceID
	}
	return srv, c, ids
}

// polled returns a WithProgress option that reports each wait's first poll
// on ch, once.
func polled(ch chan<- string, name string) dbcloud.WaitOption {
	var once sync.Once
	return dbcloud.WithProgress(func(dbcloud.WaitProgress) { once.Do(func() { ch <- name }) })
}

// Waits join and leave a shared poller: a cancelled wait ends alone, a wait
// that joins late is served, the others finish as if alone.
func TestSharedWaitsJoinAndLeave(t *testing.T) {
	t.Parallel()
	srv, c, ids := fleet(t, 4)
	p := srv.ProjectID
	first := make(chan string, 4)
	errs := make([]error, 4)
	cancelled, cancel := context.WithCancel(t.Context())
	defer cancel()
	var wg sync.WaitGroup
	start := func(i int, ctx context.Context) {
		wg.Go(func() {
			_, errs[i] = c.Services.WaitForReady(ctx, p, ids[i], fixture.FastPolls, polled(first, ids[i]))
		})
	}
	start(0, t.Context())
	start(1, t.Context())
	start(2, cancelled)
	for range 3 {
		<-first
	}
	cancel() // wait 2 leaves
	start(3, t.Context())
	<-first // the late joiner has polled
	srv.Advance(time.Hour)
	wg.Wait()
	for i, err := range errs {
		switch {
		case i == 2 && !errors.Is(err, context.Canceled):
			t.Errorf("wait 2: %v, want cancelled", err)
		case i != 2 && err != nil:
			t.Errorf("wait %d: %v", i, err)
		}
	}
	if srv.Count("GET", listPattern) == 0 {
		t.Error("no List: the waits did not share")
	}
}

// A 429 storm with Retry-After holds every wait of the poller, not one: a
// second of Retry-After costs one read, whatever the number of waits and
// their 1 ms polling. The waits run in a synctest bubble, on its clock.
func TestSharedWaitsRetryAfterStorm(t *testing.T) {
	t.Parallel()
	srv, _, ids := fleet(t, 5)
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Status: http.StatusTooManyRequests,
		Header: http.Header{"Retry-After": {"1"}}, Times: 1000})
	base := newBubbleTransport(t, srv.Handler())
	before := srv.Count("GET", "")
	synctest.Test(t, func(t *testing.T) {
		c := srv.Client(dbcloud.WithHTTPClient(&http.Client{Transport: base}))
		var wg sync.WaitGroup
		errs := make([]error, len(ids))
		for i, id := range ids {
			wg.Go(func() {
				_, errs[i] = c.Services.WaitForReady(t.Context(), srv.ProjectID, id, fixture.FastPolls, dbcloud.WithWaitTimeout(1500*time.Millisecond))
			})
		}
		wg.Wait()
		for i, err := range errs {
			if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, dbcloud.ErrRateLimited) {
				t.Errorf("wait %d: %v, want the deadline, naming the 429", i, err)
			}
		}
	})
	// Reads at 0 s and 1 s. Alone, each wait would read every few ms.
	if n := srv.Count("GET", "") - before; n > 3 {
		t.Errorf("%d reads during 1.5 s of Retry-After: 1, want at most 3", n)
	}
}

// A service deleted while waited for ends its own wait at once; the wait on
// its neighbour goes on to READY.
func TestSharedWaitServiceDeletedMidWait(t *testing.T) {
	t.Parallel()
	srv, c, ids := fleet(t, 2)
	p := srv.ProjectID
	first := make(chan string, 2)
	var gone, other error
	var wg sync.WaitGroup
	wg.Go(func() {
		_, gone = c.Services.WaitForReady(t.Context(), p, ids[0], fixture.FastPolls, polled(first, "a"))
	})
	wg.Go(func() {
		_, other = c.Services.WaitForReady(t.Context(), p, ids[1], fixture.FastPolls, polled(first, "b"))
	})
	<-first
	<-first
	if err := c.Services.Delete(t.Context(), p, ids[0]); err != nil {
		t.Fatal(err)
	}
	// The deleted service's wait ends by itself; then the other is let go.
	for deadline := time.Now().Add(10 * time.Second); ; {
		if _, ok := srv.Service(ids[0]); !ok || time.Now().After(deadline) {
			break
		}
		srv.Advance(time.Minute) // DELETING, then gone
	}
	setStatus(t, srv, ids[1], dbcloud.StatusReady)
	wg.Wait()
	if !errors.Is(gone, dbcloud.ErrUnexpectedStatus) && !errors.Is(gone, dbcloud.ErrNotFound) {
		t.Errorf("deleted service's wait: %v, want ErrUnexpectedStatus or ErrNotFound", gone)
	}
	if other != nil {
		t.Errorf("neighbour's wait: %v", other)
	}
}

// Waits on services and on replica sets at once: each kind shares its own
// reads, and every wait ends where it should.
func TestSharedWaitsMixServicesAndReplicaSets(t *testing.T) {
	t.Parallel()
	srv, c, ids := fleet(t, 3)
	p := srv.ProjectID
	setStatus(t, srv, ids[0], dbcloud.StatusReady)
	var sets []string
	for i := range 2 {
		set, err := c.ReplicaSets.Create(t.Context(), p, ids[0], &dbcloud.CreateReplicaSetRequest{Name: fmt.Sprintf("r%d", i), Nodes: 1, CPUMillis: 500, MemoryGBs: 2})
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, set.ID)
	}
	setsBefore := srv.Count("GET", setsPattern)
	first := make(chan string, 4)
	var mu sync.Mutex
	setPolls := map[string]int{}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i, id := range sets {
		count := dbcloud.WithProgress(func(dbcloud.WaitProgress) { mu.Lock(); setPolls[id]++; mu.Unlock() })
		wg.Go(func() {
			_, errs[i] = c.ReplicaSets.WaitForActive(t.Context(), p, ids[0], id, fixture.FastPolls, count, polled(first, id))
		})
	}
	for i, id := range ids[1:] {
		wg.Go(func() {
			_, errs[2+i] = c.Services.WaitForReady(t.Context(), p, id, fixture.FastPolls, polled(first, id))
		})
	}
	for range 4 {
		<-first
	}
	srv.Advance(time.Hour)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("wait %d: %v", i, err)
		}
	}
	// The two set waits share one List per tick: the reads are no more than
	// the polls of the wait that polled most (plus one read that ended
	// after it left), where waiting alone would cost the sum.
	n := srv.Count("GET", setsPattern) - setsBefore
	if most := max(setPolls[sets[0]], setPolls[sets[1]]); n > most+1 {
		t.Errorf("%d replica set reads for polls %v: not shared", n, setPolls)
	}
}

// A stop status ends the wait at once, typed; progress callbacks all run,
// in order.
func TestWaitStopStatusAndProgress(t *testing.T) {
	t.Parallel()
	srv, c, ids := fleet(t, 1)
	setStatus(t, srv, ids[0], dbcloud.StatusUnstable)
	var calls []string
	_, err := c.Services.WaitForReady(t.Context(), srv.ProjectID, ids[0], dbcloud.WithPollInterval(time.Hour, time.Hour),
		dbcloud.WithStopOn(dbcloud.StatusUnstable, dbcloud.StatusPaused),
		dbcloud.WithProgress(func(p dbcloud.WaitProgress) { calls = append(calls, fmt.Sprint("first ", p.Status)) }),
		dbcloud.WithProgress(func(p dbcloud.WaitProgress) { calls = append(calls, fmt.Sprint("second ", p.Status)) }))
	assertWaitErr(t, err, dbcloud.ErrStopStatus, "UNSTABLE")
	if !errors.Is(err, dbcloud.ErrUnexpectedStatus) {
		t.Errorf("err = %v, want ErrUnexpectedStatus too", err)
	}
	if diff := cmp.Diff([]string{"first UNSTABLE", "second UNSTABLE"}, calls); diff != "" {
		t.Errorf("progress (-want +got):\n%s", diff)
	}
}

// Several WithStopOn add up: a later one does not replace the statuses of
// an earlier one.
func TestWaitStopOnOptionsAddUp(t *testing.T) {
	t.Parallel()
	srv, c, ids := fleet(t, 1)
	setStatus(t, srv, ids[0], dbcloud.StatusUnstable)
	_, err := c.Services.WaitForReady(t.Context(), srv.ProjectID, ids[0], fixture.FastPolls, dbcloud.WithWaitTimeout(5*time.Second),
		dbcloud.WithStopOn(dbcloud.StatusUnstable), dbcloud.WithStopOn(dbcloud.StatusPaused))
	assertWaitErr(t, err, dbcloud.ErrStopStatus, "UNSTABLE")
}

// A condition keeps the wait going past the status until it holds; its
// error ends the wait.
func TestWaitServiceCondition(t *testing.T) {
	t.Parallel()
	srv, c, ids := fleet(t, 1)
	setStatus(t, srv, ids[0], dbcloud.StatusReady)
	n := 0
	got, err := c.Services.WaitForReady(t.Context(), srv.ProjectID, ids[0], fixture.FastPolls,
		dbcloud.WithCondition(func(s *dbcloud.Service) (bool, error) { n++; return n == 3, nil }))
	if err != nil || got.Status != dbcloud.StatusReady || n != 3 {
		t.Fatalf("got %v, %v after %d checks, want READY after 3", got, err, n)
	}
	boom := errors.New("no pooler")
	_, err = c.Services.WaitForReady(t.Context(), srv.ProjectID, ids[0], fixture.FastPolls,
		dbcloud.WithCondition(func(*dbcloud.Service) (bool, error) { return false, boom }))
	assertWaitErr(t, err, boom, "READY")
}

// A 404 right after a create is polled through when the caller says the
// service was just created; otherwise it ends the wait.
func TestWaitJustCreatedGrace(t *testing.T) {
	t.Parallel()
	srv, c, ids := fleet(t, 1)
	setStatus(t, srv, ids[0], dbcloud.StatusReady)
	notFound := dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services/*", Status: 404, Times: 2,
		Body: `{"code":"NOT_FOUND","message":"service not found"}`}
	created, _ := srv.Service(ids[0])
	srv.InjectFault(notFound)
	if _, err := c.Services.WaitForReady(t.Context(), srv.ProjectID, ids[0], fixture.FastPolls, dbcloud.WithCreated(&created)); err != nil {
		t.Errorf("with WithCreated: %v", err)
	}
	srv.InjectFault(notFound)
	_, err := c.Services.WaitForReady(t.Context(), srv.ProjectID, ids[0], fixture.FastPolls)
	assertWaitErr(t, err, dbcloud.ErrNotFound, "")
}

// WithCreated keeps the password Create returned; a plain wait's read has none.
func TestWaitWithCreatedKeepsPassword(t *testing.T) {
	t.Parallel()
	srv, c, _ := fleet(t, 0)
	svc := fixture.CreateService(t, c, srv.ProjectID, "db")
	if svc.InitialPassword == "" {
		t.Fatal("the create returned no password")
	}
	srv.Advance(time.Hour)
	got, err := c.Services.WaitForReady(t.Context(), srv.ProjectID, svc.ServiceID, fixture.FastPolls, dbcloud.WithCreated(svc))
	if err != nil || got.InitialPassword != svc.InitialPassword {
		t.Errorf("got %v, %v: want the READY service with the create's password", got, err)
	}
	plain, err := c.Services.WaitForReady(t.Context(), srv.ProjectID, svc.ServiceID, fixture.FastPolls)
	if err != nil || plain.InitialPassword != "" {
		t.Errorf("plain wait: %v, password set %v", err, plain.InitialPassword != "")
	}
	other := *svc
	other.ServiceID = "someone-else"
	var v *dbcloud.ValidationError
	if _, err := c.Services.WaitForReady(t.Context(), srv.ProjectID, svc.ServiceID, dbcloud.WithCreated(&other)); !errors.As(err, &v) {
		t.Errorf("another service's WithCreated: %v, want a *ValidationError", err)
	}
}

// WithCreated names each kind of resource: a replica set wait polls
// through the first 404s of the set it was given, and one that names a
// resource not waited for is a *ValidationError. A condition of the other
// kind is ignored, so one option list serves both kinds.
func TestWithCreatedOfEachKind(t *testing.T) {
	t.Parallel()
	srv, c, _ := fleet(t, 0)
	p := srv.ProjectID
	a, b := fixture.CreateService(t, c, p, "a"), fixture.CreateService(t, c, p, "b")
	srv.Advance(time.Hour)
	set, err := c.ReplicaSets.Create(t.Context(), p, a.ServiceID, &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 500, MemoryGBs: 2})
	if err != nil {
		t.Fatal(err)
	}
	srv.Advance(time.Hour)
	gone := dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services/*/replicaSets", Status: 200, Body: `[]`, Times: 2}
	never := dbcloud.WithCondition(func(*dbcloud.Service) (bool, error) { return false, nil })
	srv.InjectFault(gone)
	if _, err := c.ReplicaSets.WaitForActive(t.Context(), p, a.ServiceID, set.ID, fixture.FastPolls, dbcloud.WithCreated(set), never); err != nil {
		t.Errorf("replica set wait given WithCreated, missing twice: %v", err)
	}
	srv.InjectFault(gone)
	if _, err := c.ReplicaSets.WaitForActive(t.Context(), p, a.ServiceID, set.ID, fixture.FastPolls); !errors.Is(err, dbcloud.ErrNotFound) {
		t.Errorf("replica set wait without WithCreated, missing: %v, want ErrNotFound", err)
	}
	for _, opts := range [][]dbcloud.WaitOption{{dbcloud.WithCreated(set)}, {dbcloud.WithCreated(a), dbcloud.WithCreated(b)}} {
		var v *dbcloud.ValidationError
		if _, err := c.Services.WaitForReady(t.Context(), p, a.ServiceID, opts...); !errors.As(err, &v) || v.Field != "WithCreated" {
			t.Errorf("a WithCreated of another resource: %v, want a *ValidationError", err)
		}
	}
}

// byID is services known by their ids alone, as WaitForAll takes them.
func byID(ids ...string) []*dbcloud.Service {
	out := make([]*dbcloud.Service, len(ids))
	for i, id := range ids {
		out[i] = &dbcloud.Service{ServiceID: id}
	}
	return out
}

// WaitForAll keeps the password of each service passed as Create returned
// it, and polls through its first 404s as WithCreated does; a service known
// by its id alone is missing at its first 404. What would keep a password
// for the wrong service, or the old WithCreated beside the services, is
// refused before anything is sent.
func TestWaitForAllKeepsCreatedServices(t *testing.T) {
	t.Parallel()
	srv, c, ids := fleet(t, 1)
	p := srv.ProjectID
	a, b := fixture.CreateService(t, c, p, "a"), fixture.CreateService(t, c, p, "b")
	srv.Advance(time.Hour)
	res, err := c.Services.WaitForAll(t.Context(), p, append([]*dbcloud.Service{a, b}, byID(ids[0])...), dbcloud.StatusReady, fixture.FastPolls)
	if err != nil || res.Reached[a.ServiceID].InitialPassword != a.InitialPassword || res.Reached[b.ServiceID].InitialPassword != b.InitialPassword ||
		res.Reached[ids[0]].InitialPassword != "" {
		t.Errorf("fleet of created services: %+v, %v; want each password with its own service", res, err)
	}

	// Every read misses both services twice: the created one is polled
	// through, the other is not found.
	for _, path := range []string{"/projects/*/services/*", "/projects/*/services"} {
		srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: path, Status: 404, Times: 2,
			Body: `{"code":"NOT_FOUND","message":"service not found"}`})
	}
	res, err = c.Services.WaitForAll(t.Context(), p, append([]*dbcloud.Service{a}, byID(ids[0])...), dbcloud.StatusReady, fixture.FastPolls)
	if res.Reached[a.ServiceID] == nil || !errors.Is(res.Failed[ids[0]], dbcloud.ErrNotFound) || !errors.Is(err, dbcloud.ErrNotFound) {
		t.Errorf("fleet missing twice: %+v, %v; want %s reached, %s not found", res, err, a.ServiceID, ids[0])
	}

	other := *a
	other.InitialPassword = "another"
	for name, call := range map[string]struct {
		fleet []*dbcloud.Service
		opts  []dbcloud.WaitOption
		field string
	}{
		"WithCreated":     {[]*dbcloud.Service{a}, []dbcloud.WaitOption{dbcloud.WithCreated(a)}, "WithCreated"},
		"two passwords":   {[]*dbcloud.Service{a, b, &other}, nil, "fleet[2]"},
		"nil":             {[]*dbcloud.Service{a, nil}, nil, "fleet[1]"},
		"the same, twice": {[]*dbcloud.Service{a, a, byID(a.ServiceID)[0]}, nil, ""},
		"no id":           {[]*dbcloud.Service{{Name: "a"}}, nil, "serviceID"},
	} {
		res, err := c.Services.WaitForAll(t.Context(), p, call.fleet, dbcloud.StatusReady, append(call.opts, fixture.FastPolls)...)
		var v *dbcloud.ValidationError
		switch {
		case call.field == "" && (err != nil || len(res.Reached) != 1 || res.Reached[a.ServiceID].InitialPassword != a.InitialPassword):
			t.Errorf("%s: %+v, %v; want it waited for once, with its password", name, res, err)
		case call.field != "" && (!errors.As(err, &v) || v.Field != call.field):
			t.Errorf("%s: %v, want a *ValidationError of %s", name, err, call.field)
		}
	}
}

// WaitForAll says where every service stands: reached, failed (every
// failure, not the first), pending at the deadline.
func TestWaitForAll(t *testing.T) {
	t.Parallel()
	srv, c, ids := fleet(t, 4)
	p := srv.ProjectID
	for id, st := range map[string]dbcloud.ServiceStatus{ids[0]: dbcloud.StatusReady, ids[1]: dbcloud.StatusUnstable, ids[2]: dbcloud.StatusDeleting} {
		setStatus(t, srv, id, st)
	}
	missing := "nosuchsvc"
	res, err := c.Services.WaitForAll(t.Context(), p, byID(append(ids, missing, ids[0])...), dbcloud.StatusReady,
		fixture.FastPolls, dbcloud.WithStopOn(dbcloud.StatusUnstable), dbcloud.WithWaitTimeout(300*time.Millisecond))
	if err == nil {
		t.Fatal("err = nil, want the failures")
	}
	if len(res.Reached) != 1 || res.Reached[ids[0]] == nil || res.Reached[ids[0]].Status != dbcloud.StatusReady {
		t.Errorf("Reached = %v, want %s", res.Reached, ids[0])
	}
	for id, cause := range map[string]error{ids[1]: dbcloud.ErrStopStatus, ids[2]: dbcloud.ErrUnexpectedStatus, missing: dbcloud.ErrNotFound} {
		if !errors.Is(res.Failed[id], cause) || !errors.Is(err, res.Failed[id]) {
			t.Errorf("Failed[%s] = %v, want %v, in err", id, res.Failed[id], cause)
		}
	}
	if len(res.Failed) != 3 {
		t.Errorf("Failed = %v, want 3", res.Failed)
	}
	// A failure names its service, as its reads showed it: no read more
	// to report it by name. The missing one was never read.
	for id, name := range map[string]string{ids[1]: "db-1", ids[2]: "db-2", missing: ""} {
		if w := res.Failed[id]; w == nil || w.ID != id || w.Name != name || w.Resource != string(dbcloud.KindService) {
			t.Errorf("Failed[%s] = %+v, want it named %q", id, w, name)
		}
	}
	if !strings.Contains(err.Error(), `service "db-1" (`+ids[1]+`)`) {
		t.Errorf("err = %v, want it to name db-1", err)
	}
	if w := res.Pending[ids[3]]; len(res.Pending) != 1 || w == nil || w.LastStatus != "QUEUED" || !errors.Is(w, context.DeadlineExceeded) {
		t.Errorf("Pending = %v, want %s QUEUED at the deadline", res.Pending, ids[3])
	}

	if res, err := c.Services.WaitForAll(t.Context(), p, byID(ids[0]), dbcloud.StatusReady, fixture.FastPolls); err != nil || len(res.Reached) != 1 {
		t.Errorf("all READY: %v, %v", res, err)
	}
}

// The tick follows the shortest interval among the waits: a wait polling
// hourly on its own notices READY at the pace of a fast wait beside it.
func TestSharedTickFollowsShortestInterval(t *testing.T) {
	t.Parallel()
	srv, c, ids := fleet(t, 2)
	p := srv.ProjectID
	first := make(chan string, 2)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	slow := make(chan error, 1)
	go func() {
		_, err := c.Services.WaitForReady(ctx, p, ids[0], dbcloud.WithPollInterval(time.Hour, time.Hour), polled(first, "slow"))
		slow <- err
	}()
	<-first // the hourly wait has had its first poll: alone, its next is in an hour
	fast := make(chan error, 1)
	go func() {
		_, err := c.Services.WaitForReady(ctx, p, ids[1], fixture.FastPolls, polled(first, "fast"))
		fast <- err
	}()
	<-first
	setStatus(t, srv, ids[0], dbcloud.StatusReady)
	if err := <-slow; err != nil { // an hour alone; the 20 s context says otherwise
		t.Errorf("hourly wait: %v, want READY seen through the fast wait's reads", err)
	}
	setStatus(t, srv, ids[1], dbcloud.StatusReady)
	if err := <-fast; err != nil {
		t.Errorf("fast wait: %v", err)
	}
}

// A replica set's stop status ends its wait; the built-in "error" does too.
func TestReplicaSetWaitStopStatus(t *testing.T) {
	t.Parallel()
	srv, c, ids := fleet(t, 1)
	p := srv.ProjectID
	setStatus(t, srv, ids[0], dbcloud.StatusReady)
	set, err := c.ReplicaSets.Create(t.Context(), p, ids[0], &dbcloud.CreateReplicaSetRequest{Name: "r", Nodes: 1, CPUMillis: 500, MemoryGBs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.SetReplicaSetStatus(ids[0], set.ID, dbcloud.ReplicaSetResizing); err != nil {
		t.Fatal(err)
	}
	_, err = c.ReplicaSets.WaitForActive(t.Context(), p, ids[0], set.ID, fixture.FastPolls, dbcloud.WithStopOn(dbcloud.ReplicaSetResizing))
	assertWaitErr(t, err, dbcloud.ErrStopStatus, "resizing")
	if err := srv.SetReplicaSetStatus(ids[0], set.ID, dbcloud.ReplicaSetError); err != nil {
		t.Fatal(err)
	}
	_, err = c.ReplicaSets.WaitForActive(t.Context(), p, ids[0], set.ID, fixture.FastPolls)
	assertWaitErr(t, err, dbcloud.ErrUnexpectedStatus, "error")
}

// A held connection (no answer, no reset) on a shared read costs one
// attempt, not every wait of the poller: the read carries the earliest
// deadline of its waits, so the call pipeline abandons the held attempt
// with time left for a retry, and every wait ends READY within its 3 s.
func TestSharedReadHeldCostsOneAttempt(t *testing.T) {
	t.Parallel()
	srv, c, ids := fleet(t, 4)
	srv.Advance(time.Hour) // every service READY
	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Delay: time.Minute})
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, len(ids))
	for i, id := range ids {
		wg.Go(func() { _, errs[i] = c.Services.WaitForReady(ctx, srv.ProjectID, id, fixture.FastPolls) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("wait %d: %v; want READY after the held read's retry", i, err)
		}
	}
	if took := time.Since(start); took > 2500*time.Millisecond {
		t.Errorf("the waits took %v: the held read cost more than half of their 3 s", took)
	}
	if n := srv.Count("GET", ""); n < 2 {
		t.Errorf("%d reads: want the held one and its retry", n)
	}
}
