package model

import (
	"fmt"
	"slices"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/wire"
)

// Peering connection statuses, as on the wire. A connection is requested
// pending and stays so until the peer's side answers it (AnswerPeering),
// or, with Config.PeerAccept, until the peer's side accepts it by itself.
const (
	peeringPending = "pending"
	peeringActive  = "active"
	peeringFailed  = "failed"
)

// Peering is one peering connection of a VPC.
type Peering struct {
	id                       string
	account, region, peerVPC string
	provisioned              string
	sched                    schedule
	errMsg                   string // set when failed
}

// PeeringSpec is what a peering connection's create asks for, read and
// checked.
type PeeringSpec struct{ Account, Region, PeerVPC string }

// View renders the connection as a GET of it answers now.
func (p *Peering) View(now time.Time) wire.Peering { return p.view(p.sched.current(now)) }

// view renders the connection with the given status: a create's answer
// shows the first of its plan.
func (p *Peering) view(status string) wire.Peering {
	return wire.Peering{
		ID:             p.id,
		PeerAccountID:  p.account,
		PeerRegionCode: p.region,
		PeerVPCID:      p.peerVPC,
		Status:         status,
		ProvisionedID:  p.provisioned,
		ErrorMessage:   p.errMsg,
	}
}

// Peerings renders the VPC's connections as they are now, oldest first.
func (v *VPC) Peerings(now time.Time) []wire.Peering {
	out := make([]wire.Peering, 0, len(v.peerings))
	for _, p := range v.peerings {
		out = append(out, p.View(now))
	}
	return out
}

// Peering finds a connection of the VPC by id.
func (v *VPC) Peering(id string) (*Peering, error) {
	for _, p := range v.peerings {
		if p.id == id {
			return p, nil
		}
	}
	return nil, apierr.NotFound("peering", id)
}

// CreatePeering requests a connection of v with a peer's VPC, pending
// until the peer's side answers (Config.PeerAccept after, if set), and
// renders it as the create answers. provisioned_id is the cloud provider's
// id of the request, which the peer's side accepts by.
func (m *Model) CreatePeering(v *VPC, now time.Time, spec PeeringSpec) wire.Peering {
	p := &Peering{
		id:          m.uniqueDigitID(),
		account:     spec.Account,
		region:      spec.Region,
		peerVPC:     spec.PeerVPC,
		provisioned: m.uniqueID("pcx-", 17, lowerHex),
		sched:       schedule{{peeringPending, now}},
	}
	if m.cfg.PeerAccept != nil {
		p.sched = append(p.sched, step{peeringActive, now.Add(*m.cfg.PeerAccept)})
	}
	v.peerings = append(v.peerings, p)
	return p.view(peeringPending)
}

// DeletePeering removes a connection at once, whatever its status.
func (v *VPC) DeletePeering(p *Peering) {
	v.peerings = slices.DeleteFunc(v.peerings, func(x *Peering) bool { return x == p })
}

// AnswerPeering is the peer's side answering a pending connection, found
// by id in any VPC of any project: accepted when errMsg is "", failed with
// it otherwise.
func (m *Model) AnswerPeering(peeringID, errMsg string) error {
	return m.Inspect(func(now time.Time) error {
		for _, v := range m.vpcs {
			p, err := v.Peering(peeringID)
			if err != nil {
				continue // not this VPC's
			}
			if st := p.sched.current(now); st != peeringPending {
				return fmt.Errorf("dbcloudtest: peering %q is %s, not pending: the peer's side answers only a pending request", peeringID, st)
			}
			p.sched, p.errMsg = schedule{{peeringActive, now}}, errMsg
			if errMsg != "" {
				p.sched = schedule{{peeringFailed, now}}
			}
			return nil
		}
		return fmt.Errorf("%w: peering %q", ErrNotFound, peeringID)
	})
}
