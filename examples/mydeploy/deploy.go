// Package mydeploy is code a user of the SDK writes, with its tests as the
// user writes them: Deploy is the deploy step of a pipeline, and
// deploy_test.go (package mydeploy_test) tests it against dbcloudtest, the
// SDK's public test server, with no account, no network, no sleeps and no
// clock parameter.
//
// It deploys the orders application's databases as a desired state (the
// deploy package): a PROD service with 2 HA replicas and a pooler, a read
// replica set with its own pooler, and a staging fork restored (PITR) as
// of the moment the deploy makes it. The pattern it follows is the one
// the SDK recommends for a pipeline that must survive its own failures:
// print the plan, apply it, and on any failure run the same deploy again.
// Each step reads before it changes anything, so the next run finishes
// what the failed one started, without duplicates, and a run with nothing
// to do sends no request that changes anything.
package mydeploy

import (
	"context"
	"fmt"
	"io"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/deploy"
)

// State is the databases of the orders application in projectID.
func State(projectID string) *deploy.State {
	return &deploy.State{
		ProjectID: projectID,
		Services: []deploy.Service{{
			Name:        "orders",
			Addons:      []dbcloud.Addon{dbcloud.AddonTimeSeries},
			CPUMillis:   1000,
			MemoryGBs:   4,
			HAReplicas:  new(2),
			Pooler:      new(true),
			Environment: dbcloud.EnvironmentProd,
			ReplicaSets: []deploy.ReplicaSet{
				{Name: "orders-read", Nodes: 2, CPUMillis: 500, MemoryGBs: 2, Pooler: new(true)},
			},
			// TargetTime left zero: the fork restores the service as of the
			// moment the fork step runs, read from the real clock.
			Forks: []deploy.Fork{{Name: "orders-staging", Strategy: dbcloud.ForkPITR}},
		}},
	}
}

// Deploy prints the plan to log, applies it with a line per step and per
// status seen, and returns what it did. opts go to Apply: wait options (a
// timeout, say) and deploy.WithPasswords, where a pipeline stores the
// passwords of what the run creates. On an error, run Deploy again: it
// picks up where the failed run stopped.
func Deploy(ctx context.Context, client *dbcloud.Client, projectID string, log io.Writer, opts ...deploy.Option) (*deploy.Result, error) {
	st := State(projectID)
	plan, err := st.Plan(ctx, client)
	if plan != nil {
		fmt.Fprint(log, plan) // with its problems, when it has some
	}
	if err != nil {
		return nil, err
	}
	opts = append([]deploy.Option{deploy.WithProgress(func(p deploy.Progress) { fmt.Fprintln(log, p) })}, opts...)
	return st.Apply(ctx, client, opts...)
}
