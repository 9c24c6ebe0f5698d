package httpapi

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
)

// Handle runs a request through authentication, routing and the model and
// encodes the answer, with id as its X-Request-Id.
func (a *API) Handle(r *http.Request, id string) Encoded {
	rep, err := a.dispatch(r)
	if err != nil {
		rep = errorReply(err, rep.header)
	}
	return encode(rep, id)
}

func (a *API) dispatch(r *http.Request) (reply, error) {
	if err := a.authorized(r); err != nil {
		return reply{}, err
	}
	c := &call{r: r}
	ep, allow, ok := c.route()
	if !ok {
		return reply{}, apierr.NoRoute(r.Method + " " + r.URL.EscapedPath())
	}
	if allow != nil {
		allowed := strings.Join(allow, ", ")
		return reply{header: http.Header{"Allow": {allowed}}}, apierr.MethodNotAllowed(r.Method, allowed)
	}
	if c.pathProject && !slices.Contains(a.reached(), c.project) {
		return reply{}, apierr.NotFound("project", c.project)
	}
	if ep.withBody {
		// Read before taking the model's lock: a slow client must not stall the model.
		c.raw, c.rawErr = io.ReadAll(http.MaxBytesReader(nil, r.Body, MaxBodyBytes))
	}
	var rep reply
	err := a.model.Update(func(now time.Time) (err error) {
		c.now = now
		if err = a.resolve(c, ep.withBody); err == nil {
			rep, err = ep.fn(a, c)
		}
		return err
	})
	return rep, err
}

// resolve finds the service, replica set, VPC and peering connection the
// path names and reads the body, so that their errors come in the package
// documentation's order whatever the handler: service (404),
// replica_set_id too short (400), replica set (404), VPC (404), peering
// (404), body (400); the handler's own, an unknown id in the body (404)
// and a conflict (409), come last.
func (a *API) resolve(c *call, withBody bool) (err error) {
	if c.pathService {
		if c.svc, err = a.model.FindService(c.project, c.service); err != nil {
			return err
		}
	}
	if c.pathSet {
		if c.rs, err = c.svc.Set(c.set); err != nil {
			return err
		}
	}
	if c.pathVPC {
		if c.vpc, err = a.model.FindVPC(c.project, c.vpcID); err != nil {
			return err
		}
	}
	if c.pathPeering {
		if c.peering, err = c.vpc.Peering(c.peeringID); err != nil {
			return err
		}
	}
	if withBody {
		c.body, err = parseBody(c.r.Header.Get("Content-Type"), c.raw, c.rawErr)
	}
	return err
}
