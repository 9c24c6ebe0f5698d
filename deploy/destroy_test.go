package deploy_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/deploy"
)

// The destroy of the trial: planned on a read-only client (GETs only) and
// printed, its fork, replica set and service deleted in that order, each
// waited for until gone; the project is left empty, and a second destroy
// has nothing to do.
func TestDestroy(t *testing.T) {
	srv, c := deployed(t)
	svc, fork := orders(t, srv)
	mark := len(srv.Requests())
	plan, err := trial().PlanDestroy(t.Context(), srv.Client(dbcloud.WithReadOnly()))
	want := `project proj-fake, destroy of "orders": 3 change(s)
  - delete fork "orders-staging" of "orders" (` + fork.ServiceID + `)
  - delete replica set "orders-read" of "orders" (` + svc.ReadReplicaSets[0].ID + `)
  - delete service "orders" (` + svc.ServiceID + `)
`
	if err != nil || plan.String() != want {
		t.Fatalf("destroy plan: %v\n%s\nwant:\n%s", err, plan, want)
	}
	if n := mutations(srv, mark); n != 0 {
		t.Errorf("PlanDestroy sent %d mutating requests", n)
	}
	var changes []deploy.Record
	if _, err := plan.Apply(t.Context(), c, ends(&changes)); err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Services()); n != 0 {
		t.Errorf("%d services left", n)
	}
	if len(changes) != 3 || changes[2].Change.Kind != dbcloud.KindService || changes[2].Outcome != deploy.Done {
		t.Errorf("changes: %v", changes)
	}
	mark = len(srv.Requests())
	res, err := trial().Destroy(t.Context(), c)
	if err != nil || len(res.Records) != 0 || mutations(srv, mark) != 0 {
		t.Errorf("second destroy: %v, %v, %d mutating requests", err, res.Records, mutations(srv, mark))
	}
}

// A destroy cut short after each step in turn is finished by the next
// run, State.Destroy and a saved destroy plan alike.
func TestDestroyInterrupted(t *testing.T) {
	setup := func(srv *dbcloudtest.Server, c *dbcloud.Client) {
		if _, err := trial().Apply(t.Context(), c); err != nil {
			t.Fatal(err)
		}
	}
	empty := func(srv *dbcloudtest.Server) {
		if n := len(srv.Services()); n != 0 {
			t.Errorf("%d services left", n)
		}
	}
	if n := interrupt(t, setup, trial().Destroy, empty); n != 3 {
		t.Errorf("State.Destroy: %d steps, want 3", n)
	}
	saved, apply := savedPlan(t, setup, (*deploy.State).PlanDestroy)
	if n := interrupt(t, saved, apply, empty); n != 3 {
		t.Errorf("Plan.Apply of a destroy: %d steps, want 3", n)
	}
}

// cutWhileDeleting runs run on a server whose statuses last a minute,
// cancelling it at its first poll of a delete (the resource DELETING), then
// runs it again, moving the clock at each poll, and checks that the second
// run waited until the resource was gone: it plans the wait, and returns
// only once the resource is gone.
func cutWhileDeleting(t *testing.T, st *deploy.State, run func(*deploy.State, context.Context, *dbcloud.Client, ...deploy.Option) (*deploy.Result, error), gone func(*dbcloudtest.Server, string) bool) {
	t.Helper()
	srv, c, advance := stepped(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var cut deploy.Record
	_, err := run(st, ctx, c, deploy.WithProgress(func(p deploy.Progress) {
		if p.Poll != nil && p.Record.Change.Action == deploy.Delete && cut.ID == "" {
			cut = p.Record
			cancel()
		}
	}))
	if err == nil || cut.ID == "" || gone(srv, cut.ID) {
		t.Fatalf("the cut run: %v, cut at %v", err, cut)
	}
	var lines []string
	if _, err := run(st, t.Context(), c, advance, deploy.WithProgress(func(p deploy.Progress) { lines = append(lines, p.String()) })); err != nil {
		t.Fatal(err)
	}
	if !gone(srv, cut.ID) {
		t.Errorf("%s %s is still there after the run that finished its delete", cut.Change.Kind, cut.ID)
	}
	if !strings.Contains(strings.Join(lines, "\n"), "("+cut.ID+"): DELETING already, wait until gone") &&
		!strings.Contains(strings.Join(lines, "\n"), "("+cut.ID+"): deleting already, wait until gone") {
		t.Errorf("the second run does not wait for the delete under way:\n%s", strings.Join(lines, "\n"))
	}
}

func serviceGone(srv *dbcloudtest.Server, id string) bool {
	_, ok := srv.Service(id)
	return !ok
}

func setGone(srv *dbcloudtest.Server, id string) bool {
	for _, svc := range srv.Services() {
		for _, rs := range svc.ReadReplicaSets {
			if rs.ID == id {
				return false
			}
		}
	}
	return true
}

// A run cut while a fork it deletes is DELETING: the next destroy waits
// until the fork is gone instead of returning early.
func TestDestroyWaitsForADeleteUnderWay(t *testing.T) {
	cutWhileDeleting(t, trial(), (*deploy.State).Destroy, serviceGone)
}

// The same for a prune: a re-run after a cut while the replica set and the
// fork it prunes are DELETING waits until they are gone.
func TestPruneWaitsForADeleteUnderWay(t *testing.T) {
	st := trial()
	st.Services[0].ReplicaSets, st.Prune = nil, true
	cutWhileDeleting(t, st, (*deploy.State).Apply, setGone)
	st = trial()
	st.Services[0].Forks, st.Prune = nil, true
	cutWhileDeleting(t, st, (*deploy.State).Apply, serviceGone)
}

// Destroy on a read-only client plans and is refused at its first delete,
// with nothing but GETs sent.
func TestDestroyReadOnly(t *testing.T) {
	srv, _ := deployed(t)
	mark := len(srv.Requests())
	if _, err := trial().Destroy(t.Context(), srv.Client(dbcloud.WithReadOnly())); err == nil || mutations(srv, mark) != 0 {
		t.Errorf("a read-only destroy: %v, %v", err, byMethod(srv, mark))
	}
	if n := srv.Count(http.MethodDelete, ""); n != 0 {
		t.Errorf("%d deletes sent", n)
	}
}
