package httpapi

import (
	"net/http"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

// The handlers of a service's replica set routes: each reads the body,
// then runs the operation on the service and set the path named.

func (a *API) listReplicaSets(c *call) (reply, error) { return ok(c.svc.ReplicaSets(c.now)), nil }

func (a *API) createReplicaSet(c *call) (reply, error) {
	in, err := c.body.replicaSet()
	if err != nil {
		return reply{}, err
	}
	return accepted(a.model.CreateReplicaSet(c.svc, c.now, in))
}

func (a *API) deleteReplicaSet(c *call) (reply, error) {
	return reply{status: http.StatusAccepted}, a.model.DeleteReplicaSet(c.svc, c.rs, c.now)
}

func (a *API) resizeReplicaSet(c *call) (reply, error) {
	cpu, mem, err := c.body.resize()
	if err != nil {
		return reply{}, err
	}
	return message(http.StatusAccepted, "replica set resize accepted"), a.model.ResizeReplicaSet(c.svc, c.rs, c.now, cpu, mem)
}

func (a *API) enableReplicaSetPooler(c *call) (reply, error) { return a.switchSetPooler(c, true) }

func (a *API) disableReplicaSetPooler(c *call) (reply, error) { return a.switchSetPooler(c, false) }

func (a *API) switchSetPooler(c *call, on bool) (reply, error) {
	err := a.model.SwitchSetPooler(c.svc, c.rs, c.now, on)
	return message(http.StatusOK, "replica set connection pooler "+model.OnOff(on)), err
}

func (a *API) setReplicaSetEnvironment(c *call) (reply, error) {
	env, err := c.body.environment()
	if err != nil {
		return reply{}, err
	}
	return message(http.StatusOK, "replica set environment set to "+env), c.svc.SetReplicaSetEnvironment(c.rs, c.now, env)
}
