package dbcloud

import (
	"context"
	"errors"
)

// ErrReadOnly matches (errors.Is) a call that a read-only client refused
// before sending anything: see WithReadOnly and WithReadOnlyProd. The error
// is a *ReadOnlyError.
var ErrReadOnly = errors.New("dbcloud: refused by a read-only client")

// ReadOnlyError is a change refused by a read-only client. Nothing was
// sent for it (WithReadOnlyProd may have read the service first).
type ReadOnlyError struct {
	Operation    string // the SDK method, such as "Services.Delete"
	Method, Path string // the request not sent; Path as in CallInfo
	// ProjectID and ServiceID name the service; "" for a create.
	ProjectID, ServiceID string
	// Reason: the client is read-only, the service is tagged PROD, or its
	// tag could not be read, as Err (else nil) says; errors.Is sees
	// through Err, so a missing service also matches ErrNotFound.
	Reason string
	Err    error
}

// Error names the operation and the reason.
func (e *ReadOnlyError) Error() string {
	op := e.Operation
	if op == "" {
		op = e.Method + " " + e.Path
	}
	msg := "dbcloud: " + op + " refused: " + e.Reason
	if e.ServiceID != "" {
		msg += " (service " + e.ServiceID + ")"
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Is reports whether target is ErrReadOnly.
func (e *ReadOnlyError) Is(target error) bool { return target == ErrReadOnly }

// Unwrap returns why the service's tag could not be read, if that is why.
func (e *ReadOnlyError) Unwrap() error { return e.Err }

// guard says whether a read-only client may make the change r; a non-nil
// error is returned to the caller as it is, and nothing is sent. do asks
// it of every change on a read-only client, inside the call, so that a
// refusal is seen as a call with no attempt (and the PROD guard's read as
// a call inside it). WithReadOnlyProd reads the service first, with the
// SDK's read, a call of its own: a read is never guarded, so the guard's
// read never comes back here.
func (api *caller) guard(ctx context.Context, r *request) error {
	deny := func(reason string, err error) error {
		return &ReadOnlyError{Operation: r.op, Method: r.method, Path: r.tpl,
			ProjectID: r.at.projectID, ServiceID: r.at.serviceID, Reason: reason, Err: err}
	}
	switch {
	case api.readOnly == readOnlyAll:
		return deny("the client is read-only", nil)
	case r.at.serviceID == "":
		return nil // Services.Create, and the calls on VPCs and peerings: no existing service to protect
	}
	// Read through the kind, as tookEffect reads: the guard names no
	// operation, so that do's file is not reached back from here.
	var k kind[Service] = services{}
	svc, err := k.read(ctx, api, ref{projectID: r.at.projectID, serviceID: r.at.serviceID})
	if err != nil {
		return deny("the service's environment tag could not be read", err)
	}
	switch svc.Environment() {
	case "":
		return deny("the service's answer has no environment tag", nil)
	case EnvironmentProd:
		return deny("the service is tagged PROD", nil)
	}
	return nil
}
