package dbcloud_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// Who the credentials belong to: a personal access token names the project
// it is scoped to and the user who issued it; a user's credentials name the
// user.
func ExampleClient_AuthInfo() {
	srv := dbcloudtest.NewServer(dbcloudtest.WithPersonalAccessToken("pk-ci", "sk-ci-secret"),
		dbcloudtest.WithStartTime(time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)))
	defer srv.Close()

	info, err := srv.Client().AuthInfo(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	switch info.Kind {
	case dbcloud.AuthKindAPIKey:
		k := info.APIKey
		fmt.Println("token:", k.PublicKey, k.Name, k.Created.Format(time.DateOnly))
		fmt.Println("scoped to:", k.Project.ID, k.Project.PlanType)
		fmt.Println("issued by:", k.IssuingUser.Email)
	case dbcloud.AuthKindOAuth:
		fmt.Println("user:", info.User.Email)
	}
	// Output:
	// token: pk-ci dbcloudtest 2026-11-01
	// scoped to: proj-fake FREE
	// issued by: user@fake.dbcloud.test
}

// A program given a personal access token and no project id works on the
// project the token is scoped to: ResolveProjectID reads it once and keeps
// it for the client's life.
func ExampleClient_ResolveProjectID() {
	srv := dbcloudtest.NewServer(dbcloudtest.WithPersonalAccessToken("pk-ci", "sk-ci-secret"))
	defer srv.Close()
	_, _ = srv.Client().Services.Create(context.Background(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})

	// As NewClientFromEnv makes it from DBCLOUD_PUBLIC_KEY and
	// DBCLOUD_SECRET_KEY, with DBCLOUD_PROJECT_ID unset.
	client, err := dbcloud.NewClientWithCredentials(dbcloud.PersonalAccessToken("pk-ci", "sk-ci-secret"),
		dbcloud.WithBaseURL(srv.URL))
	if err != nil {
		log.Fatal(err)
	}
	defer client.CloseIdleConnections()
	ctx := context.Background()

	projectID, err := client.ResolveProjectID(ctx)
	if err != nil {
		log.Fatal(err)
	}
	services, err := client.Services.List(ctx, projectID)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("configured: %q, resolved: %s\n", client.ProjectID(), projectID)
	for _, s := range services {
		fmt.Println(s.Name, s.Status)
	}
	// Output:
	// configured: "", resolved: proj-fake
	// orders READY
}

// A user who belongs to several projects must be told which one: without
// a project id, ResolveProjectID names them in a *ValidationError.
func ExampleProjectsClient_List() {
	srv := dbcloudtest.NewServer(dbcloudtest.WithProjects("prod", "staging"))
	defer srv.Close()
	client, err := dbcloud.NewClient(srv.APIKey, dbcloud.WithBaseURL(srv.URL))
	if err != nil {
		log.Fatal(err)
	}
	defer client.CloseIdleConnections()
	ctx := context.Background()

	projects, err := client.Projects.List(ctx)
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range projects {
		fmt.Println("project:", p.ID, p.Name)
	}
	_, err = client.ResolveProjectID(ctx)
	var invalid *dbcloud.ValidationError
	if errors.As(err, &invalid) {
		fmt.Println(invalid.Field, "-", invalid.Reason)
	}
	// Output:
	// project: prod prod
	// project: staging staging
	// projectID - not set, and the user belongs to 2 projects: prod ("prod"), staging ("staging"); pass one with WithProjectID or DBCLOUD_PROJECT_ID
}
