package httpapi

import (
	"net/http"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

// call is one routed request as the handlers see it.
type call struct {
	r         *http.Request
	now       time.Time
	project   string
	service   string // the service id the path names, if pathService
	set       string // the replica set id the path names, if pathSet
	vpcID     string // the VPC id the path names, if pathVPC
	peeringID string // the peering connection id the path names, if pathPeering
	raw       []byte // the body as read, for an operation that takes one
	rawErr    error
	body      jsonBody // raw parsed, before the handler runs

	pathProject, pathService, pathSet, pathVPC, pathPeering bool
	// svc, rs, vpc and peering are what the path names, found before the
	// handler runs (resolve).
	svc     *model.Service
	rs      *model.ReplicaSet
	vpc     *model.VPC
	peering *model.Peering
}
