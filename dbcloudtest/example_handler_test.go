package dbcloudtest_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

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
