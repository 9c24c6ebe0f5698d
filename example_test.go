package dbcloud_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http/httptest"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/internal/fakeapi"
)

// exampleAPI starts an in-process fake of the API for the examples. Real
// programs use dbcloud.NewClientFromEnv, or NewClient with WithBaseURL.
func exampleAPI() (client *dbcloud.Client, projectID string, fake *fakeapi.API, stop func()) {
	clock := fakeapi.NewManualClock(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC))
	fake = fakeapi.New(fakeapi.Options{Clock: clock, Seed: 1})
	srv := httptest.NewServer(fake)
	client, err := dbcloud.NewClient(fake.APIKey(), dbcloud.WithBaseURL(srv.URL+"/v1"))
	if err != nil {
		log.Fatal(err)
	}
	return client, fake.ProjectID(), fake, func() {
		client.CloseIdleConnections()
		srv.Close()
	}
}

func ExampleServicesClient_WaitForReady() {
	client, projectID, _, stop := exampleAPI()
	defer stop()
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
	fmt.Println("ready:", ready.ServiceType, ready.Endpoint.Port)
	// Output:
	// created: orders QUEUED
	// status: READY
	// ready: TIMESERIESDB 5432
}

func ExampleServicesClient_WaitForConnectable() {
	// A fake API whose endpoints answer like PostgreSQL servers.
	fake, err := fakeapi.Start("", fakeapi.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer fake.Close()
	client, err := dbcloud.NewClient(fake.APIKey, dbcloud.WithBaseURL(fake.URL))
	if err != nil {
		log.Fatal(err)
	}
	defer client.CloseIdleConnections()
	ctx := context.Background()

	svc, err := client.Services.Create(ctx, fake.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	// READY, and then until the database answers: run migrations next.
	// For a server certificate of a private CA, add
	// dbcloud.WithTLSConfig(&tls.Config{RootCAs: pool}).
	db, err := client.Services.WaitForConnectable(ctx, fake.ProjectID, svc.ServiceID,
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
	client, projectID, fake, stop := exampleAPI()
	defer stop()
	ctx := context.Background()
	svc, err := client.Services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	_ = fake.SeedLogs(projectID, svc.ServiceID, 1200) // some history, over three pages

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
	client, projectID, fake, stop := exampleAPI()
	defer stop()
	ctx := context.Background()
	svc, err := client.Services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	_ = fake.SeedLogs(projectID, svc.ServiceID, 1500)

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
	client, projectID, _, stop := exampleAPI()
	defer stop()

	_, err := client.Services.Get(context.Background(), projectID, "no-such-service")
	var apiErr *dbcloud.APIError
	if errors.Is(err, dbcloud.ErrNotFound) && errors.As(err, &apiErr) {
		fmt.Println(apiErr.StatusCode, apiErr.Code, apiErr.RequestID != "")
	}
	// Output:
	// 404 NOT_FOUND true
}
