package dbcloud_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

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
