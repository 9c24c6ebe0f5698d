package dbcloud_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// ForkUnlessExists makes a fork once: run again, it finds the fork by its
// name and parent. The PITR target comes from the machine's clock.
func ExampleServicesClient_ForkUnlessExists() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	c, p := srv.Client(), srv.ProjectID
	ctx := context.Background()

	parent, err := c.Services.Create(ctx, p, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := c.Services.WaitForReady(ctx, p, parent.ServiceID); err != nil {
		log.Fatal(err)
	}
	for range 2 {
		fork, created, err := c.Services.ForkUnlessExists(ctx, p, parent.ServiceID, &dbcloud.ForkServiceRequest{
			Strategy: dbcloud.ForkPITR, TargetTime: time.Now(), Name: "orders-staging",
		})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(fork.Name, "created:", created)
	}
	// Output:
	// orders-staging created: true
	// orders-staging created: false
}

// WithWaitProgress names the resource of each poll, so that the lines of a
// deploy with several waits say whose status they show.
func ExampleWithWaitProgress() {
	srv := dbcloudtest.NewServer(dbcloudtest.WithStep(time.Minute))
	defer srv.Close()
	c, p := srv.Client(), srv.ProjectID
	ctx := context.Background()

	svc, err := c.Services.Create(ctx, p, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	_, err = c.Services.WaitForReady(ctx, p, svc.ServiceID,
		dbcloud.WithStopOn(dbcloud.StatusUnstable, dbcloud.ReplicaSetError),
		dbcloud.WithWaitProgress(func(w dbcloud.WaitProgress) {
			fmt.Println(w)
			srv.Advance(time.Minute) // the test server's next status
		}))
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// service "orders" (tsqcr8jka9): QUEUED, waiting for READY
	// service "orders" (tsqcr8jka9): CONFIGURING, waiting for READY
	// service "orders" (tsqcr8jka9): READY, waiting for READY
}
