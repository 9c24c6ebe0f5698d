package dbcloud

import (
	"net/url"
	"strings"
)

// tempCallInfo is a throwaway until the call pipeline (#16) passes each
// operation's CallInfo to guard: it knows only the method and the ids of
// the escaped path /projects/{p}/services/{s}/replicaSets/{r}/...
func tempCallInfo(r request) CallInfo {
	call := CallInfo{Method: r.method, Path: r.path}
	parts := strings.Split(r.path, "/")
	for i, field := range []*string{&call.ProjectID, &call.ServiceID, &call.ReplicaSetID} {
		if j := 2 + 2*i; j < len(parts) {
			*field, _ = url.PathUnescape(parts[j])
		}
	}
	return call
}
