package dbcloud

import (
	"context"
	"net/http"
)

// List returns every service of a project.
func (s *ServicesClient) List(ctx context.Context, projectID string) ([]Service, error) {
	path, err := servicesPath(projectID)
	if err != nil {
		return nil, err
	}
	var ws serviceListJSON
	if err := s.t.do(ctx, request{method: http.MethodGet, path: path}, &ws); err != nil {
		return nil, err
	}
	out := make([]Service, len(ws))
	for i := range ws {
		out[i] = *ws[i].service()
	}
	return out, nil
}

// Create starts creating a service and returns it, usually QUEUED; use
// WaitForReady to block until it can be used. The response is the only one
// that carries InitialPassword.
//
// Create is never retried after the request may have reached the server (a
// 5xx, a timeout, a connection reset): a repeat could create a second, billed
// service. On such an error, List the project before trying again.
func (s *ServicesClient) Create(ctx context.Context, projectID string, req *CreateServiceRequest) (*Service, error) {
	path, err := servicesPath(projectID)
	if err != nil {
		return nil, err
	}
	body, err := req.body()
	if err != nil {
		return nil, err
	}
	return s.service(ctx, request{kind: creating, method: http.MethodPost, path: path, body: body})
}

// Get returns one service.
func (s *ServicesClient) Get(ctx context.Context, projectID, serviceID string) (*Service, error) {
	return s.action(ctx, http.MethodGet, projectID, serviceID, "", nil)
}

// Delete starts deleting a service; use WaitForDeleted to block until it is
// gone.
func (s *ServicesClient) Delete(ctx context.Context, projectID, serviceID string) error {
	return s.command(ctx, http.MethodDelete, projectID, serviceID, "", nil)
}

// Start starts a stopped (PAUSED) service and returns it, usually RESUMING.
func (s *ServicesClient) Start(ctx context.Context, projectID, serviceID string) (*Service, error) {
	return s.action(ctx, http.MethodPost, projectID, serviceID, "/start", nil)
}

// Stop stops a running service and returns it, usually PAUSING.
func (s *ServicesClient) Stop(ctx context.Context, projectID, serviceID string) (*Service, error) {
	return s.action(ctx, http.MethodPost, projectID, serviceID, "/stop", nil)
}

// AttachToVPC attaches a service to a VPC, given by its numeric id.
func (s *ServicesClient) AttachToVPC(ctx context.Context, projectID, serviceID, vpcID string) error {
	if err := checkVPCID(vpcID); err != nil {
		return err
	}
	return s.command(ctx, http.MethodPost, projectID, serviceID, "/attachToVPC", vpcBody{VPCID: vpcID})
}

// DetachFromVPC detaches a service from a VPC, given by its numeric id.
func (s *ServicesClient) DetachFromVPC(ctx context.Context, projectID, serviceID, vpcID string) error {
	if err := checkVPCID(vpcID); err != nil {
		return err
	}
	return s.command(ctx, http.MethodPost, projectID, serviceID, "/detachFromVPC", vpcBody{VPCID: vpcID})
}

// Resize changes a service's CPU and memory and returns it, usually
// CONFIGURING until the change is done.
func (s *ServicesClient) Resize(ctx context.Context, projectID, serviceID string, req *ResizeRequest) (*Service, error) {
	body, err := req.body()
	if err != nil {
		return nil, err
	}
	return s.action(ctx, http.MethodPost, projectID, serviceID, "/resize", body)
}

// EnablePooler switches a service's connection pooler on.
func (s *ServicesClient) EnablePooler(ctx context.Context, projectID, serviceID string) error {
	return s.command(ctx, http.MethodPost, projectID, serviceID, "/enablePooler", nil)
}

// DisablePooler switches a service's connection pooler off.
func (s *ServicesClient) DisablePooler(ctx context.Context, projectID, serviceID string) error {
	return s.command(ctx, http.MethodPost, projectID, serviceID, "/disablePooler", nil)
}

// Fork creates a new, independent service from a service's data and returns
// it, usually QUEUED, with its InitialPassword. Like Create, it is never
// retried once the request may have reached the server.
func (s *ServicesClient) Fork(ctx context.Context, projectID, serviceID string, req *ForkServiceRequest) (*Service, error) {
	path, err := servicePath(projectID, serviceID, "/forkService")
	if err != nil {
		return nil, err
	}
	body, err := req.body()
	if err != nil {
		return nil, err
	}
	return s.service(ctx, request{kind: creating, method: http.MethodPost, path: path, body: body})
}

// UpdatePassword sets a service's master password. The password is sent only
// in the request body: it never appears in logs or errors.
func (s *ServicesClient) UpdatePassword(ctx context.Context, projectID, serviceID, password string) error {
	if password == "" {
		return invalid("password", "required")
	}
	path, err := servicePath(projectID, serviceID, "/updatePassword")
	if err != nil {
		return err
	}
	return s.t.do(ctx, request{method: http.MethodPost, path: path, body: passwordBody{password}, scrub: password}, nil)
}

// SetEnvironment sets a service's environment tag.
func (s *ServicesClient) SetEnvironment(ctx context.Context, projectID, serviceID string, env Environment) error {
	if err := checkEnvironment("env", env, false); err != nil {
		return err
	}
	return s.command(ctx, http.MethodPost, projectID, serviceID, "/setEnvironment", environmentBody{env})
}

// SetHA sets a service's number of high-availability replicas and returns
// it, usually CONFIGURING until the change is done.
func (s *ServicesClient) SetHA(ctx context.Context, projectID, serviceID string, req *SetHARequest) (*Service, error) {
	body, err := req.body()
	if err != nil {
		return nil, err
	}
	return s.action(ctx, http.MethodPost, projectID, serviceID, "/setHA", body)
}

// action sends a repeatable request on one service that answers with it.
func (s *ServicesClient) action(ctx context.Context, method, projectID, serviceID, tail string, body any) (*Service, error) {
	path, err := servicePath(projectID, serviceID, tail)
	if err != nil {
		return nil, err
	}
	return s.service(ctx, request{method: method, path: path, body: body})
}

// command sends a repeatable request on one service whose answer, if any,
// carries nothing to return.
func (s *ServicesClient) command(ctx context.Context, method, projectID, serviceID, tail string, body any) error {
	path, err := servicePath(projectID, serviceID, tail)
	if err != nil {
		return err
	}
	return s.t.do(ctx, request{method: method, path: path, body: body}, nil)
}

func (s *ServicesClient) service(ctx context.Context, r request) (*Service, error) {
	var w serviceJSON
	if err := s.t.do(ctx, r, &w); err != nil {
		return nil, err
	}
	return w.service(), nil
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
