package dbcloud

import (
	"context"
	"fmt"
	"net/http"
)

// The SDK's own reads, through the core (caller.run): its steps (the
// read-only guard, confirmations, create recovery, the pollers) never call
// the public methods, which are built on these reads too.

// readService is a GET of the service at names: ServicesClient.Get for the
// SDK's own steps (the read-only guard, confirmations, adopting a created
// service), which never call the public methods.
func readService(ctx context.Context, api *caller, at ref) (*Service, error) {
	var w serviceJSON
	if err := api.run(ctx, servicePlace.request("Services.Get", http.MethodGet, tplService, at), &w); err != nil {
		return nil, err
	}
	return w.service(), nil
}

// listServices lists the project that at names: ServicesClient.List, and
// the shared reads of a poller, which serves the waits of serves.
func listServices(ctx context.Context, api *caller, at ref, serves []context.Context) ([]Service, error) {
	r := projectPlace.request("Services.List", http.MethodGet, tplServices, at)
	r.serves = serves
	var ws serviceListJSON
	if err := api.run(ctx, r, &ws); err != nil {
		return nil, err
	}
	return ws.services, nil
}

// listReplicaSets lists the replica sets of the service that at names:
// ReplicaSetsClient.List, and the reads of its waits' poller.
func listReplicaSets(ctx context.Context, api *caller, at ref, serves []context.Context) ([]ReadReplicaSet, error) {
	r := servicePlace.request("ReplicaSets.List", http.MethodGet, tplReplicaSets, at)
	r.serves = serves
	var sets replicaSetListJSON
	if err := api.run(ctx, r, &sets); err != nil {
		return nil, err
	}
	out := make([]ReadReplicaSet, len(sets))
	for i := range sets {
		out[i] = ReadReplicaSet(sets[i])
	}
	return out, nil
}

// findReplicaSet lists the set's service and returns the set, or an error
// matching ErrNotFound when it is not there. An empty id is refused before
// the list is sent: no set could have it.
func findReplicaSet(ctx context.Context, api *caller, at ref) (*ReadReplicaSet, error) {
	if at.replicaSetID == "" {
		return nil, invalid("replicaSetID", "required")
	}
	sets, err := listReplicaSets(ctx, api, at, nil)
	if err != nil {
		return nil, err
	}
	for i := range sets {
		if sets[i].ID == at.replicaSetID {
			return &sets[i], nil
		}
	}
	return nil, missingSet(at.replicaSetID, at.serviceID)
}

// missingSet is the error of a replica set that its service's list lacks.
func missingSet(replicaSetID, serviceID string) error {
	return fmt.Errorf("%w: replica set %s is not in the list of service %s", ErrNotFound, replicaSetID, serviceID)
}
