package dbcloud_test

import (
	"context"
	"fmt"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// Wait for a fleet: every service's outcome, all at once, for one read per
// tick whatever the number of services.
func ExampleServicesClient_WaitForAll() {
	srv := dbcloudtest.NewServer(dbcloudtest.WithStep(time.Minute))
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	var ids []string
	for _, name := range []string{"tenant-a", "tenant-b", "tenant-c"} {
		svc, err := client.Services.Create(ctx, srv.ProjectID, &dbcloud.CreateServiceRequest{Name: name})
		if err != nil {
			panic(err)
		}
		ids = append(ids, svc.ServiceID)
	}
	srv.Advance(time.Hour)                            // every service READY...
	_ = srv.SetStatus(ids[1], dbcloud.StatusUnstable) // ...but one

	res, err := client.Services.WaitForAll(ctx, srv.ProjectID, ids, dbcloud.StatusReady,
		dbcloud.WithWaitTimeout(20*time.Minute),
		dbcloud.WithStopStatuses(dbcloud.StatusUnstable),
		dbcloud.WithServiceCondition(func(s *dbcloud.Service) (bool, error) {
			return s.Endpoint != nil, nil // and its endpoint is known
		}))
	fmt.Println("reached:", len(res.Reached), "failed:", len(res.Failed), "pending:", len(res.Pending))
	fmt.Println(err != nil, res.Failed[ids[1]] != nil)
	// Output:
	// reached: 2 failed: 1 pending: 0
	// true true
}
