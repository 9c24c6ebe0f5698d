package deploy_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/deploy"
)

// Two live replica sets, or two forks, with a name of the state: Plan
// reports the duplicate as a problem, with its error matching
// ErrDuplicateName, and Apply sends nothing.
func TestPlanReportsDuplicates(t *testing.T) {
	for _, kind := range []dbcloud.ResourceKind{dbcloud.KindReplicaSet, dbcloud.KindFork} {
		t.Run(string(kind), func(t *testing.T) {
			srv, c := deployed(t)
			svc, _ := orders(t, srv)
			var err error
			if kind == dbcloud.KindReplicaSet {
				_, err = c.ReplicaSets.Create(t.Context(), srv.ProjectID, svc.ServiceID, &dbcloud.CreateReplicaSetRequest{Name: "orders-read", Nodes: 2, CPUMillis: 500, MemoryGBs: 2})
			} else {
				_, err = c.Services.Fork(t.Context(), srv.ProjectID, svc.ServiceID, &dbcloud.ForkServiceRequest{Name: "orders-staging", Strategy: dbcloud.ForkNow})
			}
			if err != nil {
				t.Fatal(err)
			}
			plan, err := trial().Plan(t.Context(), c)
			dup, ok := errors.AsType[*deploy.DuplicateNameError](err)
			if !ok || dup.Kind != kind || len(dup.IDs) != 2 || !plan.HasProblems() || !strings.Contains(plan.String(), "  ! "+string(kind)) {
				t.Fatalf("plan: %v\n%s", err, plan)
			}
			mark := len(srv.Requests())
			if _, err := trial().Apply(t.Context(), c); !errors.Is(err, deploy.ErrDuplicateName) || mutations(srv, mark) != 0 {
				t.Errorf("Apply: %v, %d mutating requests", err, mutations(srv, mark))
			}
		})
	}
}

// What the state leaves out, or uses at creation only, is no change and
// no problem on an existing resource: a replica set named without sizes,
// a time-series service with no addons given, a fork's environment.
func TestExistingResourcesAreKept(t *testing.T) {
	srv, c := deployed(t)
	st := trial()
	st.Services[0].ReplicaSets[0] = deploy.ReplicaSet{Name: "orders-read"}
	st.Services[0].Addons = nil
	st.Services[0].Forks[0].Environment = dbcloud.EnvironmentProd
	plan, err := st.Plan(t.Context(), c)
	if err != nil || !plan.Empty() || plan.HasProblems() {
		t.Fatalf("plan: %v\n%s", err, plan)
	}
	mark := len(srv.Requests())
	if res, err := st.Apply(t.Context(), c); err != nil || res.Changed() || mutations(srv, mark) != 0 {
		t.Errorf("Apply: %v, %d mutating requests", err, mutations(srv, mark))
	}
	// Sizes are needed to create a set, and only then.
	st.Services[0].ReplicaSets = append(st.Services[0].ReplicaSets, deploy.ReplicaSet{Name: "reports"})
	if plan, err = st.Plan(t.Context(), c); !errors.As(err, new(*deploy.ProblemError)) || len(plan.Problems) != 1 || plan.Problems[0].Name != "reports" {
		t.Errorf("a new set without sizes: %v\n%s", err, plan)
	}
}

// Empty means no change: a plan with problems and no change is Empty, and
// HasProblems says it cannot run; its text says both.
func TestEmptyAndProblems(t *testing.T) {
	_, c := deployed(t)
	st := trial()
	st.Services[0].ReplicaSets[0].Nodes = 3
	plan, err := st.Plan(t.Context(), c)
	if err == nil || !plan.Empty() || !plan.HasProblems() || !strings.HasPrefix(plan.String(), "project proj-fake: 0 change(s), 1 problem(s)\n") {
		t.Errorf("plan: %v\n%s", err, plan)
	}
}
