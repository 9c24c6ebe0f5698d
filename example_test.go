package dbcloud_test

// The examples run against dbcloudtest, the SDK's public test server, so
// each is code to copy: into a test as it is, or into a program with the
// client from dbcloud.NewClientFromEnv instead of srv.Client().

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

func ExampleServicesClient_WaitForReady() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client, projectID := srv.Client(), srv.ProjectID
	ctx := context.Background()

	svc, err := client.Services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{
		Name:   "orders",
		Addons: []dbcloud.Addon{dbcloud.AddonTimeSeries},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("created:", svc.Name, svc.Status)

	ready, err := client.Services.WaitForReady(ctx, projectID, svc.ServiceID,
		dbcloud.WithWaitTimeout(10*time.Minute),
		dbcloud.WithProgress(func(status string) { fmt.Println("status:", status) }))
	var waitErr *dbcloud.WaitError
	switch {
	case errors.As(err, &waitErr) && errors.Is(err, context.DeadlineExceeded):
		log.Fatalf("still %s after 10 minutes", waitErr.LastStatus)
	case err != nil:
		log.Fatal(err)
	}
	fmt.Println("ready:", ready.ServiceType, ready.Endpoint.Host)
	// Output:
	// created: orders QUEUED
	// status: READY
	// ready: TIMESERIESDB 127.0.0.1
}

func ExampleServicesClient_WaitForConnectable() {
	srv := dbcloudtest.NewServer() // its endpoints answer like PostgreSQL
	defer srv.Close()
	client, projectID := srv.Client(), srv.ProjectID
	ctx := context.Background()

	svc, err := client.Services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	// READY, and then until the database answers: run migrations next.
	// For a server certificate of a private CA, add
	// dbcloud.WithTLSConfig(&tls.Config{RootCAs: pool}).
	db, err := client.Services.WaitForConnectable(ctx, projectID, svc.ServiceID,
		dbcloud.WithWaitTimeout(15*time.Minute),
		dbcloud.WithProgress(func(status string) { fmt.Println("status:", status) }))
	if err != nil {
		log.Fatal(err) // a *WaitError; on a timeout it names the last probe's failure
	}
	fmt.Println("database answers at", db.Endpoint.Host)
	// Output:
	// status: READY
	// database answers at 127.0.0.1
}

func ExampleServicesClient_AllLogs() {
	srv := dbcloudtest.NewServer(dbcloudtest.WithSeed(1),
		dbcloudtest.WithStartTime(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)))
	defer srv.Close()
	client, projectID := srv.Client(), srv.ProjectID
	ctx := context.Background()
	svc, err := client.Services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	_ = srv.SeedLogs(svc.ServiceID, 1200) // some history, over three pages

	bySeverity := map[string]int{}
	total := 0
	for entry, err := range client.Services.AllLogs(ctx, projectID, svc.ServiceID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		if total < 2 {
			fmt.Println(entry.Timestamp.Format(time.RFC3339), entry.Severity, entry.Message)
		}
		bySeverity[entry.Severity]++
		total++
	}
	fmt.Println("entries:", total, "errors:", bySeverity["ERROR"])
	// Output:
	// 2026-11-22T09:00:00Z FATAL password authentication failed for user "tsdbadmin"
	// 2026-11-22T08:59:59Z ERROR duplicate key value violates unique constraint "invoices_pkey"
	// entries: 1214 errors: 120
}

func ExampleServicesClient_ListLogs() {
	srv := dbcloudtest.NewServer(dbcloudtest.WithSeed(1))
	defer srv.Close()
	client, projectID := srv.Client(), srv.ProjectID
	ctx := context.Background()
	svc, err := client.Services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	_ = srv.SeedLogs(svc.ServiceID, 1500)

	// Read one page now, keep the cursor, and resume later from where it stopped.
	filter := dbcloud.LogOptions{Severities: []string{"LOG", "WARNING", "ERROR"}}
	page, err := client.Services.ListLogs(ctx, projectID, svc.ServiceID, &filter)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("first page:", len(page.Entries), "entries, more:", page.NextCursor != "")

	for cursor := page.NextCursor; cursor != ""; cursor = page.NextCursor {
		next := filter // the same filters, from the cursor on
		next.Cursor = cursor
		page, err = client.Services.ListLogs(ctx, projectID, svc.ServiceID, &next)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("next page:", len(page.Entries), "entries, more:", page.NextCursor != "")
	}
	// Output:
	// first page: 500 entries, more: true
	// next page: 500 entries, more: true
	// next page: 350 entries, more: false
}

func ExampleAPIError() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client := srv.Client()

	_, err := client.Services.Get(context.Background(), srv.ProjectID, "no-such-service")
	var apiErr *dbcloud.APIError
	if errors.Is(err, dbcloud.ErrNotFound) && errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Code, apiErr.RequestID != "")
	}
	// Output:
	// 404 NOT_FOUND true
}
