package dbcloud

import (
	"context"
	"net/http"
)

// The changes of a service. Its reads (Get, List) are in reads.go, its
// waits in wait.go, its logs in logs.go.

// Create starts creating a service and returns it, usually QUEUED; use
// WaitForReady to block until it can be used. The response is the only one
// that carries InitialPassword.
//
// How a create is retried, and what its failures mean, is in "Retries" and
// "Under faults" in the package documentation. A service that create
// recovery found but could not give a new password is returned together
// with a *MaybeCreatedError naming it, so its id is not lost.
func (s *ServicesClient) Create(ctx context.Context, projectID string, req *CreateServiceRequest) (*Service, error) {
	at := ref{projectID: projectID}
	r := newRequest("Services.Create", http.MethodPost, tplServices, at)
	if r.err == nil {
		r.body, r.err = req.body()
	}
	if r.err != nil {
		return nil, r.err
	}
	return create(ctx, s.api, services{}, &r, at, wanted{name: req.Name})
}

// Delete starts deleting a service; use WaitForDeleted to block until it is
// gone. A retry's 404, or its 409 while the service is DELETING or DELETED,
// is a success (see "Under faults" in the package documentation).
func (s *ServicesClient) Delete(ctx context.Context, projectID, serviceID string) error {
	at := ref{projectID, serviceID, ""}
	r := newRequest("Services.Delete", http.MethodDelete, tplService, at)
	return s.api.command(ctx, &r, confirmDeleted(services{}, s.api, at))
}

// Start starts a stopped (PAUSED) service and returns it, usually RESUMING.
func (s *ServicesClient) Start(ctx context.Context, projectID, serviceID string) (*Service, error) {
	return serviceAction(ctx, s.api, "Services.Start", tplService+"/start", ref{projectID, serviceID, ""}, nil, statusIn(StatusResuming, StatusReady))
}

// Stop stops a running service and returns it, usually PAUSING.
func (s *ServicesClient) Stop(ctx context.Context, projectID, serviceID string) (*Service, error) {
	return serviceAction(ctx, s.api, "Services.Stop", tplService+"/stop", ref{projectID, serviceID, ""}, nil, statusIn(StatusPausing, StatusPaused))
}

// AttachToVPC attaches a service to a VPC, given by its numeric id.
func (s *ServicesClient) AttachToVPC(ctx context.Context, projectID, serviceID, vpcID string) error {
	return s.vpc(ctx, "Services.AttachToVPC", tplService+"/attachToVPC", projectID, serviceID, vpcID, true)
}

// DetachFromVPC detaches a service from a VPC, given by its numeric id.
func (s *ServicesClient) DetachFromVPC(ctx context.Context, projectID, serviceID, vpcID string) error {
	return s.vpc(ctx, "Services.DetachFromVPC", tplService+"/detachFromVPC", projectID, serviceID, vpcID, false)
}

// vpc sends an attach to the VPC, or a detach from it when attached is
// false.
func (s *ServicesClient) vpc(ctx context.Context, op, tpl, projectID, serviceID, vpcID string, attached bool) error {
	if err := checkVPCID(vpcID); err != nil {
		return err
	}
	at := ref{projectID, serviceID, ""}
	r := newRequest(op, http.MethodPost, tpl, at)
	r.body = vpcBody{VPCID: vpcID}
	return s.api.command(ctx, &r, confirmByRead(services{}, s.api, at, attachedTo(vpcID, attached)))
}

// Resize changes a service's CPU and memory and returns it, usually
// CONFIGURING until the change is done.
func (s *ServicesClient) Resize(ctx context.Context, projectID, serviceID string, req *ResizeRequest) (*Service, error) {
	body, err := req.body()
	if err != nil {
		return nil, err
	}
	return serviceAction(ctx, s.api, "Services.Resize", tplService+"/resize", ref{projectID, serviceID, ""}, body, serviceResizedTo(req))
}

// EnablePooler switches a service's connection pooler on.
func (s *ServicesClient) EnablePooler(ctx context.Context, projectID, serviceID string) error {
	return s.pooler(ctx, "Services.EnablePooler", tplService+"/enablePooler", ref{projectID, serviceID, ""}, true)
}

// DisablePooler switches a service's connection pooler off.
func (s *ServicesClient) DisablePooler(ctx context.Context, projectID, serviceID string) error {
	return s.pooler(ctx, "Services.DisablePooler", tplService+"/disablePooler", ref{projectID, serviceID, ""}, false)
}

// pooler sends the switch of the service's connection pooler on, or off:
// a retry's 409 is confirmed by reading whether it is.
func (s *ServicesClient) pooler(ctx context.Context, op, tpl string, at ref, on bool) error {
	r := newRequest(op, http.MethodPost, tpl, at)
	return s.api.command(ctx, &r, confirmByRead(services{}, s.api, at, func(svc *Service) bool { return (svc.ConnectionPooler != nil) == on }))
}

// Fork creates a new, independent service from a service's data and returns
// it, usually QUEUED, with its InitialPassword. It is a create, as Create
// is (see "Retries" and "Under faults" in the package documentation);
// WithCreateRecovery finds the fork by its name, by default the parent's
// name with "-fork", and its parent.
func (s *ServicesClient) Fork(ctx context.Context, projectID, serviceID string, req *ForkServiceRequest) (*Service, error) {
	r := newRequest("Services.Fork", http.MethodPost, tplService+"/forkService", ref{projectID, serviceID, ""})
	if r.err == nil {
		r.body, r.err = req.body()
	}
	var name string
	if req != nil {
		name = req.Name
	}
	return create(ctx, s.api, services{}, &r, ref{projectID: projectID}, wanted{name: name, forkOf: serviceID})
}

// UpdatePassword sets a service's master password. The password is sent only
// in the request body: it never appears in logs or errors.
func (s *ServicesClient) UpdatePassword(ctx context.Context, projectID, serviceID, password string) error {
	if password == "" {
		return invalid("password", "required")
	}
	r := passwordRequest(ref{projectID, serviceID, ""}, password)
	return s.api.command(ctx, &r, nil)
}

// SetEnvironment sets a service's environment tag.
func (s *ServicesClient) SetEnvironment(ctx context.Context, projectID, serviceID string, env Environment) error {
	if err := checkEnvironment("env", env, false); err != nil {
		return err
	}
	r := newRequest("Services.SetEnvironment", http.MethodPost, tplService+"/setEnvironment", ref{projectID, serviceID, ""})
	r.body = environmentBody{env}
	return s.api.command(ctx, &r, nil)
}

// Rename renames a service and returns it. Renaming is safe to repeat: a
// retry's 409 is a success when the service has the new name, and a 2xx
// whose body was lost is answered by reading the service.
func (s *ServicesClient) Rename(ctx context.Context, projectID, serviceID, name string) (*Service, error) {
	if err := checkName("name", name, true); err != nil {
		return nil, err
	}
	return serviceAction(ctx, s.api, "Services.Rename", tplService+"/rename", ref{projectID, serviceID, ""}, renameBody{name}, func(svc *Service) bool { return svc.Name == name })
}

// SetHA sets a service's number of high-availability replicas and returns
// it, usually CONFIGURING until the change is done.
func (s *ServicesClient) SetHA(ctx context.Context, projectID, serviceID string, req *SetHARequest) (*Service, error) {
	body, err := req.body()
	if err != nil {
		return nil, err
	}
	return serviceAction(ctx, s.api, "Services.SetHA", tplService+"/setHA", ref{projectID, serviceID, ""}, body, haSetTo(req))
}
