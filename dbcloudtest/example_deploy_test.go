package dbcloudtest_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// deploy is the code under test: it makes sure a service called name exists
// and is READY, reusing the one the project has, so that a pipeline can run
// it again after a failure.
func deploy(ctx context.Context, client *dbcloud.Client, projectID, name string) (*dbcloud.Service, error) {
	services, err := client.Services.List(ctx, projectID)
	if err != nil {
		return nil, err
	}
	id := ""
	for _, s := range services {
		if s.Name == name {
			id = s.ServiceID
		}
	}
	if id == "" {
		svc, err := client.Services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{Name: name})
		if err != nil {
			return nil, fmt.Errorf("creating %s: %w", name, err)
		}
		id = svc.ServiceID
	}
	return client.Services.WaitForReady(ctx, projectID, id, dbcloud.WithWaitTimeout(15*time.Minute))
}

// A deploy whose create loses its connection after the server made the
// service fails; run again, it finds that service instead of making a
// second one.
func Example() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	srv.InjectFault(dbcloudtest.Fault{
		Method: "POST", Path: "/projects/*/services",
		Drop: true, AfterHandling: true, // the server acts, the answer is lost
	})
	if _, err := deploy(ctx, client, srv.ProjectID, "orders"); err != nil {
		fmt.Println("first run failed")
	}

	svc, err := deploy(ctx, client, srv.ProjectID, "orders")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("second run:", svc.Name, svc.Status)
	fmt.Println("services:", len(srv.Services()))
	fmt.Println("creates sent:", srv.Count("POST", "/projects/*/services"))
	// Output:
	// first run failed
	// second run: orders READY
	// services: 1
	// creates sent: 1
}

// With dbcloud.WithCreateRecovery the same fault costs the deploy nothing:
// Create finds the service the server made and gives it a new password, since
// the answer that carried the first one was lost.
func ExampleServer_Client_createRecovery() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client := srv.Client(dbcloud.WithCreateRecovery())
	ctx := context.Background()

	srv.InjectFault(dbcloudtest.Fault{
		Method: "POST", Path: "/projects/*/services",
		Drop: true, AfterHandling: true, // the server acts, the answer is lost
	})
	svc, err := deploy(ctx, client, srv.ProjectID, "orders")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("first run:", svc.Name, svc.Status)
	fmt.Println("services:", len(srv.Services()))
	fmt.Println("creates sent:", srv.Count("POST", "/projects/*/services"))
	// Output:
	// first run: orders READY
	// services: 1
	// creates sent: 1
}
