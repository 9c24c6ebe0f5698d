package dbcloud_test

import (
	"errors"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
	"github.com/dbcloud/dbcloud-go/internal/testkit/fixture"
)

// With makes a client of the same credentials and options, with more on
// top: the new one recovers creates where the first does not, and the
// first is unchanged.
func TestClientWith(t *testing.T) {
	t.Parallel()
	c, srv := fixture.NewFake(t, nil, dbcloud.WithProjectID("proj-fake"), dbcloud.WithReadOnly())
	rc, err := c.With(dbcloud.WithCreateRecovery(), dbcloud.WithCreateSettle(10*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if rc.ProjectID() != "proj-fake" || rc.String() != c.String() {
		t.Errorf("With kept %v, want %v", rc, c)
	}
	rw, err := c.With(dbcloud.WithCreateRecovery())
	if err == nil {
		_, err = rw.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "x"})
	}
	if !errors.Is(err, dbcloud.ErrReadOnly) {
		t.Errorf("a client With options of a read-only one: %v, want ErrReadOnly", err)
	}
	if _, err := c.With(dbcloud.WithRetryMax(-1)); err == nil {
		t.Error("With refused no invalid option")
	}
	srv.InjectFault(dbcloudtest.Fault{Method: "POST", Path: "/projects/*/services", Drop: true, AfterHandling: true})
	rc2, _ := srv.Client(fixture.TinyRetries).With(dbcloud.WithCreateRecovery(), dbcloud.WithCreateSettle(10*time.Millisecond))
	svc, err := rc2.Services.Create(t.Context(), srv.ProjectID, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil || svc.InitialPassword == "" || len(srv.Services()) != 1 {
		t.Errorf("a create whose answer was lost, on a client With recovery: %v, %v", svc, err)
	}
}
