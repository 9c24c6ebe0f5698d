package dbcloud

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// Path templates of CallInfo.Path, one per endpoint.
const (
	tplServices    = "/projects/{project_id}/services"
	tplService     = tplServices + "/{service_id}"
	tplReplicaSets = tplService + "/replicaSets"
	tplReplicaSet  = tplReplicaSets + "/{replica_set_id}"
)

// serviceCall names an operation on one service.
func serviceCall(op, method, tpl, projectID, serviceID string) CallInfo {
	return CallInfo{Operation: op, Method: method, Path: tpl, ProjectID: projectID, ServiceID: serviceID}
}

// List returns every service of a project.
func (s *ServicesClient) List(ctx context.Context, projectID string) ([]Service, error) {
	path, err := servicesPath(projectID)
	if err != nil {
		return nil, err
	}
	var ws serviceListJSON
	r := request{info: serviceCall("Services.List", http.MethodGet, tplServices, projectID, ""), method: http.MethodGet, path: path}
	if err := s.api.run(ctx, r, &ws); err != nil {
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
// A create is never repeated once its request may have acted (see
// "Retries" in the package documentation): such a failure matches
// ErrMaybeCreated. List the project before creating again, or use
// WithCreateRecovery, which does it for you. A service that recovery found
// comes back with a new InitialPassword; if setting it failed, Create
// returns the service together with a *MaybeCreatedError naming it, so its
// id is not lost.
func (s *ServicesClient) Create(ctx context.Context, projectID string, req *CreateServiceRequest) (*Service, error) {
	path, err := servicesPath(projectID)
	if err != nil {
		return nil, err
	}
	body, err := req.body()
	if err != nil {
		return nil, err
	}
	r := request{info: serviceCall("Services.Create", http.MethodPost, tplServices, projectID, ""),
		creates: "service", method: http.MethodPost, path: path, body: body}
	return s.create(ctx, r, projectID, func([]Service) func(*Service) bool {
		return func(svc *Service) bool { return svc.Name == req.Name }
	})
}

// Get returns one service.
func (s *ServicesClient) Get(ctx context.Context, projectID, serviceID string) (*Service, error) {
	path, err := servicePath(projectID, serviceID, "")
	if err != nil {
		return nil, err
	}
	var w serviceJSON
	r := request{info: serviceCall("Services.Get", http.MethodGet, tplService, projectID, serviceID), method: http.MethodGet, path: path}
	if err := s.api.run(ctx, r, &w); err != nil {
		return nil, err
	}
	return w.service(), nil
}

// Delete starts deleting a service; use WaitForDeleted to block until it is
// gone. A retry answered 404, or 409 while the service is DELETING or
// DELETED, after an earlier attempt may have acted, is a success: that
// attempt did the work.
func (s *ServicesClient) Delete(ctx context.Context, projectID, serviceID string) error {
	return s.command(ctx, "Services.Delete", http.MethodDelete, tplService, projectID, serviceID, "", nil, func(ctx context.Context, answer *APIError) (bool, error) {
		if answer.StatusCode == http.StatusNotFound {
			return true, nil
		}
		svc, err := s.Get(ctx, projectID, serviceID)
		switch {
		case isNotFound(err):
			return true, nil
		case err != nil:
			return false, err
		}
		return svc.Status == StatusDeleting || svc.Status == StatusDeleted, nil
	})
}

// Start starts a stopped (PAUSED) service and returns it, usually RESUMING.
func (s *ServicesClient) Start(ctx context.Context, projectID, serviceID string) (*Service, error) {
	return s.action(ctx, "Services.Start", tplService+"/start", projectID, serviceID, "/start", nil, statusIn(StatusResuming, StatusReady))
}

// Stop stops a running service and returns it, usually PAUSING.
func (s *ServicesClient) Stop(ctx context.Context, projectID, serviceID string) (*Service, error) {
	return s.action(ctx, "Services.Stop", tplService+"/stop", projectID, serviceID, "/stop", nil, statusIn(StatusPausing, StatusPaused))
}

// AttachToVPC attaches a service to a VPC, given by its numeric id.
func (s *ServicesClient) AttachToVPC(ctx context.Context, projectID, serviceID, vpcID string) error {
	if err := checkVPCID(vpcID); err != nil {
		return err
	}
	return s.command(ctx, "Services.AttachToVPC", http.MethodPost, tplService+"/attachToVPC", projectID, serviceID, "/attachToVPC", vpcBody{VPCID: vpcID},
		s.confirmByRead(projectID, serviceID, attachedTo(vpcID)))
}

// DetachFromVPC detaches a service from a VPC, given by its numeric id.
func (s *ServicesClient) DetachFromVPC(ctx context.Context, projectID, serviceID, vpcID string) error {
	if err := checkVPCID(vpcID); err != nil {
		return err
	}
	return s.command(ctx, "Services.DetachFromVPC", http.MethodPost, tplService+"/detachFromVPC", projectID, serviceID, "/detachFromVPC", vpcBody{VPCID: vpcID},
		s.confirmByRead(projectID, serviceID, not(attachedTo(vpcID))))
}

// Resize changes a service's CPU and memory and returns it, usually
// CONFIGURING until the change is done.
func (s *ServicesClient) Resize(ctx context.Context, projectID, serviceID string, req *ResizeRequest) (*Service, error) {
	body, err := req.body()
	if err != nil {
		return nil, err
	}
	return s.action(ctx, "Services.Resize", tplService+"/resize", projectID, serviceID, "/resize", body, resizedTo(req))
}

// EnablePooler switches a service's connection pooler on.
func (s *ServicesClient) EnablePooler(ctx context.Context, projectID, serviceID string) error {
	return s.command(ctx, "Services.EnablePooler", http.MethodPost, tplService+"/enablePooler", projectID, serviceID, "/enablePooler", nil,
		s.confirmByRead(projectID, serviceID, poolerOn))
}

// DisablePooler switches a service's connection pooler off.
func (s *ServicesClient) DisablePooler(ctx context.Context, projectID, serviceID string) error {
	return s.command(ctx, "Services.DisablePooler", http.MethodPost, tplService+"/disablePooler", projectID, serviceID, "/disablePooler", nil,
		s.confirmByRead(projectID, serviceID, not(poolerOn)))
}

// Fork creates a new, independent service from a service's data and returns
// it, usually QUEUED, with its InitialPassword. Like Create, it is never
// repeated once the request may have acted, its ambiguous failures match
// ErrMaybeCreated, and WithCreateRecovery resolves them (matching the fork
// by its name, by default the parent's name with "-fork", and its parent).
func (s *ServicesClient) Fork(ctx context.Context, projectID, serviceID string, req *ForkServiceRequest) (*Service, error) {
	path, err := servicePath(projectID, serviceID, "/forkService")
	if err != nil {
		return nil, err
	}
	body, err := req.body()
	if err != nil {
		return nil, err
	}
	r := request{info: serviceCall("Services.Fork", http.MethodPost, tplService+"/forkService", projectID, serviceID),
		creates: "service", method: http.MethodPost, path: path, body: body}
	return s.create(ctx, r, projectID, func(before []Service) func(*Service) bool {
		return forkOf(serviceID, req.Name, before)
	})
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
	return s.api.run(ctx, request{info: serviceCall("Services.UpdatePassword", http.MethodPost, tplService+"/updatePassword", projectID, serviceID),
		method: http.MethodPost, path: path, body: passwordBody{password}, scrub: password}, nil)
}

// SetEnvironment sets a service's environment tag.
func (s *ServicesClient) SetEnvironment(ctx context.Context, projectID, serviceID string, env Environment) error {
	if err := checkEnvironment("env", env, false); err != nil {
		return err
	}
	return s.command(ctx, "Services.SetEnvironment", http.MethodPost, tplService+"/setEnvironment", projectID, serviceID, "/setEnvironment", environmentBody{env}, nil)
}

// SetHA sets a service's number of high-availability replicas and returns
// it, usually CONFIGURING until the change is done.
func (s *ServicesClient) SetHA(ctx context.Context, projectID, serviceID string, req *SetHARequest) (*Service, error) {
	body, err := req.body()
	if err != nil {
		return nil, err
	}
	return s.action(ctx, "Services.SetHA", tplService+"/setHA", projectID, serviceID, "/setHA", body, haSetTo(req))
}

// action sends a repeatable POST on one service that answers with it. done
// tells, from a read of the service, whether the action has taken effect: a
// retry answered 409 after an earlier attempt may have acted returns the
// service read then, when done holds. A 2xx whose body was lost proved the
// action took effect: the service is read and returned.
func (s *ServicesClient) action(ctx context.Context, op, tpl, projectID, serviceID, tail string, body any, done func(*Service) bool) (*Service, error) {
	path, err := servicePath(projectID, serviceID, tail)
	if err != nil {
		return nil, err
	}
	r := request{info: serviceCall(op, http.MethodPost, tpl, projectID, serviceID), method: http.MethodPost, path: path, body: body}
	ctx, c, err := s.api.begin(ctx, r.info)
	if err != nil {
		return nil, err
	}
	var w serviceJSON
	o := s.api.send(ctx, r, &w)
	svc, err := s.actionResult(ctx, r, &o, &w, done)
	return svc, s.api.end(c, &o, err)
}

// actionResult decides what an action's outcome means.
func (s *ServicesClient) actionResult(ctx context.Context, r request, o *outcome, w *serviceJSON, done func(*Service) bool) (*Service, error) {
	switch {
	case o.err == nil:
		return w.service(), nil
	case o.answeredByEarlier() && o.lastErr.StatusCode == http.StatusConflict:
		svc, err := s.Get(ctx, r.info.ProjectID, r.info.ServiceID)
		switch {
		case err != nil:
			return nil, uncheckedAnswer(o.err, err)
		case done(svc):
			s.api.reconciled(ctx, r, o)
			return svc, nil
		}
	case errors.Is(o.err, ErrInvalidResponse):
		got, getErr := s.Get(ctx, r.info.ProjectID, r.info.ServiceID)
		if getErr != nil {
			return nil, fmt.Errorf("%w; reading the service instead failed: %w", o.err, getErr)
		}
		return got, nil
	}
	return nil, o.err
}

// command sends a repeatable request on one service whose answer, if any,
// carries nothing to return; see caller.command for confirmed.
func (s *ServicesClient) command(ctx context.Context, op, method, tpl, projectID, serviceID, tail string, body any, confirmed confirmation) error {
	path, err := servicePath(projectID, serviceID, tail)
	if err != nil {
		return err
	}
	return s.api.command(ctx, request{info: serviceCall(op, method, tpl, projectID, serviceID), method: method, path: path, body: body}, confirmed)
}

// confirmByRead returns a confirmation of a retry's 409: the service is
// read, and the answer proves an earlier attempt worked when done holds for
// it.
func (s *ServicesClient) confirmByRead(projectID, serviceID string, done func(*Service) bool) confirmation {
	return func(ctx context.Context, answer *APIError) (bool, error) {
		if answer.StatusCode != http.StatusConflict {
			return false, nil
		}
		svc, err := s.Get(ctx, projectID, serviceID)
		if err != nil {
			return false, err
		}
		return done(svc), nil
	}
}

// create runs a service create or fork: sent once, or through recovery.
func (s *ServicesClient) create(ctx context.Context, r request, projectID string, ours func([]Service) func(*Service) bool) (*Service, error) {
	ctx, c, err := s.api.begin(ctx, r.info)
	if err != nil {
		return nil, err
	}
	if !s.api.recovery { // no closure: the common path allocates nothing more
		var w serviceJSON
		o := s.api.send(ctx, r, &w)
		if err := s.api.failure(r, &o); err != nil {
			return nil, s.api.end(c, &o, err)
		}
		return w.service(), s.api.end(c, &o, nil)
	}
	var o outcome
	send := func(ctx context.Context) (*Service, error) {
		var w serviceJSON
		o = s.api.send(ctx, r, &w)
		if err := s.api.failure(r, &o); err != nil {
			return nil, err
		}
		return w.service(), nil
	}
	svc, err := s.createRecovering(ctx, projectID, send, ours)
	return svc, s.api.end(c, &o, err)
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
