package dbcloud_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// A PITR target in the future, or before the parent's creation, is a
// *ValidationError, and nothing is forked.
func TestForkTargetValidated(t *testing.T) {
	t.Parallel()
	srv, c, parent := newOrdersService(t)
	p := srv.ProjectID
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
