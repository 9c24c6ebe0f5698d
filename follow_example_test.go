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
