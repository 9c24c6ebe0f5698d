package dbcloud

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
)

// The changes of a service. Its reads (Get, List) are in reads.go, its
// waits in wait.go, its logs in logs.go.

// Create starts creating a service and returns it, usually QUEUED, with its
// InitialPassword (see Under faults in the package documentation). A
// recovered service whose new password failed comes with a *MaybeCreatedError.
func (s *ServicesClient) Create(ctx context.Context, projectID string, req *CreateServiceRequest) (*Service, error) {
	at := ref{projectID: projectID}
	seg, err := at.escape(inProject)
	body, bodyErr := req.body()
	if err := cmp.Or(err, bodyErr); err != nil { // the ids' error first
		return nil, err
	}
	var w serviceJSON
	err = s.api.do(ctx, &request{op: "Services.Create", method: http.MethodPost, kind: KindService, at: at,
		tpl: tplServices, path: "/projects/" + seg.projectID + "/services",
		creates: true, want: wanted{name: req.Name}, body: body}, &w)
	if w.ServiceID == "" { // no answer, and nothing that recovery found
		return nil, err
	}
	return (*Service)(&w.serviceFields), err
}

// Delete starts deleting a service (see Under faults in the package
// documentation); WaitForDeleted waits until it is gone.
func (s *ServicesClient) Delete(ctx context.Context, projectID, serviceID string) error {
	at := ref{projectID: projectID, serviceID: serviceID}
	seg, err := at.escape(inService)
	if err != nil {
		return err
	}
	return s.api.do(ctx, &request{op: "Services.Delete", method: http.MethodDelete, kind: KindService, at: at,
		tpl: tplService, path: "/projects/" + seg.projectID + "/services/" + seg.serviceID,
		effect: tookEffect(services{}, s.api, at, nil, nil)}, nil)
}

// Start starts a stopped (PAUSED) service and returns it, usually RESUMING.
func (s *ServicesClient) Start(ctx context.Context, projectID, serviceID string) (*Service, error) {
	at := ref{projectID: projectID, serviceID: serviceID}
	seg, err := at.escape(inService)
	if err != nil {
		return nil, err
	}
	return s.action(ctx, &request{op: "Services.Start", method: http.MethodPost, kind: KindService, at: at,
		tpl: tplService + "/start", path: "/projects/" + seg.projectID + "/services/" + seg.serviceID + "/start"},
		statusIn(StatusResuming, StatusReady))
}

// Stop stops a running service and returns it, usually PAUSING.
func (s *ServicesClient) Stop(ctx context.Context, projectID, serviceID string) (*Service, error) {
	at := ref{projectID: projectID, serviceID: serviceID}
	seg, err := at.escape(inService)
	if err != nil {
		return nil, err
	}
	return s.action(ctx, &request{op: "Services.Stop", method: http.MethodPost, kind: KindService, at: at,
		tpl: tplService + "/stop", path: "/projects/" + seg.projectID + "/services/" + seg.serviceID + "/stop"},
		statusIn(StatusPausing, StatusPaused))
}

// AttachToVPC attaches a service to a VPC, given by its numeric id.
func (s *ServicesClient) AttachToVPC(ctx context.Context, projectID, serviceID, vpcID string) error {
	return s.vpc(ctx, "Services.AttachToVPC", "/attachToVPC", ref{projectID: projectID, serviceID: serviceID}, vpcID, true)
}

// DetachFromVPC detaches a service from a VPC, given by its numeric id.
func (s *ServicesClient) DetachFromVPC(ctx context.Context, projectID, serviceID, vpcID string) error {
	return s.vpc(ctx, "Services.DetachFromVPC", "/detachFromVPC", ref{projectID: projectID, serviceID: serviceID}, vpcID, false)
}

// vpc sends an attach to the VPC, or a detach from it when attached is
// false: op, on the service's path followed by action.
func (s *ServicesClient) vpc(ctx context.Context, op, action string, at ref, vpcID string, attached bool) error {
	if err := checkVPCID(vpcID); err != nil {
		return err
	}
	seg, err := at.escape(inService)
	if err != nil {
		return err
	}
	return s.api.do(ctx, &request{op: op, method: http.MethodPost, kind: KindService, at: at,
		tpl: tplService + action, path: "/projects/" + seg.projectID + "/services/" + seg.serviceID + action,
		body: vpcBody{VPCID: vpcID}, effect: tookEffect(services{}, s.api, at, attachedTo(vpcID, attached), nil)}, nil)
}

// Resize changes a service's CPU and memory and returns it, usually
// CONFIGURING until the change is done.
func (s *ServicesClient) Resize(ctx context.Context, projectID, serviceID string, req *ResizeRequest) (*Service, error) {
	body, err := req.body()
	if err != nil {
		return nil, err
	}
	at := ref{projectID: projectID, serviceID: serviceID}
	seg, err := at.escape(inService)
	if err != nil {
		return nil, err
	}
	return s.action(ctx, &request{op: "Services.Resize", method: http.MethodPost, kind: KindService, at: at,
		tpl: tplService + "/resize", path: "/projects/" + seg.projectID + "/services/" + seg.serviceID + "/resize",
		body: body}, serviceResizedTo(req))
}

// EnablePooler switches a service's connection pooler on.
func (s *ServicesClient) EnablePooler(ctx context.Context, projectID, serviceID string) error {
	return s.pooler(ctx, "Services.EnablePooler", "/enablePooler", ref{projectID: projectID, serviceID: serviceID}, true)
}

// DisablePooler switches a service's connection pooler off.
func (s *ServicesClient) DisablePooler(ctx context.Context, projectID, serviceID string) error {
	return s.pooler(ctx, "Services.DisablePooler", "/disablePooler", ref{projectID: projectID, serviceID: serviceID}, false)
}

// pooler sends the switch of the service's connection pooler on, or off
// (op, on the service's path followed by action): a retry's 409 is
// confirmed by reading whether it is.
func (s *ServicesClient) pooler(ctx context.Context, op, action string, at ref, on bool) error {
	seg, err := at.escape(inService)
	if err != nil {
		return err
	}
	return s.api.do(ctx, &request{op: op, method: http.MethodPost, kind: KindService, at: at,
		tpl: tplService + action, path: "/projects/" + seg.projectID + "/services/" + seg.serviceID + action,
		effect: tookEffect(services{}, s.api, at, func(svc *Service) bool { return (svc.ConnectionPooler != nil) == on }, nil)}, nil)
}

// Fork creates an independent service from a service's data and returns it
// as Create does (see Under faults in the package documentation).
func (s *ServicesClient) Fork(ctx context.Context, projectID, serviceID string, req *ForkServiceRequest) (*Service, error) {
	at := ref{projectID: projectID, serviceID: serviceID}
	seg, err := at.escape(inService)
	body, bodyErr := req.body()
	if err := cmp.Or(err, bodyErr); err != nil { // the ids' error first
		return nil, err
	}
	var w serviceJSON
	err = s.api.do(ctx, &request{op: "Services.Fork", method: http.MethodPost, kind: KindService, at: at,
		tpl: tplService + "/forkService", path: "/projects/" + seg.projectID + "/services/" + seg.serviceID + "/forkService",
		creates: true, want: wanted{name: req.Name, forkOf: serviceID}, body: body}, &w)
	if w.ServiceID == "" { // no answer, and nothing that recovery found
		return nil, err
	}
	return (*Service)(&w.serviceFields), err
}

// UpdatePassword sets a service's master password, which no log or error shows.
func (s *ServicesClient) UpdatePassword(ctx context.Context, projectID, serviceID, password string) error {
	if password == "" {
		return invalid("password", "required")
	}
	return setPassword(ctx, s.api, ref{projectID: projectID, serviceID: serviceID}, password, false)
}

// setPassword sets the password of the service at names; the password is
// kept out of the errors. partOf: see request.
func setPassword(ctx context.Context, api *caller, at ref, password string, partOf bool) error {
	seg, err := at.escape(inService)
	if err != nil {
		return err
	}
	return api.do(ctx, &request{op: "Services.UpdatePassword", method: http.MethodPost, kind: KindService, at: at,
		tpl: tplService + "/updatePassword", path: "/projects/" + seg.projectID + "/services/" + seg.serviceID + "/updatePassword",
		body: passwordBody{password}, scrub: password, partOf: partOf}, nil)
}

// adopt completes a service that recovery found by listing: it lost its
// initial password with the answer, so a new one is set and returned in
// InitialPassword, and the caller's path is the same as for a plain
// success. maybe is the ambiguous failure that recovery resolved: when the
// password cannot be set, it is returned, naming the service.
func (services) adopt(ctx context.Context, api *caller, at ref, svc *Service, maybe *MaybeCreatedError) (*Service, error) {
	password, err := newPassword()
	if err == nil {
		// Part of the user's create, which the read-only guard let through:
		// not asked again (see WithReadOnlyProd).
		err = setPassword(ctx, api, ref{projectID: at.projectID, serviceID: svc.ServiceID}, password, true)
	}
	if err != nil {
		// It exists for sure: the error must say it may, and name it.
		maybe.IDs = []string{svc.ServiceID}
		maybe.Recovery = fmt.Errorf("setting a new password (the initial one was lost with the answer): %w", err)
		return svc, maybe
	}
	svc.InitialPassword = Secret(password)
	return svc, nil
}

// SetEnvironment sets a service's environment tag.
func (s *ServicesClient) SetEnvironment(ctx context.Context, projectID, serviceID string, env Environment) error {
	if err := checkEnvironment("env", env, false); err != nil {
		return err
	}
	at := ref{projectID: projectID, serviceID: serviceID}
	seg, err := at.escape(inService)
	if err != nil {
		return err
	}
	return s.api.do(ctx, &request{op: "Services.SetEnvironment", method: http.MethodPost, kind: KindService, at: at,
		tpl: tplService + "/setEnvironment", path: "/projects/" + seg.projectID + "/services/" + seg.serviceID + "/setEnvironment",
		body: environmentBody{env}}, nil)
}

// Rename renames a service and returns it; a retry's 409 is a success when
// it has the name, and a lost 2xx body is read back.
func (s *ServicesClient) Rename(ctx context.Context, projectID, serviceID, name string) (*Service, error) {
	if err := checkName("name", name, true); err != nil {
		return nil, err
	}
	at := ref{projectID: projectID, serviceID: serviceID}
	seg, err := at.escape(inService)
	if err != nil {
		return nil, err
	}
	return s.action(ctx, &request{op: "Services.Rename", method: http.MethodPost, kind: KindService, at: at,
		tpl: tplService + "/rename", path: "/projects/" + seg.projectID + "/services/" + seg.serviceID + "/rename",
		body: renameBody{name}}, func(svc *Service) bool { return svc.Name == name })
}

// SetHA sets a service's number of high-availability replicas and returns
// it, usually CONFIGURING until the change is done.
func (s *ServicesClient) SetHA(ctx context.Context, projectID, serviceID string, req *SetHARequest) (*Service, error) {
	body, err := req.body()
	if err != nil {
		return nil, err
	}
	at := ref{projectID: projectID, serviceID: serviceID}
	seg, err := at.escape(inService)
	if err != nil {
		return nil, err
	}
	return s.action(ctx, &request{op: "Services.SetHA", method: http.MethodPost, kind: KindService, at: at,
		tpl: tplService + "/setHA", path: "/projects/" + seg.projectID + "/services/" + seg.serviceID + "/setHA",
		body: body}, haSetTo(req))
}

// action sends r, a repeatable change of a service that answers with it,
// and returns the service: a retry's 409, or a lost answer, is settled by
// reading it (tookEffect), done telling whether the action has taken
// effect.
func (s *ServicesClient) action(ctx context.Context, r *request, done func(*Service) bool) (*Service, error) {
	var w serviceJSON
	r.effect = tookEffect(services{}, s.api, r.at, done, (*Service)(&w.serviceFields))
	if err := s.api.do(ctx, r, &w); err != nil {
		return nil, err
	}
	return (*Service)(&w.serviceFields), nil
}
