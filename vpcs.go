package dbcloud

import (
	"cmp"
	"context"
	"net/http"
	"net/netip"
	"unicode/utf8"
)

// CreateVPCRequest is the input of VPCsClient.Create; all required. Names
// need not be unique, nor ranges disjoint.
type CreateVPCRequest struct {
	Name       string
	CIDR       string // IPv4, such as "10.0.0.0/16"; "10.0.0.1/16" is refused
	RegionCode string // such as "us-east-1"
}

// createVPCBody is the wire body of VPCsClient.Create.
type createVPCBody struct {
	Name       string `json:"name"`
	CIDR       string `json:"cidr"`
	RegionCode string `json:"region_code"`
}

func (r *CreateVPCRequest) body() (*createVPCBody, error) {
	if r == nil {
		return nil, invalid("req", "nil CreateVPCRequest")
	}
	if err := checkVPCName("Name", r.Name); err != nil {
		return nil, err
	}
	prefix, err := netip.ParsePrefix(r.CIDR)
	switch {
	case r.CIDR == "":
		return nil, invalid("CIDR", "required, such as 10.0.0.0/16")
	case err != nil || !prefix.Addr().Is4():
		return nil, invalid("CIDR", "not an IPv4 range such as 10.0.0.0/16")
	case prefix.Masked() != prefix:
		return nil, invalid("CIDR", "has address bits past the prefix: did you mean "+prefix.Masked().String()+"?")
	case r.RegionCode == "":
		return nil, invalid("RegionCode", "required, such as us-east-1")
	}
	return &createVPCBody{Name: r.Name, CIDR: r.CIDR, RegionCode: r.RegionCode}, nil
}

// checkVPCName checks a name a VPC is created or renamed with: the API
// gives no length limit for VPC names.
func checkVPCName(field, name string) error {
	switch {
	case name == "":
		return invalid(field, "required")
	case !utf8.ValidString(name):
		return invalid(field, "not valid UTF-8")
	}
	return nil
}

// List returns every VPC of a project.
func (v *VPCsClient) List(ctx context.Context, projectID string) ([]VPC, error) {
	at := ref{projectID: projectID}
	seg, err := at.escape(inProject)
	if err != nil {
		return nil, err
	}
	l := listOf[VPC]{kind: vpcs{}}
	err = v.api.do(ctx, &request{op: "VPCs.List", method: http.MethodGet, kind: KindVPC, at: at,
		tpl: tplVPCs, path: "/projects/" + seg.projectID + "/vpcs"}, &l)
	if err != nil {
		return nil, err
	}
	return l.items, nil
}

// Get returns one VPC.
func (v *VPCsClient) Get(ctx context.Context, projectID, vpcID string) (*VPC, error) {
	at := ref{projectID: projectID, vpcID: vpcID}
	seg, err := at.escape(inVPC)
	if err != nil {
		return nil, err
	}
	w := oneOf[VPC]{kind: vpcs{}}
	err = v.api.do(ctx, &request{op: "VPCs.Get", method: http.MethodGet, kind: KindVPC, at: at,
		tpl: tplVPC, path: "/projects/" + seg.projectID + "/vpcs/" + seg.vpcID}, &w)
	if err != nil {
		return nil, err
	}
	return &w.v, nil
}

// Create creates a VPC and returns it (see Under faults in the package documentation).
func (v *VPCsClient) Create(ctx context.Context, projectID string, req *CreateVPCRequest) (*VPC, error) {
	at := ref{projectID: projectID}
	seg, err := at.escape(inProject)
	body, bodyErr := req.body()
	if err := cmp.Or(err, bodyErr); err != nil { // the ids' error first
		return nil, err
	}
	w := oneOf[VPC]{kind: vpcs{}}
	err = v.api.do(ctx, &request{op: "VPCs.Create", method: http.MethodPost, kind: KindVPC, at: at,
		tpl: tplVPCs, path: "/projects/" + seg.projectID + "/vpcs",
		creates: true, want: wanted{key: vpcKey(req.Name, req.CIDR, req.RegionCode)}, body: body}, &w)
	if err != nil {
		return nil, err
	}
	return &w.v, nil
}

// Delete deletes a VPC (see Under faults in the package documentation).
func (v *VPCsClient) Delete(ctx context.Context, projectID, vpcID string) error {
	at := ref{projectID: projectID, vpcID: vpcID}
	seg, err := at.escape(inVPC)
	if err != nil {
		return err
	}
	return v.api.do(ctx, &request{op: "VPCs.Delete", method: http.MethodDelete, kind: KindVPC, at: at,
		tpl: tplVPC, path: "/projects/" + seg.projectID + "/vpcs/" + seg.vpcID,
		effect: tookEffect(vpcs{}, v.api, at, nil, nil)}, nil)
}

// Rename renames a VPC; a retry's 409 is a success when it has the name.
func (v *VPCsClient) Rename(ctx context.Context, projectID, vpcID, name string) error {
	if err := checkVPCName("name", name); err != nil {
		return err
	}
	at := ref{projectID: projectID, vpcID: vpcID}
	seg, err := at.escape(inVPC)
	if err != nil {
		return err
	}
	return v.api.do(ctx, &request{op: "VPCs.Rename", method: http.MethodPost, kind: KindVPC, at: at,
		tpl: tplVPC + "/rename", path: "/projects/" + seg.projectID + "/vpcs/" + seg.vpcID + "/rename",
		body: renameBody{name}, effect: tookEffect(vpcs{}, v.api, at, func(got *VPC) bool { return got.Name == name }, nil)}, nil)
}

func (vpcs) key(v *VPC) string { return vpcKey(v.Name, v.CIDR, v.RegionCode) }

// answer is a new VPC to decode an answer into.
func (k vpcs) answer() (any, *VPC) { w := &oneOf[VPC]{kind: k}; return w, &w.v }

// vpcKey is what tells a VPC from another for create recovery: its name,
// range and region.
func vpcKey(name, cidr, region string) string {
	return name + "\x00" + canonicalCIDR(cidr) + "\x00" + region
}

// canonicalCIDR is cidr as netip writes it, so that a server that writes
// a range its own way still matches the range asked for.
func canonicalCIDR(cidr string) string {
	if p, err := netip.ParsePrefix(cidr); err == nil {
		return p.Masked().String()
	}
	return cidr
}

// read is a GET of the VPC that at names.
func (vpcs) read(ctx context.Context, api *caller, at ref) (*VPC, error) {
	return (&VPCsClient{api: api}).Get(ctx, at.projectID, at.vpcID)
}

// list lists the VPCs of the project that at names. No wait polls VPCs,
// so no list serves one.
func (vpcs) list(ctx context.Context, api *caller, at ref, _ []context.Context) ([]VPC, error) {
	return (&VPCsClient{api: api}).List(ctx, at.projectID)
}
