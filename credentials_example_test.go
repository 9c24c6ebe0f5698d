package dbcloud_test

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
