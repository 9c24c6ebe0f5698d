package dbcloudtest

import (
	"testing"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apitest"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

// fake is a server's front, over its API and model, served by httptest
// with a manual clock, and a client for it.
type fake struct {
	*apitest.Fake
	api   *front
	model *model.Model
}

// newFake serves a front configured by cfg, its clock at apitest.Epoch
// unless cfg says otherwise, until the test ends.
func newFake(t *testing.T, cfg config) *fake {
	t.Helper()
	if cfg.api.Model.Start.IsZero() && !cfg.api.Model.RealTime {
		cfg.api.Model.Start = apitest.Epoch
	}
	h := newFront(cfg)
	api := h.api.Config()
	m := h.api.Model()
	return &fake{Fake: apitest.Serve(t, h, api.APIKey, api.Projects[0], m.Clock()), api: h, model: m}
}
