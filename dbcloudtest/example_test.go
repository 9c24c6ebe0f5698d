package dbcloudtest_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
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
	fmt.Println("new passwords set:", srv.Count("POST", "/projects/*/services/*/updatePassword"))
	// Output:
	// first run: orders READY
	// services: 1
	// creates sent: 1
	// new passwords set: 1
}

// With WithStep, statuses move only when the test moves the clock.
func ExampleServer_Advance() {
	srv := dbcloudtest.NewServer(dbcloudtest.WithStep(time.Minute))
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	svc, err := client.Services.Create(ctx, srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	for range 3 {
		got, err := client.Services.Get(ctx, srv.ProjectID, svc.ServiceID)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(got.Status)
		srv.Advance(time.Minute)
	}
	// Output:
	// QUEUED
	// CONFIGURING
	// READY
}

// A GET that meets a 503 is retried; a create is not, because repeating it
// could make a second service.
func ExampleServer_InjectFault() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	srv.InjectFault(dbcloudtest.Fault{Method: "GET", Path: "/projects/*/services", Times: 2, Status: 503})
	_, err := client.Services.List(ctx, srv.ProjectID)
	fmt.Println("list:", err, "- attempts:", srv.Count("GET", "/projects/*/services"))

	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: "/projects/*/services", Status: 503,
		Body: `{"code": "UNAVAILABLE", "message": "try again later"}`})
	_, err = client.Services.Create(ctx, srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	var apiErr *dbcloud.APIError
	if errors.As(err, &apiErr) {
		fmt.Println("create:", apiErr.StatusCode, apiErr.Message, "- attempts:", srv.Count("POST", "/projects/*/services"))
	}
	// Output:
	// list: <nil> - attempts: 3
	// create: 503 try again later - attempts: 1
}

// Requests shows what the code under test sent, and what it got.
func ExampleServer_Requests() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	svc, err := client.Services.Create(ctx, srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Services.WaitForReady(ctx, srv.ProjectID, svc.ServiceID); err != nil {
		log.Fatal(err)
	}
	_ = client.Services.EnablePooler(ctx, srv.ProjectID, svc.ServiceID)
	_ = client.Services.EnablePooler(ctx, srv.ProjectID, svc.ServiceID) // already on: 409

	for _, r := range srv.Requests() {
		fmt.Println(r.Method, strings.ReplaceAll(r.Path, svc.ServiceID, "{id}"), r.Status)
	}
	// Output:
	// POST /projects/proj-fake/services 202
	// GET /projects/proj-fake/services/{id} 200
	// POST /projects/proj-fake/services/{id}/enablePooler 200
	// POST /projects/proj-fake/services/{id}/enablePooler 409
}

// SetStatus reaches states no request leads to: here a service deleted
// behind the code's back, which a wait gives up on at once.
func ExampleServer_SetStatus() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	svc, err := client.Services.Create(ctx, srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	if err := srv.SetStatus(svc.ServiceID, dbcloud.StatusDeleted); err != nil {
		log.Fatal(err)
	}
	_, err = client.Services.WaitForReady(ctx, srv.ProjectID, svc.ServiceID)
	var waitErr *dbcloud.WaitError
	if errors.As(err, &waitErr) && errors.Is(err, dbcloud.ErrUnexpectedStatus) {
		fmt.Println("wait ended:", waitErr.LastStatus)
	}
	// Output:
	// wait ended: DELETED
}

// AppendLogs writes lines as the database would; the server's clock,
// WithStartTime and Now make their timestamps known to the test.
func ExampleServer_AppendLogs() {
	srv := dbcloudtest.NewServer(dbcloudtest.WithStartTime(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)))
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	svc, err := client.Services.Create(ctx, srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	srv.Advance(time.Hour)
	since := srv.Now()
	err = srv.AppendLogs(svc.ServiceID,
		dbcloud.LogEntry{Severity: "ERROR", Message: `could not extend file "base/16384/2619"`},
		dbcloud.LogEntry{Message: "checkpoint starting: time"},
		dbcloud.LogEntry{Timestamp: since.Add(time.Second), Severity: "ERROR", Message: "canceling statement due to user request"},
	)
	if err != nil {
		log.Fatal(err)
	}

	errorsOnly := &dbcloud.LogOptions{Severities: []string{"ERROR"}, Since: since}
	for entry, err := range client.Services.AllLogs(ctx, srv.ProjectID, svc.ServiceID, errorsOnly) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(entry.Timestamp.Format(time.TimeOnly), entry.Severity, entry.Message)
	}
	// Output:
	// 10:00:01 ERROR canceling statement due to user request
	// 10:00:00 ERROR could not extend file "base/16384/2619"
}

// Service shows the state the code under test left, as the API would
// return it.
func ExampleServer_Service() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	svc, err := client.Services.Create(ctx, srv.ProjectID, &dbcloud.CreateServiceRequest{
		Name: "orders", CPUMillis: 1000, MemoryGBs: 4, ReplicaCount: new(1),
	})
	if err != nil {
		log.Fatal(err)
	}
	if err := client.Services.EnablePooler(ctx, srv.ProjectID, svc.ServiceID); err != nil {
		log.Fatal(err)
	}

	got, ok := srv.Service(svc.ServiceID)
	fmt.Println(ok, got.Status, got.Resources[0].Spec.CPUMillis, got.HAReplicas.ReplicaCount, got.ConnectionPooler != nil)
	// Output:
	// true READY 1000 1 true
}

// The fake behind a gateway of the caller's that serves it under /dbcloud:
// the requests that pass through it reach the same model.
func ExampleServer_Handler() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	gw := httptest.NewServer(http.StripPrefix("/dbcloud", srv.Handler()))
	defer gw.Close()

	client := srv.Client(dbcloud.WithBaseURL(gw.URL + "/dbcloud/v1"))
	if _, err := client.Services.Create(context.Background(), client.ProjectID(), &dbcloud.CreateServiceRequest{Name: "orders"}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(srv.Services()), srv.Count("POST", "/projects/*/services"))
	// Output: 1 1
}

// A database that warms up for a minute after READY: the wait sees it
// starting up until the clock, moved after each poll, passes the delay.
func ExampleWithConnectDelay() {
	srv := dbcloudtest.NewServer(dbcloudtest.WithConnectDelay(time.Minute))
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()

	svc, err := client.Services.Create(ctx, srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	polls := 0
	db, err := client.Services.WaitForConnectable(ctx, srv.ProjectID, svc.ServiceID,
		dbcloud.WithPollInterval(time.Millisecond, time.Millisecond),
		dbcloud.WithProgress(func(dbcloud.WaitProgress) {
			polls++
			srv.Advance(25 * time.Second) // the warm-up goes on between polls
		}))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(db.Status, "and answering after", polls, "polls")
	// Output:
	// READY and answering after 4 polls
}
