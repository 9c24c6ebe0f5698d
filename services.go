package dbcloud

import (
	"context"
	"net/http"
)

// List returns every service of a project.
func (s *ServicesClient) List(ctx context.Context, projectID string) ([]Service, error) {
	return listServices(ctx, s.api, ref{projectID: projectID}, nil)
}

// Create starts creating a service and returns it, usually QUEUED; use
// WaitForReady to block until it can be used. The response is the only one
// that carries InitialPassword.
//
// How a create is retried, and what its failures mean, is in "Retries" and
// "Under faults" in the package documentation. After one that matches
// ErrMaybeCreated, list the project before creating again, or use
// WithCreateRecovery, which does it for you. A service that recovery found
// comes back with a new InitialPassword; if setting it failed, Create
// returns the service together with a *MaybeCreatedError naming it, so its
// id is not lost.
func (s *ServicesClient) Create(ctx context.Context, projectID string, req *CreateServiceRequest) (*Service, error) {
	at := ref{projectID: projectID}
	r := projectPlace.request("Services.Create", http.MethodPost, tplServices, at)
	if r.err == nil {
		r.body, r.err = req.body()
	}
	if r.err != nil {
		return nil, r.err
	}
	return serviceKind.create(ctx, s.api, r, at, req.Name, nil)
}

// Get returns one service.
func (s *ServicesClient) Get(ctx context.Context, projectID, serviceID string) (*Service, error) {
	var w serviceJSON
	if err := s.api.run(ctx, servicePlace.request("Services.Get", http.MethodGet, tplService, ref{projectID, serviceID, ""}), &w); err != nil {
		return nil, err
	}
	return w.service(), nil
}

// Delete starts deleting a service; use WaitForDeleted to block until it is
// gone. A retry's 404, or its 409 while the service is DELETING or DELETED,
// is a success (see "Under faults" in the package documentation).
func (s *ServicesClient) Delete(ctx context.Context, projectID, serviceID string) error {
	at := ref{projectID, serviceID, ""}
	return serviceKind.command(ctx, s.api, "Services.Delete", http.MethodDelete, tplService, at, nil, serviceKind.confirmDeleted(s.api, at))
}

// Start starts a stopped (PAUSED) service and returns it, usually RESUMING.
func (s *ServicesClient) Start(ctx context.Context, projectID, serviceID string) (*Service, error) {
	return serviceKind.action(ctx, s.api, "Services.Start", tplService+"/start", ref{projectID, serviceID, ""}, nil, statusIn(StatusResuming, StatusReady))
}

// Stop stops a running service and returns it, usually PAUSING.
func (s *ServicesClient) Stop(ctx context.Context, projectID, serviceID string) (*Service, error) {
	return serviceKind.action(ctx, s.api, "Services.Stop", tplService+"/stop", ref{projectID, serviceID, ""}, nil, statusIn(StatusPausing, StatusPaused))
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
	return serviceKind.command(ctx, s.api, op, http.MethodPost, tpl, at, vpcBody{VPCID: vpcID},
		serviceKind.confirmByRead(s.api, at, attachedTo(vpcID, attached)))
}

// Resize changes a service's CPU and memory and returns it, usually
// CONFIGURING until the change is done.
func (s *ServicesClient) Resize(ctx context.Context, projectID, serviceID string, req *ResizeRequest) (*Service, error) {
	body, err := req.body()
	if err != nil {
		return nil, err
	}
	return serviceKind.action(ctx, s.api, "Services.Resize", tplService+"/resize", ref{projectID, serviceID, ""}, body, serviceKind.resizedTo(req))
}

// EnablePooler switches a service's connection pooler on.
func (s *ServicesClient) EnablePooler(ctx context.Context, projectID, serviceID string) error {
	return serviceKind.switchPooler(ctx, s.api, "Services.EnablePooler", tplService+"/enablePooler", ref{projectID, serviceID, ""}, true)
}

// DisablePooler switches a service's connection pooler off.
func (s *ServicesClient) DisablePooler(ctx context.Context, projectID, serviceID string) error {
	return serviceKind.switchPooler(ctx, s.api, "Services.DisablePooler", tplService+"/disablePooler", ref{projectID, serviceID, ""}, false)
}

// Fork creates a new, independent service from a service's data and returns
// it, usually QUEUED, with its InitialPassword. It is a create, as Create
// is (see "Retries" and "Under faults" in the package documentation);
// WithCreateRecovery finds the fork by its name, by default the parent's
// name with "-fork", and its parent.
func (s *ServicesClient) Fork(ctx context.Context, projectID, serviceID string, req *ForkServiceRequest) (*Service, error) {
	r := servicePlace.request("Services.Fork", http.MethodPost, tplService+"/forkService", ref{projectID, serviceID, ""})
	if r.err == nil {
		r.body, r.err = req.body()
	}
	return serviceKind.create(ctx, s.api, r, ref{projectID: projectID}, "", func(before []Service) func(*Service) bool {
		return forkOf(serviceID, req.Name, before)
	})
}

// UpdatePassword sets a service's master password. The password is sent only
// in the request body: it never appears in logs or errors.
func (s *ServicesClient) UpdatePassword(ctx context.Context, projectID, serviceID, password string) error {
	if password == "" {
		return invalid("password", "required")
	}
	return s.api.run(ctx, passwordRequest(ref{projectID, serviceID, ""}, password), nil)
}

// SetEnvironment sets a service's environment tag.
func (s *ServicesClient) SetEnvironment(ctx context.Context, projectID, serviceID string, env Environment) error {
	if err := checkEnvironment("env", env, false); err != nil {
		return err
	}
	return serviceKind.command(ctx, s.api, "Services.SetEnvironment", http.MethodPost, tplService+"/setEnvironment", ref{projectID, serviceID, ""}, environmentBody{env}, nil)
}

// SetHA sets a service's number of high-availability replicas and returns
// it, usually CONFIGURING until the change is done.
func (s *ServicesClient) SetHA(ctx context.Context, projectID, serviceID string, req *SetHARequest) (*Service, error) {
	body, err := req.body()
	if err != nil {
		return nil, err
	}
	return serviceKind.action(ctx, s.api, "Services.SetHA", tplService+"/setHA", ref{projectID, serviceID, ""}, body, haSetTo(req))
}

func checkVPCID(id string) error {
	if id == "" {
		return invalid("vpcID", "required")
	}
	for _, c := range []byte(id) {
		if c < '0' || c > '9' {
			return invalid("vpcID", "digits only")
		}
	}
	return nil
}
