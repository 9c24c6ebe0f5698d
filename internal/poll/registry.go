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

// Join returns the poller of key, made to read with r when there is none,
// with a wait for id added. The registry's lock is held until the wait is
// added, so that a poller that is about to end is never joined.
func Join[T any](reg *Registry, key any, r Reader[T], ctx context.Context, id string, s Schedule) (*Poller[T], *Waiter[T]) {
	reg.mu.Lock()
	defer reg.mu.Unlock()
	p, ok := reg.pollers[key].(*Poller[T])
	if !ok {
		p = New(r)
		p.reg, p.key = reg, key
		if reg.pollers == nil {
			reg.pollers = map[any]any{}
		}
		reg.pollers[key] = p
	}
	return p, p.Join(ctx, id, s)
}
