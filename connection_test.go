package dbcloud_test

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dbcloud/dbcloud-go"
)

// checkConnURL parses a connection string as a driver would and checks each
// part against the endpoint and the password.
func checkConnURL(t *testing.T, what, s string, ep *dbcloud.Endpoint, password string) {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatalf("%s: %q does not parse: %v", what, s, err)
	}
	pw, hasPW := u.User.Password()
	got := fmt.Sprintf("%s|%s|%s|%v|%s|%s|%s|%s", u.Scheme, u.User.Username(), pw, hasPW, u.Hostname(), u.Port(), u.Path, u.RawQuery)
	want := fmt.Sprintf("postgresql|tsdbadmin|%s|%v|%s|%d|/tsdb|sslmode=require", password, password != "", ep.Host, ep.Port)
	if got != want {
		t.Errorf("%s: %q parses as %s, want %s", what, s, got, want)
	}
}

// Every kind of endpoint the server hands out: a service's, its pooler's, a
// replica set's and that set's pooler's.
func TestConnectionStringEveryEndpointKind(t *testing.T) {
	t.Parallel()
	srv, c, svc := newOrdersService(t)
	ctx := t.Context()
	password := svc.InitialPassword
	if svc.PoolerEndpoint() != nil {
		t.Fatalf("pooler endpoint before the pooler is enabled: %v", svc.PoolerEndpoint())
	}
	if got := svc.PoolerEndpoint().ConnectionString(); got != "" {
		t.Errorf("connection string of a missing pooler: %q, want \"\"", got)
	}
	if err := c.Services.EnablePooler(ctx, srv.ProjectID, svc.ServiceID); err != nil {
		t.Fatal(err)
	}
	rs, err := c.ReplicaSets.Create(ctx, srv.ProjectID, svc.ServiceID, &dbcloud.CreateReplicaSetRequest{Name: "reports", Nodes: 1, CPUMillis: 1000, MemoryGBs: 4})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ReplicaSets.WaitForActive(ctx, srv.ProjectID, svc.ServiceID, rs.ID); err != nil {
		t.Fatal(err)
	}
	if err := c.ReplicaSets.EnablePooler(ctx, srv.ProjectID, svc.ServiceID, rs.ID); err != nil {
		t.Fatal(err)
	}
	got, err := c.Services.WaitForReady(ctx, srv.ProjectID, svc.ServiceID)
	if err != nil {
		t.Fatal(err)
	}
	sets, err := c.ReplicaSets.List(ctx, srv.ProjectID, svc.ServiceID)
	if err != nil || len(sets) != 1 {
		t.Fatalf("replica sets: %v, %v", sets, err)
	}
	for _, k := range []struct {
		what string
		ep   *dbcloud.Endpoint
	}{
		{"service", got.Endpoint},
		{"service pooler", got.PoolerEndpoint()},
		{"replica set", sets[0].Endpoint},
		{"replica set pooler", sets[0].PoolerEndpoint()},
	} {
		if k.ep == nil || k.ep.Host == "" || k.ep.Port == 0 {
			t.Errorf("%s: no endpoint: %v", k.what, k.ep)
			continue
		}
		if want := k.ep.Host + ":" + strconv.Itoa(k.ep.Port); k.ep.String() != want {
			t.Errorf("%s: String() = %q, want %q", k.what, k.ep.String(), want)
		}
		checkConnURL(t, k.what, k.ep.ConnectionString(), k.ep, "")
		withPW := k.ep.ConnectionStringWithPassword(password)
		checkConnURL(t, k.what+" with password", string(withPW), k.ep, string(password))
		if s := fmt.Sprint(withPW); strings.Contains(s, string(password)) {
			t.Errorf("%s: printing the connection string shows the password: %s", k.what, s)
		}
	}
}

var escapedUserinfo = regexp.MustCompile(`^([A-Za-z0-9._~-]|%[0-9A-F]{2})*$`)

// A password with every character that means something in a URL reaches the
// driver intact.
func TestConnectionStringEscapesPassword(t *testing.T) {
	t.Parallel()
	ep := &dbcloud.Endpoint{Host: "db.example.com", Port: 5432}
	for _, pw := range []string{"plain", "p@ss:w/rd?#[]", "100%+;=&$,' \"é\x00", "%41"} {
		s := string(ep.ConnectionStringWithPassword(dbcloud.Secret(pw)))
		checkConnURL(t, strconv.Quote(pw), s, ep, pw)
		at := strings.LastIndexByte(s, '@')
		if enc := s[len("postgresql://tsdbadmin:"):at]; !escapedUserinfo.MatchString(enc) {
			t.Errorf("%q: password written as %q, want only unreserved characters and %%XX", pw, enc)
		}
	}
	if got, want := ep.ConnectionStringWithPassword(""), dbcloud.Secret(ep.ConnectionString()); string(got) != string(want) {
		t.Errorf("empty password: %q, want %q", string(got), string(want))
	}
	v6 := &dbcloud.Endpoint{Host: "::1", Port: 5432}
	if got, want := v6.ConnectionString(), "postgresql://tsdbadmin@[::1]:5432/tsdb?sslmode=require"; got != want {
		t.Errorf("IPv6: %q, want %q", got, want)
	}
	var nilEP *dbcloud.Endpoint
	if nilEP.String() != "" || nilEP.ConnectionString() != "" || nilEP.ConnectionStringWithPassword("x") != "" {
		t.Error("a nil endpoint must give empty strings")
	}
	var nilSvc *dbcloud.Service
	var nilRS *dbcloud.ReadReplicaSet
	if nilSvc.PoolerEndpoint() != nil || nilRS.PoolerEndpoint() != nil || nilSvc.Environment() != "" || nilRS.Environment() != "" {
		t.Error("accessors of nil values must give zero values")
	}
}

// %v and %+v of a Service and a ReadReplicaSet show endpoints, not
// pointers, and never the password.
func TestServiceStringReadable(t *testing.T) {
	t.Parallel()
	const pw = "s3cret-Pa55"
	svc := dbcloud.Service{
		ServiceID: "e4k2x", Name: "orders", ServiceType: dbcloud.ServiceTypePostgres, Status: dbcloud.StatusReady,
		RegionCode: "us-east-1", Resources: []dbcloud.Resource{{Spec: &dbcloud.ResourceSpec{CPUMillis: 2000, MemoryGBs: 8}}},
		Endpoint:         &dbcloud.Endpoint{Host: "db.example.com", Port: 5432},
		ConnectionPooler: &dbcloud.ConnectionPooler{Endpoint: &dbcloud.Endpoint{Host: "pool.example.com", Port: 6432}},
		HAReplicas:       &dbcloud.HAReplicas{ReplicaCount: 1}, Metadata: &dbcloud.Metadata{Environment: dbcloud.EnvironmentProd},
		InitialPassword: pw,
	}
	want := "Service{id=e4k2x name=orders type=POSTGRES status=READY region=us-east-1 size=2000m/8GB ha=1 env=PROD endpoint=db.example.com:5432 pooler=pool.example.com:6432 password=[redacted]}"
	for _, verb := range []string{"%v", "%+v", "%s"} {
		if got := fmt.Sprintf(verb, svc); got != want {
			t.Errorf("%s of Service:\n got %s\nwant %s", verb, got, want)
		}
		if got := fmt.Sprintf(verb, &svc); got != want {
			t.Errorf("%s of *Service:\n got %s\nwant %s", verb, got, want)
		}
	}
	if got := fmt.Sprintf("%+v", []dbcloud.Service{svc}); strings.Contains(got, "0x") || strings.Contains(got, pw) {
		t.Errorf("%%+v of []Service: %s", got)
	}
	rs := dbcloud.ReadReplicaSet{ID: "rs-1", Name: "reports", Status: dbcloud.ReplicaSetActive, Nodes: 2, CPUMillis: 1000, MemoryGBs: 4,
		Endpoint: &dbcloud.Endpoint{Host: "rs.example.com", Port: 5432}}
	if got, want := fmt.Sprintf("%+v", &rs), "ReadReplicaSet{id=rs-1 name=reports status=active nodes=2 size=1000m/4GB endpoint=rs.example.com:5432}"; got != want {
		t.Errorf("%%+v of *ReadReplicaSet:\n got %s\nwant %s", got, want)
	}
}
