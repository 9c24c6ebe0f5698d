package dbcloud

import (
	"context"
	"net/http"
	"net/netip"
	"unicode/utf8"
)

// CreateVPCRequest is the input of VPCsClient.Create. Every field is
// required. The API states no rule that names be unique or ranges not
// overlap: two VPCs can be alike in all three.
type CreateVPCRequest struct {
	Name string
	// CIDR is the VPC's IPv4 range, such as "10.0.0.0/16", written with
	// no address bits past the prefix ("10.0.0.1/16" is refused).
	CIDR       string
	RegionCode string // such as "us-east-1"
}

// Wire bodies of the VPC calls.
type (
	createVPCBody struct {
		Name       string `json:"name"`
		CIDR       string `json:"cidr"`
		RegionCode string `json:"region_code"`
	}
	renameBody struct {
		Name string `json:"name"`
	}
)

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
	return vpcs{}.list(ctx, v.api, vpcAt(projectID, "", ""), nil)
}

// Get returns one VPC.
func (v *VPCsClient) Get(ctx context.Context, projectID, vpcID string) (*VPC, error) {
	return vpcs{}.read(ctx, v.api, vpcAt(projectID, vpcID, ""))
}

// Create creates a VPC and returns it, with its id. It is a create (see
// "Retries" and "Under faults" in the package documentation);
// WithCreateRecovery finds the VPC by listing the project's for a new one
// with the requested name, CIDR and region.
func (v *VPCsClient) Create(ctx context.Context, projectID string, req *CreateVPCRequest) (*VPC, error) {
	at := vpcAt(projectID, "", "")
	r := newResourceRequest(KindVPC, "VPCs.Create", http.MethodPost, tplVPCs, at)
	if r.err == nil {
		r.body, r.err = req.body()
	}
	if r.err != nil {
		return nil, r.err
	}
	return create(ctx, v.api, vpcs{}, &r, at, wanted{name: req.Name, key: vpcKey(req.Name, req.CIDR, req.RegionCode)})
}

// Delete deletes a VPC. A retry's 404 is a success (see "Under faults" in
// the package documentation).
func (v *VPCsClient) Delete(ctx context.Context, projectID, vpcID string) error {
	at := vpcAt(projectID, vpcID, "")
	r := newResourceRequest(KindVPC, "VPCs.Delete", http.MethodDelete, tplVPC, at)
	return v.api.command(ctx, &r, confirmDeleted(vpcs{}, v.api, at))
}

// Rename renames a VPC. Renaming is safe to repeat: a retry's 409 is a
// success when the VPC has the new name.
func (v *VPCsClient) Rename(ctx context.Context, projectID, vpcID, name string) error {
	if err := checkVPCName("name", name); err != nil {
		return err
	}
	at := vpcAt(projectID, vpcID, "")
	r := newResourceRequest(KindVPC, "VPCs.Rename", http.MethodPost, tplVPC+"/rename", at)
	r.body = renameBody{name}
	return v.api.command(ctx, &r, confirmByRead(vpcs{}, v.api, at, func(got *VPC) bool { return got.Name == name }))
}

// vpcs is the kind of VPCs (see kind). A VPC has no status, and is never
// waited for.
type vpcs struct{}

func (vpcs) resource() ResourceKind { return KindVPC }
func (vpcs) id(v *VPC) string       { return v.ID }
func (vpcs) name(v *VPC) string     { return v.Name }
func (vpcs) status(*VPC) WaitStatus { return nil }
func (vpcs) key(v *VPC) string      { return vpcKey(v.Name, v.CIDR, v.RegionCode) }
func (k vpcs) answer() (any, *VPC)  { w := &oneOf[VPC]{kind: k}; return w, &w.v }
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
func (k vpcs) read(ctx context.Context, api *caller, at ref) (*VPC, error) {
	r := newResourceRequest(KindVPC, "VPCs.Get", http.MethodGet, tplVPC, at)
	w := oneOf[VPC]{kind: k}
	if err := api.read(ctx, &r, &w); err != nil {
		return nil, err
	}
	return &w.v, nil
}

// list lists the VPCs of the project that at names.
func (k vpcs) list(ctx context.Context, api *caller, at ref, serves []context.Context) ([]VPC, error) {
	r := newResourceRequest(KindVPC, "VPCs.List", http.MethodGet, tplVPCs, at)
	r.info.Serves = serves
	l := listOf[VPC]{kind: k}
	if err := api.read(ctx, &r, &l); err != nil {
		return nil, err
	}
	return l.items, nil
}
