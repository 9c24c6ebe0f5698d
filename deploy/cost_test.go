package deploy_test

import (
	"testing"

	"github.com/dbcloud/dbcloud-go/deploy"
)

// The requests of each kind of run on the trial state, as docs/deploy.md
// states them: Plan reads the project's services and, once the service
// exists, its replica sets; a second Apply sends those reads and nothing
// else; a full Apply adds, per create, recovery's list, the create and its
// wait's read, and per change at once its request; a destroy, per delete,
// the delete and its wait's read.
func TestRequestCounts(t *testing.T) {
	srv := newServer(t)
	c := srv.Client()
	count := func(name string, want int, run func() error) {
		t.Helper()
		mark := len(srv.Requests())
		if err := run(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := len(srv.Requests()) - mark; got != want {
			t.Errorf("%s sent %d requests (%v), want %d", name, got, byMethod(srv, mark), want)
		}
	}
	plan := func() error { _, err := trial().Plan(t.Context(), c); return err }
	apply := func() error { _, err := trial().Apply(t.Context(), c); return err }
	count("Plan of nothing", 1, plan)
	count("a full Apply", 12, apply)
	count("Plan", 2, plan)
	count("a second Apply", 2, apply)
	var p *deploy.Plan
	count("a plan applied later", 4, func() (err error) {
		if p, err = trial().Plan(t.Context(), c); err == nil {
			_, err = p.Apply(t.Context(), c)
		}
		return err
	})
	count("PlanDestroy", 2, func() error { _, err := trial().PlanDestroy(t.Context(), c); return err })
	count("Destroy", 8, func() error { _, err := trial().Destroy(t.Context(), c); return err })
}
