package deploy_test

import (
	"context"
	"fmt"
	"log"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/deploy"
)

// A deploy prints its plan, applies it, and is run again on any failure;
// the run after a success has nothing to do.
func Example() {
	srv := dbcloudtest.NewServer() // in a real deploy: dbcloud.NewClientFromEnv()
	defer srv.Close()
	c := srv.Client()
	ctx := context.Background()

	st := &deploy.State{
		Service: deploy.Service{Name: "orders", CPUMillis: 1000, MemoryGBs: 4,
			HAReplicas: new(2), Pooler: new(true), Environment: dbcloud.EnvironmentProd},
		ReplicaSets: []deploy.ReplicaSet{{Name: "orders-read", Nodes: 2, CPUMillis: 500, MemoryGBs: 2, Pooler: new(true)}},
		Forks:       []deploy.Fork{{Name: "orders-staging", Strategy: dbcloud.ForkPITR}},
	}
	plan, err := st.Plan(ctx, c)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(plan)
	res, err := st.Apply(ctx, c, deploy.WithProgress(func(p deploy.Progress) {
		if p.Poll == nil && p.Change.Outcome == deploy.Done {
			fmt.Println(p)
		}
	}))
	if err != nil {
		log.Fatal(err) // a pipeline runs the same deploy again
	}
	fmt.Println("changed:", res.Changed())

	plan, err = st.Plan(ctx, c)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(plan)
	// Output:
	// project proj-fake: 5 change(s)
	//   + create service "orders": 1000m CPU / 4 GB, 2 HA replica(s), PROD
	//   ~ update service "orders": pooler off -> on
	//   + create replica set "orders-read": 2 node(s), 500m CPU / 2 GB
	//   ~ update replica set "orders-read": pooler off -> on
	//   + create fork "orders-staging": PITR as of when the fork step runs
	// + create service "orders" (tsqcr8jka9): 1000m CPU / 4 GB, 2 HA replica(s), PROD: done
	// ~ update service "orders" (tsqcr8jka9): pooler off -> on: done
	// + create replica set "orders-read" (rs-qyjmm8): 2 node(s), 500m CPU / 2 GB: done
	// ~ update replica set "orders-read" (rs-qyjmm8): pooler off -> on: done
	// + create fork "orders-staging" (oezwuw3rw8): PITR as of when the fork step runs: done
	// changed: true
	// project proj-fake: no changes
}
