package dbcloud

import "context"

// create runs the create request r under the parent that at names: sent
// once (see "Retries" in the package documentation), or, with
// WithCreateRecovery, through a recovery, which tells this create's
// resource from the others listed by want. It returns the resource
// answered, or the one recovery found.
func create[T any](ctx context.Context, api *caller, k kind[T], r *request, at ref, want wanted) (*T, error) {
	r.creates = string(r.info.Kind) // what may have been made, for failure's ErrMaybeCreated
	ctx, c, err := api.beginChange(ctx, r)
	if err != nil {
		return nil, err
	}
	if api.recovery {
		return recoverCreate(ctx, api, c, k, *r, at, want)
	}
	w, v := k.answer()
	o := api.send(ctx, r, w)
	if o.err != nil {
		v, err = nil, r.failure(&o)
	}
	return v, api.endCall(c, &o, err)
}

// recoverCreate is create's path under WithCreateRecovery. It takes its own
// copy of r: the recovery holds it, and the common path's request stays
// off the heap.
func recoverCreate[T any](ctx context.Context, api *caller, c call, k kind[T], r request, at ref, want wanted) (*T, error) {
	rc := &recovery[T]{api: api, kind: k, r: &r, at: at, want: want}
	v, err := rc.run(ctx)
	return v, api.endCall(c, &rc.o, err)
}
