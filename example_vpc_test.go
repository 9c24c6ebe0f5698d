package dbcloud_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// A VPC's life: created, found by name (names need not be unique, so a
// program that finds by name decides what two of them mean), renamed,
// deleted.
func ExampleVPCsClient() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client, projectID := srv.Client(), srv.ProjectID
	ctx := context.Background()

	created, err := client.VPCs.Create(ctx, projectID, &dbcloud.CreateVPCRequest{
		Name: "private", CIDR: "10.0.0.0/16", RegionCode: "us-east-1",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("created:", created.Name, created.CIDR, created.RegionCode)

	vpcs, err := client.VPCs.List(ctx, projectID)
	if err != nil {
		log.Fatal(err)
	}
	var found []dbcloud.VPC
	for _, v := range vpcs {
		if v.Name == "private" {
			found = append(found, v)
		}
	}
	if len(found) != 1 {
		log.Fatalf("%d VPCs named private, want 1", len(found))
	}
	id := found[0].ID
	fmt.Println("found by name:", id == created.ID)

	if err := client.VPCs.Rename(ctx, projectID, id, "private-eu"); err != nil {
		log.Fatal(err)
	}
	vpc, err := client.VPCs.Get(ctx, projectID, id)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("renamed:", vpc.Name)

	if err := client.VPCs.Delete(ctx, projectID, id); err != nil {
		log.Fatal(err)
	}
	_, err = client.VPCs.Get(ctx, projectID, id)
	fmt.Println("deleted:", errors.Is(err, dbcloud.ErrNotFound))
	// Output:
	// created: private 10.0.0.0/16 us-east-1
	// found by name: true
	// renamed: private-eu
	// deleted: true
}

// A service attached to a VPC the program created. A VPC with a service
// attached cannot be deleted: detach the service first.
func ExampleServicesClient_AttachToVPC() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client, projectID := srv.Client(), srv.ProjectID
	ctx := context.Background()

	vpc, err := client.VPCs.Create(ctx, projectID, &dbcloud.CreateVPCRequest{
		Name: "private", CIDR: "10.0.0.0/16", RegionCode: "us-east-1",
	})
	if err != nil {
		log.Fatal(err)
	}
	svc, err := client.Services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	if err := client.Services.AttachToVPC(ctx, projectID, svc.ServiceID, vpc.ID); err != nil {
		log.Fatal(err)
	}
	svc, err = client.Services.Get(ctx, projectID, svc.ServiceID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("attached:", svc.VPCEndpoint.VPCID == vpc.ID)

	err = client.VPCs.Delete(ctx, projectID, vpc.ID)
	fmt.Println("delete while attached:", errors.Is(err, dbcloud.ErrConflict))
	if err := client.Services.DetachFromVPC(ctx, projectID, svc.ServiceID, vpc.ID); err != nil {
		log.Fatal(err)
	}
	err = client.VPCs.Delete(ctx, projectID, vpc.ID)
	fmt.Println("delete once detached:", err)
	// Output:
	// attached: true
	// delete while attached: true
	// delete once detached: <nil>
}

// A peering connection is requested here and accepted in the peer's cloud
// account, with the cloud's own tools and the connection's ProvisionedID.
// Here the test server's peer side accepts it while the wait polls.
func ExamplePeeringsClient_WaitForActive() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client, projectID := srv.Client(), srv.ProjectID
	ctx := context.Background()

	vpc, err := client.VPCs.Create(ctx, projectID, &dbcloud.CreateVPCRequest{
		Name: "private", CIDR: "10.0.0.0/16", RegionCode: "us-east-1",
	})
	if err != nil {
		log.Fatal(err)
	}
	peering, err := client.Peerings.Create(ctx, projectID, vpc.ID, &dbcloud.CreatePeeringRequest{
		PeerAccountID: "123456789012", PeerRegionCode: "eu-central-1", PeerVPCID: "vpc-0a1b2c3d",
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("requested:", peering.PeerVPCID, peering.Status)

	active, err := client.Peerings.WaitForActive(ctx, projectID, vpc.ID, peering.ID,
		dbcloud.WithWaitTimeout(24*time.Hour), // someone has to act on the peer's side
		dbcloud.WithProgress(func(p dbcloud.WaitProgress) {
			fmt.Println("status:", p.Status)
			if p.Status == dbcloud.PeeringPending {
				_ = srv.AcceptPeering(peering.ID) // the peer's side accepts
			}
		}))
	var waitErr *dbcloud.WaitError
	switch {
	case errors.Is(err, dbcloud.ErrPeeringFailed):
		log.Fatalf("the peering failed: %v", err) // the connection's ErrorMessage is in the text
	case errors.As(err, &waitErr) && errors.Is(err, context.DeadlineExceeded):
		log.Fatalf("still %s after a day", waitErr.LastStatus)
	case err != nil:
		log.Fatal(err)
	}
	fmt.Println("active:", active.Status, active.ProvisionedID == peering.ProvisionedID)
	// Output:
	// requested: vpc-0a1b2c3d pending
	// status: pending
	// status: active
	// active: active true
}

// A rename returns the service with its new name; its id stays.
func ExampleServicesClient_Rename() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client, projectID := srv.Client(), srv.ProjectID
	ctx := context.Background()

	svc, err := client.Services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	renamed, err := client.Services.Rename(ctx, projectID, svc.ServiceID, "orders-eu")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(renamed.Name, renamed.ServiceID == svc.ServiceID)
	// Output: orders-eu true
}
