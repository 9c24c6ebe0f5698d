package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/dbcloud/dbcloud-go"
)

// waitConnectable waits until the database of the service that ref names
// (its name in the project, or its id) answers, and prints its host:port on
// stdout, or its pooler's with pooler.
func (c *command) waitConnectable(ctx context.Context, client *dbcloud.Client, ref string, pooler bool, w *waiting) int {
	projectID := client.ProjectID()
	if projectID == "" {
		return c.failf("set DBCLOUD_PROJECT_ID: the project of the service")
	}
	id, err := find(ctx, client, projectID, ref)
	if err != nil {
		return c.fail(err)
	}
	opts := []dbcloud.WaitOption{dbcloud.WithWaitTimeout(w.timeout), dbcloud.WithProgress(w.polls(c.stderr))}
	if pooler {
		opts = append(opts, dbcloud.WithPoolerCheck())
	}
	svc, err := client.Services.WaitForConnectable(ctx, projectID, id, opts...)
	if err != nil {
		return c.fail(err)
	}
	endpoint := svc.Endpoint
	if pooler {
		endpoint = svc.PoolerEndpoint()
	}
	fmt.Fprintln(c.stdout, endpoint)
	return exitOK
}

// find returns the id of the service that ref names: its id, or the name
// of exactly one live service of the project.
func find(ctx context.Context, client *dbcloud.Client, projectID, ref string) (string, error) {
	all, err := client.Services.List(ctx, projectID)
	if err != nil {
		return "", err
	}
	var named []string
	for _, svc := range all {
		switch {
		case svc.ServiceID == ref:
			return ref, nil
		case svc.Name == ref && svc.Status != dbcloud.StatusDeleting && svc.Status != dbcloud.StatusDeleted:
			named = append(named, svc.ServiceID)
		}
	}
	switch len(named) {
	case 0:
		return "", fmt.Errorf("no service of project %s is named %q or has that id", projectID, ref)
	case 1:
		return named[0], nil
	}
	return "", fmt.Errorf("%d services of project %s are named %q (%s): give the id", len(named), projectID, ref, strings.Join(named, ", "))
}
