package dbcloud_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
	"github.com/dbcloud/dbcloud-go/dbcloudtest"
)

// A PITR target in the future, or before the parent's creation, is a
// *ValidationError, and nothing is forked.
func TestForkTargetValidated(t *testing.T) {
	srv := dbcloudtest.NewServer()
	defer srv.Close()
	c, p := srv.Client(), srv.ProjectID
	parent, err := c.Services.Create(t.Context(), p, &dbcloud.CreateServiceRequest{Name: "orders"})
	if err != nil {
		t.Fatal(err)
	}
	future := &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkPITR, TargetTime: time.Now().Add(time.Hour)}
	early := &dbcloud.ForkServiceRequest{Strategy: dbcloud.ForkPITR, TargetTime: parent.Created.Add(-time.Minute)}
	for _, call := range []func() error{
		func() error { _, err := c.Services.Fork(t.Context(), p, parent.ServiceID, future); return err },
		func() error { return early.Validate(parent) },
	} {
		var v *dbcloud.ValidationError
		if err := call(); !errors.As(err, &v) || v.Field != "TargetTime" {
			t.Errorf("err = %v, want a *ValidationError for TargetTime", err)
		}
	}
	if err := early.Validate(nil); err != nil {
		t.Errorf("without the parent: %v, want nil", err)
	}
	if n := srv.Count(http.MethodPost, "/projects/*/services/*/forkService"); n != 0 {
		t.Errorf("%d forks sent", n)
	}
}
