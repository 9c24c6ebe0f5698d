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

// callInfo names a step's unit of work: "deploy.create", "deploy.update"
// or "deploy.delete", and its resource.
func (r *run) callInfo(ch *Change) dbcloud.CallInfo {
	info := dbcloud.CallInfo{Operation: "deploy." + string(ch.Action), Kind: ch.Kind, Name: ch.Name, ProjectID: r.p.ProjectID, ServiceID: ch.ID}
	if ch.Kind == dbcloud.KindReplicaSet {
		info.ServiceID, info.ReplicaSetID = "", ch.ID
		if svc := r.w.service(); svc != nil {
			info.ServiceID = svc.id
		}
	}
	return info
}
