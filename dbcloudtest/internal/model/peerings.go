package model

import (
	"fmt"
	"slices"
	"time"

	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/apierr"
	"github.com/dbcloud/dbcloud-go/dbcloudtest/internal/wire"
)

// Peering connection statuses, as on the wire. A connection is requested
// pending and stays so until the peer's side answers it (AcceptPeering,
// FailPeering): nothing on this side moves it.
const (
	peeringPending = "pending"
	peeringActive  = "active"
	peeringFailed  = "failed"
)

// Peering is one peering connection of a VPC.
type Peering struct {
	id                       string
	account, region, peerVPC string
	status, provisioned      string
	errMsg                   string // set when failed
}

// PeeringSpec is what a peering connection's create asks for, read and
// checked.
type PeeringSpec struct{ Account, Region, PeerVPC string }

// View renders the connection as a GET of it answers.
func (p *Peering) View() wire.Peering {
	return wire.Peering{
		ID:             p.id,
		PeerAccountID:  p.account,
		PeerRegionCode: p.region,
		PeerVPCID:      p.peerVPC,
		Status:         p.status,
		ProvisionedID:  p.provisioned,
		ErrorMessage:   p.errMsg,
	}
}

// Peerings renders the VPC's connections, oldest first.
func (v *VPC) Peerings() []wire.Peering {
	out := make([]wire.Peering, 0, len(v.peerings))
	for _, p := range v.peerings {
		out = append(out, p.View())
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
// until the peer's side answers, and renders it as the create answers.
// provisioned_id is the cloud provider's id of the request, which the
// peer's side accepts by.
func (m *Model) CreatePeering(v *VPC, spec PeeringSpec) wire.Peering {
	p := &Peering{
		id:          m.uniqueDigitID(),
		account:     spec.Account,
		region:      spec.Region,
		peerVPC:     spec.PeerVPC,
		status:      peeringPending,
		provisioned: m.uniqueID("pcx-", 17, lowerHex),
	}
	v.peerings = append(v.peerings, p)
	return p.View()
}

// DeletePeering removes a connection at once, whatever its status.
func (v *VPC) DeletePeering(p *Peering) {
	v.peerings = slices.DeleteFunc(v.peerings, func(x *Peering) bool { return x == p })
}

// AnswerPeering is the peer's side answering a pending connection, found
// by id in any VPC of any project: accepted when errMsg is "", failed with
// it otherwise.
func (m *Model) AnswerPeering(peeringID, errMsg string) error {
	return m.Inspect(func(time.Time) error {
		for _, v := range m.vpcs {
			for _, p := range v.peerings {
				if p.id != peeringID {
					continue
				}
				if p.status != peeringPending {
					return fmt.Errorf("dbcloudtest: peering %q is %s, not pending: the peer's side answers only a pending request", peeringID, p.status)
				}
				p.status, p.errMsg = peeringActive, errMsg
				if errMsg != "" {
					p.status = peeringFailed
				}
				return nil
			}
		}
		return fmt.Errorf("%w: peering %q", ErrNotFound, peeringID)
	})
}
