package dbcloudtest_test

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// One server, many clients, many goroutines, and the test's own calls in
// between: every lifecycle completes, the counts add up, and nothing is
// left behind (run with -race).
func TestConcurrentUse(t *testing.T) {
	dbcloudtest.CheckGoroutines(t)
	const clients, perClient = 4, 8
	srv := newServer(t, dbcloudtest.WithProjects("p1", "p2"))
	ctx := t.Context()

	var wg sync.WaitGroup
	inspector := make(chan error, 1)
	go func() { // the test inspecting and poking the server meanwhile
		defer close(inspector)
		for round := range 200 {
			for _, s := range srv.Services() {
				// A service deleted since Services ran is the only excuse.
				if err := srv.AppendLogs(s.ServiceID, dbcloud.LogEntry{Message: "poke"}); err != nil {
					if _, still := srv.Service(s.ServiceID); still {
						inspector <- err
						return
					}
				}
			}
			if round%10 == 0 {
				srv.InjectFault(dbcloudtest.Fault{Method: "GET", Status: 503}) // retried by the SDK
			}
			_ = srv.Requests()
			_ = srv.Count("", "/projects/*/services/*")
			srv.Advance(time.Millisecond)
			runtime.Gosched()
		}
	}()
	for i := range clients {
		c := srv.Client()
		for j := range perClient {
			project := []string{"p1", "p2"}[j%2]
			wg.Go(func() {
				if err := lifecycle(ctx, c, project, fmt.Sprintf("db-%d-%d", i, j)); err != nil {
					t.Error(err)
				}
			})
		}
	}
	wg.Wait()
	if err := <-inspector; err != nil {
		t.Errorf("AppendLogs meanwhile: %v", err)
	}

	if n := srv.Count("POST", "/projects/*/services"); n != clients*perClient {
		t.Errorf("%d creates, want %d", n, clients*perClient)
	}
	if left := srv.Services(); len(left) != 0 {
		t.Errorf("%d services left", len(left))
	}
	if n, all := srv.Count("", ""), len(srv.Requests()); n != all {
		t.Errorf("Count says %d requests, Requests lists %d", n, all)
	}
}

// lifecycle creates a service, uses it and deletes it, as a deploy would.
func lifecycle(ctx context.Context, c *dbcloud.Client, project, name string) error {
	svc, err := c.Services.Create(ctx, project, &dbcloud.CreateServiceRequest{Name: name})
	if err != nil {
		return fmt.Errorf("create %s: %w", name, err)
	}
	id := svc.ServiceID
	steps := []func() error{
		func() error { _, err := c.Services.WaitForReady(ctx, project, id, fastPolls); return err },
		func() error { return c.Services.EnablePooler(ctx, project, id) },
		func() error {
			for _, err := range c.Services.AllLogs(ctx, project, id, nil) {
				if err != nil {
					return err
				}
			}
			return nil
		},
		func() error { _, err := c.Services.Stop(ctx, project, id); return err },
		func() error {
			_, err := c.Services.WaitForStatus(ctx, project, id, dbcloud.StatusPaused, fastPolls)
			return err
		},
		func() error { _, err := c.Services.Start(ctx, project, id); return err },
		func() error { _, err := c.Services.WaitForReady(ctx, project, id, fastPolls); return err },
		func() error { return c.Services.Delete(ctx, project, id) },
		func() error { return c.Services.WaitForDeleted(ctx, project, id, fastPolls) },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			return fmt.Errorf("%s, step %d: %w", name, i, err)
		}
	}
	return nil
}

// fastPolls makes a wait that has to poll again do so within milliseconds.
var fastPolls = dbcloud.WithPollInterval(time.Millisecond, 2*time.Millisecond)
