package dbcloud

// Every request is built here: where a resource is (a place and the ids
// that name it, a ref), its path, and the request of an operation on it.

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// segment escapes an id as one path segment. "/", "?", "#", "%" and spaces
// are percent-encoded by url.PathEscape; "." and ".." are encoded too, since
// servers and proxies resolve dot segments and would route elsewhere.
func segment(id string) string {
	if id == "." || id == ".." {
		return strings.Repeat("%2E", len(id))
	}
	return url.PathEscape(id)
}

func checkID(field, id string) error {
	if id == "" {
		return invalid(field, "required")
	}
	return nil
}

// servicesPath is "/projects/{project_id}/services".
func servicesPath(projectID string) (string, error) {
	if err := checkID("projectID", projectID); err != nil {
		return "", err
	}
	return "/projects/" + segment(projectID) + "/services", nil
}

// checkService checks the ids that name a service.
func checkService(projectID, serviceID string) error {
	if err := checkID("projectID", projectID); err != nil {
		return err
	}
	return checkID("serviceID", serviceID)
}

// servicePath is "/projects/{project_id}/services/{service_id}" followed by
// tail ("" or "/action"), built in one concatenation.
func servicePath(projectID, serviceID, tail string) (string, error) {
	if err := checkService(projectID, serviceID); err != nil {
		return "", err
	}
	return "/projects/" + segment(projectID) + "/services/" + segment(serviceID) + tail, nil
}

// minReplicaSetIDLen is the API's shortest replica set id.
const minReplicaSetIDLen = 3

// checkReplicaSet checks the ids that name a replica set.
func checkReplicaSet(projectID, serviceID, replicaSetID string) error {
	if err := checkService(projectID, serviceID); err != nil {
		return err
	}
	if utf8.RuneCountInString(replicaSetID) < minReplicaSetIDLen {
		return invalid("replicaSetID", "required, at least "+strconv.Itoa(minReplicaSetIDLen)+" characters")
	}
	return nil
}

// replicaSetPath is ".../services/{service_id}/replicaSets/{replica_set_id}"
// followed by tail.
func replicaSetPath(projectID, serviceID, replicaSetID, tail string) (string, error) {
	if err := checkReplicaSet(projectID, serviceID, replicaSetID); err != nil {
		return "", err
	}
	return "/projects/" + segment(projectID) + "/services/" + segment(serviceID) + "/replicaSets/" + segment(replicaSetID) + tail, nil
}

// Path templates of CallInfo.Path, one per endpoint.
const (
	tplServices    = "/projects/{project_id}/services"
	tplService     = tplServices + "/{service_id}"
	tplReplicaSets = tplService + "/replicaSets"
	tplReplicaSet  = tplReplicaSets + "/{replica_set_id}"
)

// ref names one resource: a service (replicaSetID "") or a replica set of
// one. For a create or a list it names the parent: the project of services,
// the service of replica sets.
type ref struct{ projectID, serviceID, replicaSetID string }

// call names an operation on the resource, for the observer.
func (at ref) call(op, method, tpl string) CallInfo {
	kind := KindService
	if strings.HasPrefix(op, "ReplicaSets.") {
		kind = KindReplicaSet
	}
	return CallInfo{Operation: op, Method: method, Path: tpl, Kind: kind, ProjectID: at.projectID, ServiceID: at.serviceID, ReplicaSetID: at.replicaSetID}
}

// place is where one resource of a kind is (or, for projectPlace, a
// project's services): the template of its CallInfo.Path and how ids make
// its path. Every request is built from one (place.request).
type place struct {
	tpl string // CallInfo.Path of one resource
	// path is the escaped path of the resource followed by tail ("" or
	// "/action"), or the error of ids that cannot name one.
	path func(at ref, tail string) (string, error)
}

// servicePlace is where a service is. It stands apart from serviceKind so
// that readService, serviceKind's read, can build its request from it
// without an initialization cycle.
var servicePlace = place{
	tpl:  tplService,
	path: func(at ref, tail string) (string, error) { return servicePath(at.projectID, at.serviceID, tail) },
}

// replicaSetPlace is where a read replica set is.
var replicaSetPlace = place{
	tpl: tplReplicaSet,
	path: func(at ref, tail string) (string, error) {
		return replicaSetPath(at.projectID, at.serviceID, at.replicaSetID, tail)
	},
}

// projectPlace is where a project's services are, for List and Create.
var projectPlace = place{
	tpl: tplServices,
	path: func(at ref, tail string) (string, error) {
		p, err := servicesPath(at.projectID)
		return p + tail, err
	},
}

// request is the request of op on the resource at names; its err is the
// error of ids that cannot name one. tpl is the operation's CallInfo.Path:
// the place's tpl followed by what the operation adds to the resource's
// path (tplService+"/stop"), so that the path's tail is read from it
// without building a string.
func (pl place) request(op, method, tpl string, at ref) request {
	path, err := pl.path(at, tpl[len(pl.tpl):])
	return request{info: at.call(op, method, tpl), method: method, path: path, err: err}
}

// request describes one API request.
type request struct {
	info   CallInfo // the operation, for the observer
	method string
	path   string // escaped, after the base URL
	query  url.Values
	body   any    // encoded as JSON; nil means no body
	scrub  string // a secret of this call to keep out of errors
	// creates names what a request that makes a new resource makes
	// ("service", "replica set"); "" for every other request.
	creates string
	// err is why the request cannot be built (an id that names nothing):
	// returned before anything is sent or observed.
	err error
	// partOf: the request is a step of an operation that the read-only
	// guard already let through (recovery setting the password of the
	// service the user's create made), and is not asked again.
	partOf bool
	// serves are the contexts of the waits a shared read is for, told to
	// the observer (CallInfo.Serves).
	serves []context.Context
}

// passwordRequest is the request that sets the password of the service at
// names; the password is kept out of its errors.
func passwordRequest(at ref, password string) request {
	r := servicePlace.request("Services.UpdatePassword", http.MethodPost, tplService+"/updatePassword", at)
	r.body, r.scrub = passwordBody{password}, password
	return r
}
