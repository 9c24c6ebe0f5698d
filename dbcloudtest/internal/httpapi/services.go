package httpapi

import (
	"net/http"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/model"
)

// The handlers of a service's routes: each reads the body, in the order of
// checks the package documentation gives, then runs the operation on the
// service the path named.

func (a *API) listServices(c *call) (reply, error) {
	return ok(a.model.Services(c.project, c.now)), nil
}

func (a *API) getService(c *call) (reply, error) { return ok(c.svc.View(c.now)), nil }

func (a *API) createService(c *call) (reply, error) {
	in, err := c.body.create()
	if err != nil {
		return reply{}, err
	}
	return accepted(a.model.CreateService(c.now, c.project, in))
}

func (a *API) deleteService(c *call) (reply, error) {
	return reply{status: http.StatusAccepted}, a.model.DeleteService(c.svc, c.now)
}

func (a *API) startService(c *call) (reply, error) {
	return accepted(a.model.StartService(c.svc, c.now))
}

func (a *API) stopService(c *call) (reply, error) {
	return accepted(a.model.StopService(c.svc, c.now))
}

func (a *API) resizeService(c *call) (reply, error) {
	cpu, mem, err := c.body.resize()
	if err != nil {
		return reply{}, err
	}
	return accepted(a.model.ResizeService(c.svc, c.now, cpu, mem))
}

func (a *API) setHA(c *call) (reply, error) {
	replicas, sync := c.svc.HA()
	replicas, sync, err := c.body.setHA(replicas, sync)
	if err != nil {
		return reply{}, err
	}
	return accepted(a.model.SetHA(c.svc, c.now, replicas, sync))
}

func (a *API) forkService(c *call) (reply, error) {
	in, err := c.body.fork(c.now, c.svc)
	if err != nil {
		return reply{}, err
	}
	return accepted(a.model.ForkService(c.svc, c.now, in))
}

func (a *API) enablePooler(c *call) (reply, error) { return a.switchPooler(c, true) }

func (a *API) disablePooler(c *call) (reply, error) { return a.switchPooler(c, false) }

func (a *API) switchPooler(c *call, on bool) (reply, error) {
	err := a.model.SwitchPooler(c.svc, c.now, on)
	return message(http.StatusOK, "connection pooler "+model.OnOff(on)), err
}

func (a *API) attachVPC(c *call) (reply, error) {
	vpc, err := a.bodyVPC(c)
	if err != nil {
		return reply{}, err
	}
	return message(http.StatusAccepted, "service attached to VPC "+vpc), c.svc.AttachVPC(c.now, vpc)
}

func (a *API) detachVPC(c *call) (reply, error) {
	vpc, err := a.bodyVPC(c)
	if err != nil {
		return reply{}, err
	}
	return message(http.StatusAccepted, "service detached from VPC "+vpc), c.svc.DetachVPC(c.now, vpc)
}

// bodyVPC reads the vpc_id of attachToVPC and detachFromVPC, which must
// name a VPC of the project: an unknown one is a 404, as an unknown id in
// a path is.
func (a *API) bodyVPC(c *call) (string, error) {
	vpc, err := c.body.vpc()
	if err != nil {
		return "", err
	}
	_, err = a.model.FindVPC(c.project, vpc)
	return vpc, err
}

func (a *API) renameService(c *call) (reply, error) {
	name, err := c.body.name()
	if err != nil {
		return reply{}, err
	}
	if err := c.svc.Rename(c.now, name); err != nil {
		return reply{}, err
	}
	return ok(c.svc.View(c.now)), nil
}

func (a *API) updatePassword(c *call) (reply, error) {
	// The new password is checked, then forgotten: the model only logs the change.
	if _, err := c.body.password(); err != nil {
		return reply{}, err
	}
	return reply{status: http.StatusNoContent}, c.svc.ChangePassword(c.now)
}

func (a *API) setEnvironment(c *call) (reply, error) {
	env, err := c.body.environment()
	if err != nil {
		return reply{}, err
	}
	return message(http.StatusOK, "environment set to "+env), c.svc.SetEnvironment(c.now, env)
}
