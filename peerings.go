package dbcloud

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// CreatePeeringRequest is the input of PeeringsClient.Create. Every field
// is required.
type CreatePeeringRequest struct {
	PeerAccountID  string // the peer's cloud account, such as an AWS account id
	PeerRegionCode string // the peer VPC's region, such as "eu-central-1"
	PeerVPCID      string // the peer's VPC id in its cloud, such as "vpc-0a1b2c3d"
}

// createPeeringBody is the wire body of PeeringsClient.Create.
type createPeeringBody struct {
	PeerAccountID  string `json:"peer_account_id"`
	PeerRegionCode string `json:"peer_region_code"`
	PeerVPCID      string `json:"peer_vpc_id"`
}

func (r *CreatePeeringRequest) body() (*createPeeringBody, error) {
	switch {
	case r == nil:
		return nil, invalid("req", "nil CreatePeeringRequest")
	case r.PeerAccountID == "":
		return nil, invalid("PeerAccountID", "required")
	case r.PeerRegionCode == "":
		return nil, invalid("PeerRegionCode", "required")
	case r.PeerVPCID == "":
		return nil, invalid("PeerVPCID", "required")
	}
	return &createPeeringBody{PeerAccountID: r.PeerAccountID, PeerRegionCode: r.PeerRegionCode, PeerVPCID: r.PeerVPCID}, nil
}

// List returns the peering connections of a VPC.
func (p *PeeringsClient) List(ctx context.Context, projectID, vpcID string) ([]Peering, error) {
	return peerings{}.list(ctx, p.api, vpcAt(projectID, vpcID, ""), nil)
}

// Get returns one peering connection of a VPC.
func (p *PeeringsClient) Get(ctx context.Context, projectID, vpcID, peeringID string) (*Peering, error) {
	return peerings{}.read(ctx, p.api, vpcAt(projectID, vpcID, peeringID))
}

// Create requests a peering connection of a VPC with a VPC in another
// cloud account and returns it, usually pending until the peer's side
// accepts it (see WaitForActive). It is a create (see "Retries" and "Under
// faults" in the package documentation); WithCreateRecovery finds the
// connection by listing the VPC's for a new one with the requested peer
// (account, region and VPC).
func (p *PeeringsClient) Create(ctx context.Context, projectID, vpcID string, req *CreatePeeringRequest) (*Peering, error) {
	at := vpcAt(projectID, vpcID, "")
	r := newResourceRequest(KindPeering, "Peerings.Create", http.MethodPost, tplPeerings, at)
	if r.err == nil {
		r.body, r.err = req.body()
	}
	if r.err != nil {
		return nil, r.err
	}
	return create(ctx, p.api, peerings{}, &r, at, wanted{key: peeringKey(req.PeerAccountID, req.PeerRegionCode, req.PeerVPCID)})
}

// Delete deletes a peering connection. A retry's 404, or its 409 while the
// connection is deleting or deleted, is a success (see "Under faults" in
// the package documentation).
func (p *PeeringsClient) Delete(ctx context.Context, projectID, vpcID, peeringID string) error {
	at := vpcAt(projectID, vpcID, peeringID)
	r := newResourceRequest(KindPeering, "Peerings.Delete", http.MethodDelete, tplPeering, at)
	return p.api.command(ctx, &r, confirmDeleted(peerings{}, p.api, at))
}

// ErrPeeringFailed is the cause of a WaitForActive that ended because the
// peering connection failed: its ErrorMessage, or a status that cannot
// become active, follows in the error's text. It matches
// ErrUnexpectedStatus too.
var ErrPeeringFailed = fmt.Errorf("%w: the peering connection failed", ErrUnexpectedStatus)

// WaitForActive polls a peering connection until it is active and returns
// it, as "Waiting" and "Polling" in the package documentation say (the
// waits on the peerings of one VPC share their reads). A connection that
// fails (an ErrorMessage, or the status failed, rejected, expired,
// deleting or deleted) ends the wait at once: the connection is returned
// with a *WaitError whose Err matches ErrPeeringFailed and says why. A
// connection waits for the peer's side to accept it, which may take as
// long as someone takes to act there: give the wait a timeout that fits.
func (p *PeeringsClient) WaitForActive(ctx context.Context, projectID, vpcID, peeringID string, opts ...WaitOption) (*Peering, error) {
	at := vpcAt(projectID, vpcID, peeringID)
	if r := newResourceRequest(KindPeering, "", "", tplPeering, at); r.err != nil {
		return nil, r.err
	}
	cfg, err := p.api.newWaitConfig(opts)
	if err != nil {
		return nil, err
	}
	if err := cfg.pickCreated(KindPeering, peeringID); err != nil {
		return nil, err
	}
	cfg.setTimes(ctx)
	reads := peeringReads{scopeReads[Peering]{p.api, peerings{}, vpcAt(projectID, vpcID, "")}}
	sp := newWaitSpec[Peering](peerings{}, peeringID, string(PeeringActive), peeringJudge(p.api.pipe.Secrets()))
	got, err := runWait(ctx, p.api, &cfg, peeringScope{projectID, vpcID}, reads, peeringID, sp)
	if err != nil && !errors.Is(err, ErrPeeringFailed) {
		return nil, err
	}
	return got, err
}

// peeringJudge is the rule of WaitForActive: done when active; failed,
// with why, when the connection says it failed or cannot become active.
// The server's texts are kept out of the error with the credentials'
// secrets in them.
func peeringJudge(secrets []string) func(*Peering) (bool, error) {
	return func(got *Peering) (bool, error) {
		switch {
		case got.ErrorMessage != "":
			return false, fmt.Errorf("%w: %s", ErrPeeringFailed, serverText(got.ErrorMessage, secrets, ""))
		case strings.EqualFold(string(got.Status), string(PeeringActive)):
			return true, nil
		case peeringEnded(got.Status):
			return false, fmt.Errorf("%w: status %s", ErrPeeringFailed, serverText(string(got.Status), secrets, ""))
		}
		return false, nil
	}
}

// peeringEnded reports a status from which a connection cannot become
// active.
func peeringEnded(s PeeringStatus) bool {
	for _, end := range [...]string{"failed", "rejected", "expired", "deleting", "deleted"} {
		if strings.EqualFold(string(s), end) {
			return true
		}
	}
	return false
}

// peeringScope is the scope of a client's poller of the peerings of one
// VPC.
type peeringScope struct{ projectID, vpcID string }

// peeringReads is how the waits on a VPC's peerings read them: a wait
// alone reads its peering with a GET.
type peeringReads struct{ scopeReads[Peering] }

// One reads the peering id.
func (s peeringReads) One(ctx context.Context, id string) (*Peering, error) {
	return peerings{}.read(ctx, s.api, vpcAt(s.at.projectID, s.at.vpcID(), id))
}

// peerings is the kind of VPC peering connections (see kind). A peering
// has no name: its peer's VPC id stands for one in waits and errors.
type peerings struct{}

func (peerings) resource() ResourceKind       { return KindPeering }
func (peerings) id(p *Peering) string         { return p.ID }
func (peerings) name(p *Peering) string       { return p.PeerVPCID }
func (peerings) status(p *Peering) WaitStatus { return p.Status }
func (peerings) key(p *Peering) string {
	return peeringKey(p.PeerAccountID, p.PeerRegionCode, p.PeerVPCID)
}
func (k peerings) answer() (any, *Peering) { w := &oneOf[Peering]{kind: k}; return w, &w.v }

func peeringKey(account, region, vpc string) string { return account + "\x00" + region + "\x00" + vpc }

// read is a GET of the peering that at names.
func (k peerings) read(ctx context.Context, api *caller, at ref) (*Peering, error) {
	r := newResourceRequest(KindPeering, "Peerings.Get", http.MethodGet, tplPeering, at)
	w := oneOf[Peering]{kind: k}
	if err := api.read(ctx, &r, &w); err != nil {
		return nil, err
	}
	return &w.v, nil
}

// list lists the peerings of the VPC that at names; a poller's shared read
// serves the waits whose contexts are serves.
func (k peerings) list(ctx context.Context, api *caller, at ref, serves []context.Context) ([]Peering, error) {
	r := newResourceRequest(KindPeering, "Peerings.List", http.MethodGet, tplPeerings, at)
	r.info.Serves = serves
	l := listOf[Peering]{kind: k}
	if err := api.read(ctx, &r, &l); err != nil {
		return nil, err
	}
	return l.items, nil
}
