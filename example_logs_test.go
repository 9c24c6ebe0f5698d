package dbcloud_test

import (
	"context"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

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

// The last error lines, then every new one as it comes: the position
// TailLogs returns is where Follow resumes, with no line missed or
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

	errorsOnly := &dbcloud.LogReadOptions{MinSeverity: dbcloud.SeverityError}
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
	for e, err := range client.Services.Follow(ctx, projectID, svc.ServiceID, &dbcloud.LogFollowOptions{
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
