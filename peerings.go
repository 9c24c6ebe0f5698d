package dbcloud

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// CreatePeeringRequest is the input of PeeringsClient.Create; all required.
type CreatePeeringRequest struct {
	PeerAccountID  string // such as an AWS account id
	PeerRegionCode string // such as "eu-central-1"
	PeerVPCID      string // such as "vpc-0a1b2c3d"
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
	at := ref{projectID: projectID, vpcID: vpcID}
	seg, err := at.escape(inVPC)
	if err != nil {
		return nil, err
	}
	l := listOf[Peering]{kind: peerings{}}
	err = p.api.do(ctx, &request{op: "Peerings.List", method: http.MethodGet, kind: KindPeering, at: at,
		tpl: tplPeerings, path: "/projects/" + seg.projectID + "/vpcs/" + seg.vpcID + "/peerings"}, &l)
	if err != nil {
		return nil, err
	}
	return l.items, nil
}

// Get returns one peering connection of a VPC.
func (p *PeeringsClient) Get(ctx context.Context, projectID, vpcID, peeringID string) (*Peering, error) {
	at := ref{projectID: projectID, vpcID: vpcID, peeringID: peeringID}
	seg, err := at.escape(inPeering)
	if err != nil {
		return nil, err
	}
	w := oneOf[Peering]{kind: peerings{}}
	err = p.api.do(ctx, &request{op: "Peerings.Get", method: http.MethodGet, kind: KindPeering, at: at,
		tpl: tplPeering, path: "/projects/" + seg.projectID + "/vpcs/" + seg.vpcID + "/peerings/" + seg.peeringID}, &w)
	if err != nil {
		return nil, err
	}
	return &w.v, nil
}

// Create requests a peering of a VPC with another cloud account's VPC and
// returns it, pending until the peer accepts. It is a create (see Under
// faults in the package documentation); recovery matches the peer.
func (p *PeeringsClient) Create(ctx context.Context, projectID, vpcID string, req *CreatePeeringRequest) (*Peering, error) {
	at := ref{projectID: projectID, vpcID: vpcID}
	seg, err := at.escape(inVPC)
	body, bodyErr := req.body()
	if err := cmp.Or(err, bodyErr); err != nil { // the ids' error first
		return nil, err
	}
	w := oneOf[Peering]{kind: peerings{}}
	err = p.api.do(ctx, &request{op: "Peerings.Create", method: http.MethodPost, kind: KindPeering, at: at,
		tpl: tplPeerings, path: "/projects/" + seg.projectID + "/vpcs/" + seg.vpcID + "/peerings",
		creates: true, want: wanted{key: peeringKey(req.PeerAccountID, req.PeerRegionCode, req.PeerVPCID)}, body: body}, &w)
	if err != nil {
		return nil, err
	}
	return &w.v, nil
}

// Delete deletes a peering connection (see Under faults in the package documentation).
func (p *PeeringsClient) Delete(ctx context.Context, projectID, vpcID, peeringID string) error {
	at := ref{projectID: projectID, vpcID: vpcID, peeringID: peeringID}
	seg, err := at.escape(inPeering)
	if err != nil {
		return err
	}
	return p.api.do(ctx, &request{op: "Peerings.Delete", method: http.MethodDelete, kind: KindPeering, at: at,
		tpl: tplPeering, path: "/projects/" + seg.projectID + "/vpcs/" + seg.vpcID + "/peerings/" + seg.peeringID,
		effect: tookEffect(peerings{}, p.api, at, nil, nil)}, nil)
}

// ErrPeeringFailed ends a WaitForActive whose peering failed; it matches
// ErrUnexpectedStatus too.
var ErrPeeringFailed = fmt.Errorf("%w: the peering connection failed", ErrUnexpectedStatus)

// WaitForActive polls a peering until it is active (see Waiting in the
// package documentation). An ErrorMessage, or the status failed, rejected,
// expired, deleting or deleted, returns it at once with a *WaitError
// matching ErrPeeringFailed. The peer's side accepts by hand: time out to fit.
func (p *PeeringsClient) WaitForActive(ctx context.Context, projectID, vpcID, peeringID string, opts ...WaitOption) (*Peering, error) {
	cfg, err := p.api.newWaitConfig(opts)
	if err != nil {
		return nil, err
	}
	reads := peeringReads{scopeReads[Peering]{p.api, peerings{}, ref{projectID: projectID, vpcID: vpcID}}}
	sp := newWaitSpec[Peering](peerings{}, peeringID, string(PeeringActive), peeringJudge(p.api.pipe.Secrets()))
	got, err := wait(ctx, p.api, &cfg, inPeering, ref{projectID: projectID, vpcID: vpcID, peeringID: peeringID}, peeringID, peeringScope{projectID, vpcID}, reads, sp)
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
	return peerings{}.read(ctx, s.api, ref{projectID: s.at.projectID, vpcID: s.at.vpcID, peeringID: id})
}

func (peerings) key(p *Peering) string {
	return peeringKey(p.PeerAccountID, p.PeerRegionCode, p.PeerVPCID)
}

// answer is a new peering to decode an answer into.
func (k peerings) answer() (any, *Peering) { w := &oneOf[Peering]{kind: k}; return w, &w.v }

// peeringKey is what tells a peering from another for create recovery: its
// peer's account, region and VPC.
func peeringKey(account, region, vpc string) string { return account + "\x00" + region + "\x00" + vpc }

// read is a GET of the peering that at names.
func (peerings) read(ctx context.Context, api *caller, at ref) (*Peering, error) {
	return (&PeeringsClient{api: api}).Get(ctx, at.projectID, at.vpcID, at.peeringID)
}

// list lists the peerings of the VPC that at names; a poller's shared read
// serves the waits whose contexts are serves (CallInfo.Serves).
func (peerings) list(ctx context.Context, api *caller, at ref, serves []context.Context) ([]Peering, error) {
	return (&PeeringsClient{api: api}).List(withServes(ctx, serves), at.projectID, at.vpcID)
}
