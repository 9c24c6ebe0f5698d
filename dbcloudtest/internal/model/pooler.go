package model

import (
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/live"
)

// pooler is the connection pooler of a service or of a replica set.
type pooler struct {
	on bool
	ep *live.Endpoint // nil unless live; opens when the pooler is first turned on
}

// turn turns the pooler on or off, what naming it in the conflict when it
// already is. open makes its endpoint the first time it is turned on; the
// endpoint stays and refuses while the pooler is off.
func (p *pooler) turn(on bool, what string, open func() (*live.Endpoint, error)) error {
	if p.on == on {
		return apierr.Conflict(what+" is already "+OnOff(on), "pooler "+OnOff(on))
	}
	if on && p.ep == nil {
		ep, err := open()
		if err != nil {
			return err
		}
		p.ep = ep
	}
	p.on = on
	return nil
}

// OnOff is the word the API uses for a pooler's state, in its messages and
// in the service's log.
func OnOff(on bool) string {
	if on {
		return "enabled"
	}
	return "disabled"
}
