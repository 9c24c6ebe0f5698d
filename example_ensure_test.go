package dbcloud_test

import (
	"context"
	"fmt"
	"log"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// A deploy that can run again and again: each step reads first and changes
// only what differs, so the second run sends nothing but reads.
func ExampleServicesClient_CreateUnlessExists() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client, projectID := srv.Client(), srv.ProjectID

	deploy := func(ctx context.Context) error {
		svc, created, err := client.Services.CreateUnlessExists(ctx, projectID, &dbcloud.CreateServiceRequest{
			Name:           "orders-db",
			EnvironmentTag: dbcloud.EnvironmentProd,
			ReplicaCount:   new(1),
		})
		if err != nil {
			return err // errors.Is(err, dbcloud.ErrDuplicateName): two services have the name
		}
		if created {
			fmt.Println("created", svc.Name) // keep svc.InitialPassword now: it is sent once
		} else {
			fmt.Println("found", svc.Name)
		}
		if _, err := client.Services.WaitForReady(ctx, projectID, svc.ServiceID); err != nil {
			return err
		}
		pooler, err := client.Services.EnsurePooler(ctx, projectID, svc.ServiceID, true)
		if err != nil {
			return err
		}
		ha, err := client.Services.EnsureHA(ctx, projectID, svc.ServiceID, &dbcloud.SetHARequest{ReplicaCount: new(2)})
		if err != nil {
			return err
		}
		fmt.Println("pooler changed:", pooler, "- HA changed:", ha)
		_, err = client.Services.WaitForReady(ctx, projectID, svc.ServiceID)
		return err
	}

	for run := 1; run <= 2; run++ {
		fmt.Println("run", run)
		if err := deploy(context.Background()); err != nil {
			log.Fatal(err)
		}
	}
	// Output:
	// run 1
	// created orders-db
	// pooler changed: true - HA changed: true
	// run 2
	// found orders-db
	// pooler changed: false - HA changed: false
}
