package dbcloudtest_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/leakcheck"
)

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
		dbcloud.WithProgress(func(string) {
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

// Every endpoint is a live listener while its resource lives: a probe of a
// warming database times out naming 57P03, a deleted service's endpoint
// refuses, and Close closes every listener.
func TestEndpointsAreLive(t *testing.T) {
	leakcheck.Check(t)
	srv := dbcloudtest.NewServer(dbcloudtest.WithConnectDelay(time.Minute))
	defer srv.Close() // also on an early failure; Close may be called again
	client := srv.Client()
	svc := createReady(t, client, srv.ProjectID)
	if svc.Endpoint == nil || svc.Endpoint.Host != "127.0.0.1" || svc.Endpoint.Port == 0 {
		t.Fatalf("endpoint %+v, want a loopback port", svc.Endpoint)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	_, err := client.Services.WaitForConnectable(ctx, srv.ProjectID, svc.ServiceID, dbcloud.WithPollInterval(time.Millisecond, 5*time.Millisecond))
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "57P03") {
		t.Errorf("within the delay: %v, want a timeout naming 57P03", err)
	}
	srv.Advance(time.Minute)
	if _, err := client.Services.WaitForConnectable(t.Context(), srv.ProjectID, svc.ServiceID); err != nil {
		t.Errorf("after the delay: %v", err)
	}

	other := createReady(t, client, srv.ProjectID)
	if err := client.Services.Delete(t.Context(), srv.ProjectID, svc.ServiceID); err != nil {
		t.Fatal(err)
	}
	if err := client.Services.WaitForDeleted(t.Context(), srv.ProjectID, svc.ServiceID); err != nil {
		t.Fatal(err)
	}
	refused(t, "a deleted service's endpoint", svc.Endpoint)
	srv.Close()
	refused(t, "an endpoint after Close", other.Endpoint)
}

// refused fails the test when something still accepts connections at ep.
func refused(t *testing.T, what string, ep *dbcloud.Endpoint) {
	t.Helper()
	addr := net.JoinHostPort(ep.Host, strconv.Itoa(ep.Port))
	if conn, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		conn.Close()
		t.Errorf("%s, %s, accepts connections", what, addr)
	}
}
