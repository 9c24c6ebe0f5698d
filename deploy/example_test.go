package deploy_test

import (
	"context"
	"errors"
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
	client := srv.Client()
	ctx := context.Background()

	st := &deploy.State{Services: []deploy.Service{{
		Name: "orders", CPUMillis: 1000, MemoryGBs: 4,
		HAReplicas: new(2), Pooler: new(true), Environment: dbcloud.EnvironmentProd,
		ReplicaSets: []deploy.ReplicaSet{{Name: "orders-read", Nodes: 2, CPUMillis: 500, MemoryGBs: 2, Pooler: new(true)}},
		Forks:       []deploy.Fork{{Name: "orders-staging", Strategy: dbcloud.ForkPITR}},
	}}}
	plan, err := st.Plan(ctx, client)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(plan)
	res, err := st.Apply(ctx, client, deploy.WithProgress(func(p deploy.Progress) {
		if p.Poll == nil && p.Record.Outcome == deploy.Done {
			fmt.Println(p)
		}
	}))
	if err != nil {
		log.Fatal(err) // a pipeline runs the same deploy again
	}
	fmt.Println("changed:", res.Changed())

	plan, err = st.Plan(ctx, client)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(plan)
	// Output:
	// project proj-fake: 5 change(s)
	//   + create service "orders": 1000m CPU / 4 GB, 2 HA replica(s), PROD
	//   ~ update service "orders": pooler off -> on
	//   + create replica set "orders-read" of "orders": 2 node(s), 500m CPU / 2 GB
	//   ~ update replica set "orders-read" of "orders": pooler off -> on
	//   + create fork "orders-staging" of "orders": PITR as of when the fork step runs
	// + create service "orders" (tsqcr8jka9): 1000m CPU / 4 GB, 2 HA replica(s), PROD: done
	// ~ update service "orders" (tsqcr8jka9): pooler off -> on: done
	// + create replica set "orders-read" of "orders" (rs-qyjmm8): 2 node(s), 500m CPU / 2 GB: done
	// ~ update replica set "orders-read" of "orders" (rs-qyjmm8): pooler off -> on: done
	// + create fork "orders-staging" of "orders" (oezwuw3rw8): PITR as of when the fork step runs: done
	// changed: true
	// project proj-fake: no changes
}

// A plan reviewed in one job and applied in another: the world changed in
// between (someone resized the service), so Apply refuses the plan,
// sending nothing, and says what changed.
func ExamplePlan_Apply() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	st := &deploy.State{Services: []deploy.Service{{Name: "orders", CPUMillis: 1000, MemoryGBs: 4}}}
	res, err := st.Apply(ctx, client)
	if err != nil {
		log.Fatal(err)
	}
	svc := res.Service("orders")

	st.Services[0].CPUMillis, st.Services[0].MemoryGBs = 2000, 8
	plan, err := st.Plan(ctx, client) // the plan a reviewer approves
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(plan)

	// Meanwhile, someone resizes the service.
	if _, err := client.Services.Resize(ctx, svc.ProjectID, svc.ServiceID, &dbcloud.ResizeRequest{CPUMillis: 4000, MemoryGBs: 16}); err != nil {
		log.Fatal(err)
	}

	_, err = plan.Apply(ctx, client)
	if errors.Is(err, deploy.ErrStalePlan) {
		fmt.Println(err) // plan again, and review the new plan
	}
	// Output:
	// project proj-fake: 1 change(s)
	//   ~ update service "orders" (tsqcr8jka9): size 1000m CPU / 4 GB -> 2000m CPU / 8 GB
	// deploy: the plan is stale: service "orders" (tsqcr8jka9): size: the plan expected 1000m CPU / 4 GB, found 4000m CPU / 16 GB
}

// A teardown: the destroy plan, printed for review, then applied; each
// resource is deleted and waited for until gone.
func ExampleState_Destroy() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	st := &deploy.State{Services: []deploy.Service{{
		Name:        "orders",
		ReplicaSets: []deploy.ReplicaSet{{Name: "orders-read", Nodes: 1, CPUMillis: 500, MemoryGBs: 2}},
		Forks:       []deploy.Fork{{Name: "orders-staging", Strategy: dbcloud.ForkNow}},
	}}}
	if _, err := st.Apply(ctx, client); err != nil {
		log.Fatal(err)
	}

	plan, err := st.PlanDestroy(ctx, client) // GETs only: a read-only client will do
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(plan)
	res, err := plan.Apply(ctx, client)
	if err != nil {
		log.Fatal(err) // run the same destroy again: what is gone is done
	}
	for _, c := range res.Records {
		fmt.Println(c.Change.Kind, c.Change.Name, c.Outcome)
	}
	// Output:
	// project proj-fake, destroy of "orders": 3 change(s)
	//   - delete fork "orders-staging" of "orders" (oezwuw3rw8)
	//   - delete replica set "orders-read" of "orders" (rs-qyjmm8)
	//   - delete service "orders" (tsqcr8jka9)
	// fork orders-staging done
	// replica set orders-read done
	// service orders done
}

// Every password a run obtains reaches the hook as soon as it exists,
// before the next step: store it there. It prints as [redacted].
func ExampleWithPasswords() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client := srv.Client()
	st := &deploy.State{Services: []deploy.Service{{
		Name:  "orders",
		Forks: []deploy.Fork{{Name: "orders-staging", Strategy: dbcloud.ForkNow}},
	}}}
	store := func(p deploy.Password) error {
		fmt.Printf("%s %s (%s): %v\n", p.Kind, p.Name, p.ServiceID, p.Password)
		return nil // a secret manager's Put; its error stops the run
	}
	if _, err := st.Apply(context.Background(), client, deploy.WithPasswords(store)); err != nil {
		log.Fatal(err)
	}
	// Output:
	// service orders (tsqcr8jka9): [redacted]
	// fork orders-staging (qyjmm8oezw): [redacted]
}

// A project's fleet as one state: each service with its own replica sets
// and forks, planned with one read of the project and applied at once, a
// few services at a time (WithParallelism). A service of the project that
// the state does not name is deleted only with PruneServices, and never
// when the state protects it: then the plan has a problem instead, and no
// Apply runs it.
func ExampleState_fleet() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client, projectID := srv.Client(), srv.ProjectID
	ctx := context.Background()
	if _, err := client.Services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{Name: "legacy"}); err != nil {
		log.Fatal(err)
	}

	st := &deploy.State{
		Services: []deploy.Service{
			{Name: "orders", Pooler: new(true),
				ReplicaSets: []deploy.ReplicaSet{{Name: "read", Nodes: 1, CPUMillis: 500, MemoryGBs: 2}}},
			{Name: "billing", Environment: dbcloud.EnvironmentProd,
				Forks: []deploy.Fork{{Name: "billing-staging", Strategy: dbcloud.ForkNow}}},
		},
		PruneServices: true,
		Protected:     []string{"legacy"},
	}
	if plan, err := st.Plan(ctx, client); err != nil {
		fmt.Print(plan)
		fmt.Println(err)
	}

	st.Protected = nil // legacy may go
	res, err := st.Apply(ctx, client, deploy.WithParallelism(4))
	if err != nil {
		log.Fatal(err) // names every service that failed; run the same Apply again
	}
	for _, r := range res.Records { // in the plan's order, whatever order they ran in
		fmt.Println(r.Change, "->", r.Outcome)
	}
	// Output:
	// project proj-fake: 5 change(s), 1 problem(s)
	//   + create service "orders"
	//   ~ update service "orders": pooler off -> on
	//   + create replica set "read" of "orders": 1 node(s), 500m CPU / 2 GB
	//   + create service "billing": PROD
	//   + create fork "billing-staging" of "billing": NOW
	//   ! service "legacy" (tsqcr8jka9): is protected (the state's protected names it), and this plan would delete it
	// deploy: the plan has 1 problem(s): service "legacy" (tsqcr8jka9): is protected (the state's protected names it), and this plan would delete it
	// + create service "orders" -> done
	// ~ update service "orders": pooler off -> on -> done
	// + create replica set "read" of "orders": 1 node(s), 500m CPU / 2 GB -> done
	// + create service "billing": PROD -> done
	// + create fork "billing-staging" of "billing": NOW -> done
	// - delete service "legacy" (tsqcr8jka9) -> done
}

// A state's VPC, with a peering, and two services attached to it by its
// name: the plan makes the VPC first, the peering is waited for until the
// peer's side accepts it, and a destroy deletes the services before the
// VPC.
func ExampleState_vpcs() {
	srv := dbcloudtest.NewServer(dbcloudtest.WithPeerAcceptance(0)) // the peer's side accepts at once
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	st := &deploy.State{
		VPCs: []deploy.VPC{{
			Name: "net", CIDR: "10.0.0.0/16", RegionCode: "us-east-1",
			Peerings: []deploy.Peering{{PeerAccountID: "123456789012", PeerRegionCode: "eu-central-1", PeerVPCID: "vpc-0a1b2c3d"}},
		}},
		Services: []deploy.Service{{Name: "api", VPC: "net"}, {Name: "worker", VPC: "net"}},
	}
	plan, err := st.Plan(ctx, client)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(plan)
	_, err = plan.Apply(ctx, client, deploy.WithParallelism(1), deploy.WithProgress(func(p deploy.Progress) {
		if p.Poll == nil && p.Record.Outcome == deploy.Done {
			fmt.Println(p)
		}
	}))
	if err != nil {
		log.Fatal(err)
	}

	destroy, err := st.PlanDestroy(ctx, client)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(destroy)
	if _, err := destroy.Apply(ctx, client); err != nil {
		log.Fatal(err)
	}
	vpcs, err := client.VPCs.List(ctx, client.ProjectID())
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("VPCs left:", len(vpcs))
	// Output:
	// project proj-fake: 6 change(s)
	//   + create VPC "net": 10.0.0.0/16, region us-east-1
	//   + create VPC peering "123456789012/eu-central-1/vpc-0a1b2c3d" of "net"
	//   + create service "api"
	//   ~ update service "api": vpc none -> "net"
	//   + create service "worker"
	//   ~ update service "worker": vpc none -> "net"
	// + create VPC "net" (55404922): 10.0.0.0/16, region us-east-1: done
	// + create VPC peering "123456789012/eu-central-1/vpc-0a1b2c3d" of "net" (09283208): done
	// + create service "api" (bx6cjpqyjm): done
	// ~ update service "api" (bx6cjpqyjm): vpc none -> "net": done
	// + create service "worker" (ens4366ejr): done
	// ~ update service "worker" (ens4366ejr): vpc none -> "net": done
	// project proj-fake, destroy of "api", "worker", VPC "net": 4 change(s)
	//   - delete service "api" (bx6cjpqyjm)
	//   - delete service "worker" (ens4366ejr)
	//   - delete VPC peering "123456789012/eu-central-1/vpc-0a1b2c3d" of "net" (09283208)
	//   - delete VPC "net" (55404922)
	// VPCs left: 0
}
