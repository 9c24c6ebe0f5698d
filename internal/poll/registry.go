package poll

import (
	"context"
	"sync"
)

// Registry holds the pollers of one client, one per scope, so that the
// waits of that client on one scope share their reads. Its zero value is
// ready; it is the only place a poller lives beyond its waits.
type Registry struct {
	mu      sync.Mutex
	pollers map[any]any
}

// Join returns the poller of key, made by mk when there is none, with a
// wait for id added. The registry's lock is held until the wait is added,
// so that a poller that is about to end is never joined.
func Join[T any](r *Registry, key any, mk func() *Poller[T], ctx context.Context, id string, s Schedule) (*Poller[T], *Waiter[T]) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p, ok := r.pollers[key].(*Poller[T])
	if !ok {
		p = mk()
		p.release = func(ending func() bool) {
			r.mu.Lock()
			defer r.mu.Unlock()
			if ending() {
				delete(r.pollers, key)
			}
		}
		if r.pollers == nil {
			r.pollers = map[any]any{}
		}
		r.pollers[key] = p
	}
	return p, p.Join(ctx, id, s)
}
