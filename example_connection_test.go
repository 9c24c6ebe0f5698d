package dbcloud_test

import (
	"context"
	"fmt"
	"log"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

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
