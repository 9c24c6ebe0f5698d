package httpapi

import (
	"net/http"
)

// The handlers of a project's VPC routes and of their peering connections:
// each reads the body, then runs the operation on the VPC and connection
// the path named.

func (a *API) getVPCs(c *call) (reply, error) { return ok(a.model.VPCs(c.project)), nil }

func (a *API) getVPC(c *call) (reply, error) { return ok(c.vpc.View()), nil }

func (a *API) createVPC(c *call) (reply, error) {
	in, err := c.body.vpcCreate()
	if err != nil {
		return reply{}, err
	}
	return reply{status: http.StatusCreated, body: a.model.CreateVPC(c.project, in)}, nil
}

func (a *API) deleteVPC(c *call) (reply, error) {
	return reply{status: http.StatusNoContent}, a.model.DeleteVPC(c.vpc, c.now)
}

func (a *API) renameVPC(c *call) (reply, error) {
	name, err := c.body.vpcName()
	if err != nil {
		return reply{}, err
	}
	c.vpc.Rename(name)
	return message(http.StatusOK, "VPC renamed to "+name), nil
}

func (a *API) getVPCPeerings(c *call) (reply, error) { return ok(c.vpc.Peerings(c.now)), nil }

func (a *API) getVPCPeering(c *call) (reply, error) { return ok(c.peering.View(c.now)), nil }

func (a *API) createVPCPeering(c *call) (reply, error) {
	in, err := c.body.peeringCreate()
	if err != nil {
		return reply{}, err
	}
	return reply{status: http.StatusCreated, body: a.model.CreatePeering(c.vpc, c.now, in)}, nil
}

func (a *API) deleteVPCPeering(c *call) (reply, error) {
	c.vpc.DeletePeering(c.peering)
	return reply{status: http.StatusNoContent}, nil
}
