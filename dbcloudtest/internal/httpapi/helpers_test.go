package httpapi

import (
	"net/http"
	"testing"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apitest"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

// fake is an API served by httptest with a manual clock, and a client for
// it.
type fake struct {
	*apitest.Fake
	api   *API
	model *model.Model
}

// newFake serves an API configured by cfg, its clock at apitest.Epoch
// unless cfg says otherwise, until the test ends.
func newFake(t *testing.T, cfg Config) *fake {
	t.Helper()
	if cfg.Model.Start.IsZero() && !cfg.Model.RealTime {
		cfg.Model.Start = apitest.Epoch
	}
	api := New(cfg)
	serve := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		api.Handle(r, api.NextRequestID()).Write(w)
	})
	return &fake{
		Fake:  apitest.Serve(t, serve, api.cfg.APIKey, api.cfg.Projects[0], api.model.Clock()),
		api:   api,
		model: api.model,
	}
}
