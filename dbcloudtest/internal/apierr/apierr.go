// Package apierr is the fake API's vocabulary of failures: the status, code,
// message and details of each error answer. The model decides the errors
// (a conflict, an unknown id) and the HTTP layer sends them; both speak of
// them in these terms, which the package documentation of dbcloudtest
// states under "What the model does".
package apierr

import (
	"net/http"
	"strconv"
)

// Error is a failed request: it becomes the error body of the live
// service, {"code", "message", "details"}, sent with Status.
type Error struct {
	Status  int    // the HTTP status
	Code    string // the status's name in the body: CONFLICT, say
	Message string // what went wrong, starting with the field for a 400
	Details string // what it went wrong with: the field, id or status
}

// Error returns the message of the error body.
func (e *Error) Error() string { return e.Message }

// BadRequest is the 400 of a field that fails validation; the message
// starts with the field, as the live service's do.
func BadRequest(field, reason string) error {
	return &Error{http.StatusBadRequest, "INVALID_REQUEST", field + ": " + reason, "invalid field " + field}
}

// NotFound is the 404 of an unknown resource of the given kind.
func NotFound(kind, id string) error {
	return &Error{http.StatusNotFound, "NOT_FOUND", kind + " not found", kind + " " + strconv.Quote(id)}
}

// NoRoute is the 404 of a path the API does not serve; details names the
// request.
func NoRoute(details string) error {
	return &Error{http.StatusNotFound, "NOT_FOUND", "no such route", details}
}

// MethodNotAllowed is the 405 of a path the API serves, but not for this
// method; allowed lists the methods it serves it for.
func MethodNotAllowed(method, allowed string) error {
	return &Error{http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "method " + method + " not allowed", "allowed: " + allowed}
}

// Conflict is the 409 of an operation that does not fit the current status.
func Conflict(message, details string) error {
	return &Error{http.StatusConflict, "CONFLICT", message, details}
}

// Unavailable is the 503 of a server that cannot serve the request at all:
// closed, or out of ports for a database endpoint.
func Unavailable(message, details string) error {
	return &Error{http.StatusServiceUnavailable, "UNAVAILABLE", message, details}
}

// Unauthorized is the 401 of missing or wrong credentials.
func Unauthorized(message, details string) error {
	return &Error{http.StatusUnauthorized, "UNAUTHORIZED", message, details}
}
