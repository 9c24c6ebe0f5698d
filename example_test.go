package dbcloud_test

// The examples run against dbcloudtest, the SDK's public test server, so
// each is code to copy: into a test as it is, or into a program with the
// client from dbcloud.NewClientFromEnv instead of srv.Client().

import (
	"context"
	"errors"
	"fmt"
	"log"
	"strings"
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
		dbcloud.WithProgress(func(p dbcloud.WaitProgress) { fmt.Println("status:", p.Status) }))
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
	wait := func() error {
		db, err := client.Services.WaitForConnectable(ctx, projectID, svc.ServiceID,
			dbcloud.WithWaitTimeout(15*time.Minute),
			dbcloud.WithStopOn(dbcloud.StatusUnstable),
			dbcloud.WithProgress(func(p dbcloud.WaitProgress) { fmt.Println(p) }))
		if err != nil {
			return err // a *WaitError naming the service; on a timeout, also the last probe's failure
		}
		fmt.Println("database answers at", db.Endpoint.Host)
		return nil
	}
	if err := wait(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// service "orders" (tsqcr8jka9): READY, waiting for connectable
	// database answers at 127.0.0.1
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

// Wait for a fleet: every service's outcome, all at once, for one read per
// tick whatever the number of services. The services are passed as Create
// returned them, so that each keeps its password.
func ExampleServicesClient_WaitForAll() {
	srv := dbcloudtest.NewServer(dbcloudtest.WithStep(time.Minute))
	defer srv.Close()
	client := srv.Client()
	ctx := context.Background()
	var fleet []*dbcloud.Service
	for _, name := range []string{"tenant-a", "tenant-b", "tenant-c"} {
		svc, err := client.Services.Create(ctx, srv.ProjectID, &dbcloud.CreateServiceRequest{Name: name})
		if err != nil {
			panic(err)
		}
		fleet = append(fleet, svc)
	}
	srv.Advance(time.Hour)                                        // every service READY...
	_ = srv.SetStatus(fleet[1].ServiceID, dbcloud.StatusUnstable) // ...but one

	res, err := client.Services.WaitForAll(ctx, srv.ProjectID, fleet, dbcloud.StatusReady,
		dbcloud.WithWaitTimeout(20*time.Minute),
		dbcloud.WithStopOn(dbcloud.StatusUnstable),
		dbcloud.WithCondition(func(s *dbcloud.Service) (bool, error) {
			return s.Endpoint != nil, nil // and its endpoint is known
		}))
	fmt.Println("reached:", len(res.Reached), "failed:", len(res.Failed), "pending:", len(res.Pending))
	fmt.Println(err != nil, res.Failed[fleet[1].ServiceID] != nil)
	a := res.Reached[fleet[0].ServiceID]
	fmt.Println(a.Name, a.Status, a.InitialPassword == fleet[0].InitialPassword) // the create's password, kept
	// Output:
	// reached: 2 failed: 1 pending: 0
	// true true
	// tenant-a READY true
}

// The connection string a driver takes. The password is escaped; the string
// that carries it is a Secret, so printing it by mistake shows nothing.
func ExampleEndpoint_ConnectionString() {
	ep := &dbcloud.Endpoint{Host: "db.example.com", Port: 5432}
	password := dbcloud.Secret("p@ss/word") // svc.InitialPassword, kept from Create

	fmt.Println(ep)
	fmt.Println(ep.ConnectionString())
	dsn := ep.ConnectionStringWithPassword(password)
	fmt.Println(dsn)         // printed by mistake
	fmt.Println(string(dsn)) // what to hand to pgx.Connect or sql.Open("pgx", ...)
	// Output:
	// db.example.com:5432
	// postgresql://tsdbadmin@db.example.com:5432/tsdb?sslmode=require
	// [redacted]
	// postgresql://tsdbadmin:p%40ss%2Fword@db.example.com:5432/tsdb?sslmode=require
}

// The pooler's endpoint and a replica set's take the same role, database
// and password as the service's; PoolerEndpoint is nil while the pooler is
// off, and a nil endpoint's connection string is "".
func ExampleService_PoolerEndpoint() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client, projectID := srv.Client(), srv.ProjectID
	ctx := context.Background()

	svc, err := client.Services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	password := svc.InitialPassword // only Create and Fork return it
	fmt.Printf("pooler before: %q\n", svc.PoolerEndpoint().ConnectionString())

	if err := client.Services.EnablePooler(ctx, projectID, svc.ServiceID); err != nil {
		log.Fatal(err)
	}
	svc, err = client.Services.WaitForReady(ctx, projectID, svc.ServiceID)
	if err != nil {
		log.Fatal(err)
	}
	dsn := svc.PoolerEndpoint().ConnectionStringWithPassword(password)
	fmt.Println("pooler after:", dsn != "")
	// Output:
	// pooler before: ""
	// pooler after: true
}

// The addons decide a service's type: none is Postgres, time-series the
// time-series type, ai the vector type.
func ExampleCreateServiceRequest() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client, projectID := srv.Client(), srv.ProjectID
	ctx := context.Background()

	for _, req := range []*dbcloud.CreateServiceRequest{
		{Name: "app"}, // Postgres
		{Name: "metrics", Addons: []dbcloud.Addon{dbcloud.AddonTimeSeries}},
		{Name: "embeddings", Addons: []dbcloud.Addon{dbcloud.AddonAI}},
	} {
		svc, err := client.Services.Create(ctx, projectID, req)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(svc.Name, svc.ServiceType)
	}
	// Output:
	// app POSTGRES
	// metrics TIMESERIESDB
	// embeddings VECTOR
}

// Expiring Bearer tokens. With golang.org/x/oauth2, whose TokenSource
// returns an *oauth2.Token, the adapter is the function below with
// ts.Token() in place of mint():
//
//	src := dbcloud.TokenSourceFunc(func() (*dbcloud.Token, error) {
//		t, err := ts.Token()
//		if err != nil {
//			return nil, err
//		}
//		return &dbcloud.Token{AccessToken: dbcloud.Secret(t.AccessToken), Expiry: t.Expiry}, nil
//	})
func ExampleBearerTokens() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	// mint stands for your token service; the test server accepts its key
	// as the token.
	mint := func() (access string, expiry time.Time, err error) {
		return srv.APIKey, time.Now().Add(15 * time.Minute), nil
	}

	src := dbcloud.TokenSourceFunc(func() (*dbcloud.Token, error) {
		access, expiry, err := mint()
		if err != nil {
			return nil, err
		}
		return &dbcloud.Token{AccessToken: dbcloud.Secret(access), Expiry: expiry}, nil
	})
	client, err := dbcloud.NewClientWithCredentials(dbcloud.BearerTokens(src), dbcloud.WithBaseURL(srv.URL))
	if err != nil {
		log.Fatal(err)
	}
	defer client.CloseIdleConnections()
	services, err := client.Services.List(context.Background(), srv.ProjectID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(services), "services")
	// Output: 0 services
}

// A personal access token, the two halves the live service's users hold.
// NewClientFromEnv reads them from DBCLOUD_PUBLIC_KEY and DBCLOUD_SECRET_KEY
// (or DBCLOUD_SECRET_KEY_FILE).
func ExamplePersonalAccessToken() {
	creds := dbcloud.PersonalAccessToken("my-public-key", "my-secret-key")
	client, err := dbcloud.NewClientWithCredentials(creds, dbcloud.WithBaseURL("https://api.example.com/v1"))
	if err != nil {
		log.Fatal(err)
	}
	_ = client // sends "Authorization: Basic base64(my-public-key:my-secret-key)"
	// Printing the credentials, or the client, shows no secret.
	fmt.Println(strings.Contains(fmt.Sprintf("%+v %+v", creds, client), "my-secret-key"))
	// Output: false
}

// A client for a program that must not change anything: every change
// fails before it is sent; reads and waits work.
func ExampleWithReadOnly() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	ctx := context.Background()
	svc, err := srv.Client().Services.Create(ctx, srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}

	ro := srv.Client(dbcloud.WithReadOnly())
	got, err := ro.Services.Get(ctx, srv.ProjectID, svc.ServiceID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("read:", got.Name)
	err = ro.Services.Delete(ctx, srv.ProjectID, svc.ServiceID)
	fmt.Println("delete refused:", errors.Is(err, dbcloud.ErrReadOnly))
	// Output:
	// read: orders
	// delete refused: true
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

	bySeverity := map[dbcloud.Severity]int{}
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
	fmt.Println("entries:", total, "errors:", bySeverity[dbcloud.SeverityError])
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

// The last error lines, then every new one as it comes: the position
// TailLogs returns is where FollowLogs resumes, with no line missed or
// repeated. Stored as text, it survives a restart of the program.
func ExampleServicesClient_TailLogs() {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	client, projectID := srv.Client(), srv.ProjectID
	ctx := context.Background()
	svc, err := client.Services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	srv.Advance(time.Second)
	_ = srv.AppendLogs(svc.ServiceID,
		dbcloud.LogEntry{Severity: "ERROR", Message: "deadlock detected"},
		dbcloud.LogEntry{Severity: "LOG", Message: "checkpoint complete"},
		dbcloud.LogEntry{Severity: "FATAL", Message: "terminating connection due to administrator command"})

	errorsOnly := &dbcloud.LogOptions{MinSeverity: dbcloud.SeverityError}
	lines, pos, err := client.Services.TailLogs(ctx, projectID, svc.ServiceID, 2, errorsOnly)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range lines {
		fmt.Println("tail:  ", e.Severity, e.Message)
	}
	saved := pos.String() // e.g. in a file, to resume after a restart

	srv.Advance(time.Second)
	_ = srv.AppendLogs(svc.ServiceID,
		dbcloud.LogEntry{Severity: "WARNING", Message: "there is no transaction in progress"},
		dbcloud.LogEntry{Severity: "ERROR", Message: "canceling statement due to statement timeout"})

	after, err := dbcloud.ParseLogPosition(saved)
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := context.WithTimeout(ctx, time.Minute)
	defer stop()
	for e, err := range client.Services.FollowLogs(ctx, projectID, svc.ServiceID, &dbcloud.LogOptions{
		After:        after,
		MinSeverity:  dbcloud.SeverityError,
		PollInterval: 10 * time.Millisecond,
	}) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("follow:", e.Severity, e.Message)
		after.Advance(e) // and store after.String() once the line is handled
		break            // a real tool runs until ctx ends
	}
	// Output:
	// tail:   ERROR deadlock detected
	// tail:   FATAL terminating connection due to administrator command
	// follow: ERROR canceling statement due to statement timeout
}

func ExampleServicesClient_FollowLogs() {
	srv := dbcloudtest.NewServer(dbcloudtest.WithStartTime(time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)))
	defer srv.Close()
	client, projectID := srv.Client(), srv.ProjectID
	// A program would stop on Ctrl-C: signal.NotifyContext(ctx, os.Interrupt).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	svc, err := client.Services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		log.Fatal(err)
	}
	// What a migration writes to the database's log (here, into the test server).
	at := time.Date(2026, 11, 22, 9, 0, 1, 0, time.UTC)
	_ = srv.AppendLogs(svc.ServiceID,
		dbcloud.LogEntry{Timestamp: at, Message: "migration 42: started"},
		dbcloud.LogEntry{Timestamp: at, Severity: "WARNING", Message: "migration 42: table orders is large"},
		dbcloud.LogEntry{Timestamp: at.Add(2 * time.Second), Message: "checkpoint starting: time"},
		dbcloud.LogEntry{Timestamp: at.Add(3 * time.Second), Message: "migration 42: done"})

	opts := &dbcloud.LogOptions{
		Since:        at, // or zero: only what is written from now on
		Search:       []string{"migration"},
		PollInterval: 5 * time.Second,
	}
	for entry, err := range client.Services.FollowLogs(ctx, projectID, svc.ServiceID, opts) {
		if err != nil {
			log.Fatal(err) // the service is gone, or the key was refused
		}
		fmt.Println(entry.Timestamp.Format(time.TimeOnly), entry.Severity, entry.Message)
		if strings.HasSuffix(entry.Message, "done") {
			break
		}
	}
	// Output:
	// 09:00:01 LOG migration 42: started
	// 09:00:01 WARNING migration 42: table orders is large
	// 09:00:04 LOG migration 42: done
}
