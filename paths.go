package dbcloud

import (
	"net/url"
	"strings"
)

// The requests of the resources beyond services and replica sets: the
// caller's identity, the projects, VPCs and their peerings. Their paths are
// built as newRequest builds those of services: CallInfo.Path is the
// template, and each placeholder is replaced by its id, escaped as one
// segment. The VPC kinds name their resources with a ref whose second and
// third ids are the VPC's and the peering's (vpcAt).

// Path templates of CallInfo.Path for the identity, projects, VPCs and
// peerings.
const (
	tplAuthInfo = "/auth/info"
	tplProjects = "/projects"
	tplVPCs     = "/projects/{project_id}/vpcs"
	tplVPC      = tplVPCs + "/{vpc_id}"
	tplPeerings = tplVPC + "/peerings"
	tplPeering  = tplPeerings + "/{peering_id}"
)

// vpcAt names a VPC (peeringID "") or one of its peerings, or, for a list
// or a create, their parent: the project of VPCs (vpcID ""), the VPC of
// peerings.
func vpcAt(projectID, vpcID, peeringID string) ref { return ref{projectID, vpcID, peeringID} }

// vpcID and peeringID read the ids of a ref made by vpcAt.
func (at ref) vpcID() string     { return at.serviceID }
func (at ref) peeringID() string { return at.replicaSetID }

// newResourceRequest is the request of op, about a resource of kind, on
// the resource that at (from vpcAt) names. tpl is its CallInfo.Path; its
// path is tpl with {project_id}, {vpc_id} and {peering_id} replaced by at's
// ids, each escaped as newRequest escapes one. An id that cannot name its
// resource (empty; a VPC id of anything but digits, as the API's are) is
// the request's err.
func newResourceRequest(kind ResourceKind, op, method, tpl string, at ref) request {
	r := request{
		info:     CallInfo{Operation: op, Method: method, Path: tpl, Kind: kind, ProjectID: at.projectID, VPCID: at.vpcID(), PeeringID: at.peeringID()},
		exchange: exchange{method: method},
	}
	path := tpl
	for _, p := range [...]struct{ placeholder, field, id string }{
		{"{project_id}", "projectID", at.projectID},
		{"{vpc_id}", "vpcID", at.vpcID()},
		{"{peering_id}", "peeringID", at.peeringID()},
	} {
		before, after, ok := strings.Cut(path, p.placeholder)
		if !ok {
			continue
		}
		segment, err := pathSegment(p.field, p.id)
		if err != nil {
			r.err = err
			return r
		}
		path = before + segment + after
	}
	r.path = path
	return r
}

// pathSegment is id escaped as one path segment, or the error of an id
// that cannot name a resource: "/", "?", "#", "%" and spaces are escaped by
// url.PathEscape, and "." and ".." too, which servers and proxies resolve
// as dot segments.
func pathSegment(field, id string) (string, error) {
	switch {
	case field == "vpcID":
		return id, checkVPCID(id) // digits only: nothing to escape
	case id == "":
		return "", invalid(field, "required")
	case id == "." || id == "..":
		return strings.Repeat("%2E", len(id)), nil
	}
	return url.PathEscape(id), nil
}

// checkVPCID refuses a VPC id that cannot be one: the API's are digits.
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
