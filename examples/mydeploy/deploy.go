// Package mydeploy is code a user of the SDK writes, with its tests as the
// user writes them: Deploy is the deploy step of a pipeline, and
// deploy_test.go (package mydeploy_test) tests it against dbcloudtest, the
// SDK's public test server, with no account, no network and no sleeps.
package mydeploy

import (
	"context"
	"errors"
	"fmt"

	"github.com/dbcloud/dbcloud-go"
)

// ErrBeingDeleted is returned for a service that is being deleted: deploying
// it again has to wait until it is gone.
var ErrBeingDeleted = errors.New("the service is being deleted")

// Spec is the service a deploy wants.
type Spec struct {
	Name      string
	CPUMillis int  // 0: the API's default
	MemoryGBs int  // 0: the API's default
	Pooler    bool // a connection pooler in front of the database
}

// Deploy makes sure the project has a service called spec.Name that runs,
// has the pooler spec asks for, and is READY, and returns it. It reuses the
// service the project has by that name (starting it if it is paused), so a
// pipeline can run it again after any failure. opts go to every wait: a
// timeout, a poll interval, progress output.
//
// Give it a client made with dbcloud.WithCreateRecovery: a create whose
// answer is lost on the way (a reset, a proxy's 5xx) is then settled inside
// Create, which finds the service or sends the create again when it never
// arrived. Without it, such a failure is returned (it matches
// dbcloud.ErrMaybeCreated), and running Deploy again reuses the service by
// its name once it has landed.
func Deploy(ctx context.Context, client *dbcloud.Client, projectID string, spec Spec, opts ...dbcloud.WaitOption) (*dbcloud.Service, error) {
	services := client.Services
	svc, err := findByName(ctx, client, projectID, spec.Name)
	if err != nil {
		return nil, err
	}
	if svc == nil {
		svc, err = services.Create(ctx, projectID, &dbcloud.CreateServiceRequest{
			Name: spec.Name, CPUMillis: spec.CPUMillis, MemoryGBs: spec.MemoryGBs,
		})
		if err != nil {
			return nil, fmt.Errorf("creating %s: %w", spec.Name, err)
		}
	}
	if svc, err = start(ctx, client, projectID, svc, opts); err != nil {
		return nil, err
	}
	if spec.Pooler {
		// A 409 means the pooler is on already: that is what we want.
		if err := services.EnablePooler(ctx, projectID, svc.ServiceID); err != nil && !errors.Is(err, dbcloud.ErrConflict) {
			return nil, fmt.Errorf("enabling the pooler of %s: %w", spec.Name, err)
		}
	}
	return services.WaitForReady(ctx, projectID, svc.ServiceID, opts...)
}

// start brings a paused or pausing service back; any other one is returned
// as it is, unless it is being deleted.
func start(ctx context.Context, client *dbcloud.Client, projectID string, svc *dbcloud.Service, opts []dbcloud.WaitOption) (*dbcloud.Service, error) {
	switch svc.Status {
	case dbcloud.StatusDeleting, dbcloud.StatusDeleted:
		return nil, fmt.Errorf("%s (%s): %w", svc.Name, svc.ServiceID, ErrBeingDeleted)
	case dbcloud.StatusPausing:
		paused, err := client.Services.WaitForStatus(ctx, projectID, svc.ServiceID, dbcloud.StatusPaused, opts...)
		if err != nil {
			return nil, err
		}
		svc = paused
	case dbcloud.StatusPaused:
	default:
		return svc, nil
	}
	started, err := client.Services.Start(ctx, projectID, svc.ServiceID)
	if errors.Is(err, dbcloud.ErrConflict) {
		return svc, nil // someone else started it meanwhile: waiting for READY covers it
	}
	return started, err
}

// findByName returns the project's service called name, or nil if there is
// none. Two by that name are an error: picking one would be a guess.
func findByName(ctx context.Context, client *dbcloud.Client, projectID, name string) (*dbcloud.Service, error) {
	all, err := client.Services.List(ctx, projectID)
	if err != nil {
		return nil, err
	}
	var found *dbcloud.Service
	for i := range all {
		if all[i].Name != name {
			continue
		}
		if found != nil {
			return nil, fmt.Errorf("two services are called %q (%s and %s)", name, found.ServiceID, all[i].ServiceID)
		}
		found = &all[i]
	}
	return found, nil
}
