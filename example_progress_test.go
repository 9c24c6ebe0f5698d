package dbcloud_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// WithProgress names the resource of each poll, so that the lines of a
// deploy with several waits say whose status they show.
func ExampleWithProgress() {
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
		dbcloud.WithProgress(func(w dbcloud.WaitProgress) {
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
