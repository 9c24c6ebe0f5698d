package dbcloud

import (
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
