package deploy

import (
	"context"
	"time"

	"github.com/dbcloud/dbcloud-go"
)

// unit reports a run, or one step of it, to the client's Observer as a
// unit of work (a dbcloud.CallInfo with Unit set) and returns the
// context its calls run under, and the function that ends it. That one
// takes the unit's CallInfo as of its end, since a create step learns its
// resource's id only from the create: its EndCall names it, so that a
// tracer can give the step's span the id (the otel module does). Without
// an Observer it costs nothing.
func (r *run) unit(ctx context.Context, info dbcloud.CallInfo) (context.Context, func(dbcloud.CallInfo, error)) {
	obs := r.c.Observer()
	if obs == nil {
		return ctx, func(dbcloud.CallInfo, error) {}
	}
	start := time.Now()
	info.Unit = true
	ctx = obs.StartCall(ctx, info)
	return ctx, func(end dbcloud.CallInfo, err error) {
		end.Unit = true
		obs.EndCall(ctx, end, dbcloud.CallResult{Duration: time.Since(start), Err: err})
	}
}

// runInfo names a run's unit of work: "deploy.Apply" or, with destroy,
// "deploy.Destroy", of a project.
func runInfo(projectID string, destroy bool) dbcloud.CallInfo {
	op := "deploy.Apply"
	if destroy {
		op = "deploy.Destroy"
	}
	return dbcloud.CallInfo{Operation: op, ProjectID: projectID}
}

// chainInfo names the unit of work of a chain: "deploy.service" for a
// service's changes, "deploy.fork" for a fork's, "deploy.vpc" for a
// VPC's (its peerings' in a destroy), "deploy.peering" for a peering's;
// and the resource, with its id once the run knows it (a change of it
// names it, or the world has it). Its steps are units inside it: a tracer
// shows run > service > step.
func (r *run) chainInfo(c *chain) dbcloud.CallInfo {
	ch := &r.res.Records[c.steps[0]].Change
	info := dbcloud.CallInfo{Operation: "deploy.service", Kind: dbcloud.KindService, Name: ch.Service, ProjectID: r.p.ProjectID}
	switch {
	case ch.Kind == dbcloud.KindFork:
		info.Operation, info.Kind, info.Name = "deploy.fork", dbcloud.KindFork, ch.Name
	case ch.Kind == dbcloud.KindPeering && !r.p.Destroy:
		info.Operation, info.Kind, info.Name = "deploy.peering", dbcloud.KindPeering, ch.Name
	case ch.Kind == dbcloud.KindVPC, ch.Kind == dbcloud.KindPeering:
		info.Operation, info.Kind = "deploy.vpc", dbcloud.KindVPC
	}
	id := ""
	for _, i := range c.steps {
		if rec := &r.res.Records[i]; rec.Change.Kind == info.Kind && rec.ID != "" {
			id = rec.ID
		}
	}
	if e, _ := r.w.one(info.Kind, ch.Service, info.Name); e != nil && id == "" {
		id = e.id
	}
	r.setIDs(&info, ch.Service, id)
	return info
}

// callInfo names a step's unit of work: "deploy.create", "deploy.update"
// or "deploy.delete", and its resource. The steps of a run's services,
// made at once, are units of the run's at once.
func (r *run) callInfo(rec *Record) dbcloud.CallInfo {
	ch := &rec.Change
	info := dbcloud.CallInfo{Operation: "deploy." + string(ch.Action), Kind: ch.Kind, Name: ch.Name, ProjectID: r.p.ProjectID}
	r.setIDs(&info, ch.Service, rec.ID)
	return info
}

// setIDs sets the ids of info, of kind info.Kind, of the state's service
// or VPC service: id its own, and its parent's, as the run knows it.
func (r *run) setIDs(info *dbcloud.CallInfo, service, id string) {
	parent := func(kind dbcloud.ResourceKind) string {
		if e := r.w.service(kind, service); e != nil {
			return e.id
		}
		return ""
	}
	switch info.Kind {
	case dbcloud.KindReplicaSet:
		info.ServiceID, info.ReplicaSetID = parent(dbcloud.KindService), id
	case dbcloud.KindVPC:
		info.VPCID = id
	case dbcloud.KindPeering:
		info.VPCID, info.PeeringID = parent(dbcloud.KindVPC), id
	default:
		info.ServiceID = id
	}
}
