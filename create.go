package dbcloud

import "context"

// create runs a create request r under the parent that at names: sent once
// (see "Retries" in the package documentation), or, with WithCreateRecovery,
// through recoverCreate, where ours tells this create's resource from the
// others listed; nil: the resource named name. A resource that recovery
// found is completed by the kind's adopt. (A name rather than a test made
// by the caller: the test is a closure, an allocation that the common path,
// without recovery, would make for nothing.)
func (k *kind[T, W]) create(ctx context.Context, api *caller, r request, at ref, name string, ours func(before []T) func(*T) bool) (*T, error) {
	r.creates = string(k.kind) // what may have been made, for failure's ErrMaybeCreated
	ctx, c, err := api.begin(ctx, r)
	if err != nil {
		return nil, err
	}
	if api.recovery {
		if ours == nil {
			ours = k.named(name)
		}
		return k.recoverOrSend(ctx, api, r, at, c, ours)
	}
	var w W
	o := api.send(ctx, r, &w)
	if err := api.failure(&r, &o); err != nil {
		return nil, api.end(c, &o, err)
	}
	return k.value(&w), api.end(c, &o, nil)
}

// recoverOrSend is create's path under WithCreateRecovery. It is a method
// of its own so that only its copy of r is captured by the closures below:
// captured, r moves to the heap, and create's common path stays without
// that allocation.
func (k *kind[T, W]) recoverOrSend(ctx context.Context, api *caller, r request, at ref, c call, ours func(before []T) func(*T) bool) (*T, error) {
	var o outcome
	v, resolved, err := recoverCreate(ctx, api, creation[T]{
		kind: k.kind,
		list: func(ctx context.Context) ([]T, error) { return k.list(ctx, api, at) },
		id:   k.id,
		ours: ours,
		send: func(ctx context.Context) (*T, error) {
			var w W
			o = api.send(ctx, r, &w)
			if err := api.failure(&r, &o); err != nil {
				return nil, err
			}
			return k.value(&w), nil
		},
	})
	if resolved != nil && k.adopt != nil {
		v, err = k.adopt(ctx, api, at, v, resolved)
	}
	return v, api.end(c, &o, err)
}

// named tests for a resource with the name, whatever existed before.
func (k *kind[T, W]) named(name string) func([]T) func(*T) bool {
	return func([]T) func(*T) bool {
		return func(v *T) bool { return k.name(v) == name }
	}
}
