package deploy

import (
	"github.com/dbcloud/dbcloud-go"
)

// Password is the password of the admin role (dbcloud.AdminRole) of a
// service or fork a run created: the create's, or, when the create's
// answer was lost, the new one create recovery set. The API hands a
// password out once; a run holds it nowhere else than in its Result.
type Password struct {
	Kind      dbcloud.ResourceKind `json:"kind"` // dbcloud.KindService or dbcloud.KindFork
	Name      string               `json:"name"`
	ServiceID string               `json:"service_id"`
	// Password prints, logs and encodes as "[redacted]": string(Password)
	// is the only way to read it.
	Password dbcloud.Secret `json:"password"`
}

// WithPasswords calls fn with each password a run obtains, as soon as it
// exists: right after the create's answer (or its recovery), before the
// create's wait and before any other step of its service, one call at a
// time (see WithProgress). Store it there (a secret manager, a CI secret): an error from
// fn stops the run with that error, the resource created and its password
// in the Result. Each WithPasswords adds a callback: all are called, in
// the order of the options.
//
// A crash of the process between the create's answer and fn's return
// leaves a service whose password nobody holds; the next run finds the
// service and has no password to hand. Set a new one with
// dbcloud.ServicesClient.UpdatePassword.
func WithPasswords(fn func(Password) error) Option {
	return func(o *options) {
		if fn != nil {
			o.passwords = append(o.passwords, fn)
		}
	}
}
