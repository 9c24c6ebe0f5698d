package deploy

import (
	"fmt"

	"github.com/dbcloud/dbcloud-go"
)

// The calls of a run's hooks (WithProgress, WithPasswords): one at a
// time, from whichever service's steps they come.

// emit reports p to the progress hooks.
func (r *run) emit(p Progress) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, fn := range r.opts.progress {
		fn(p)
	}
}

// password hands svc's password to the hooks.
func (r *run) password(ch *Change, svc *dbcloud.Service) error {
	if svc.InitialPassword == "" {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, fn := range r.opts.passwords {
		if err := fn(Password{Kind: ch.Kind, Name: ch.Name, ServiceID: svc.ServiceID, Password: svc.InitialPassword}); err != nil {
			return fmt.Errorf("the password hook: %w", err)
		}
	}
	return nil
}
