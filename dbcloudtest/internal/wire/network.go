package wire

// VPC is a virtual private cloud of a project, as listed, created and read.
type VPC struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	CIDR       string `json:"cidr"`
	RegionCode string `json:"region_code"`
}

// Peering is a VPC's peering connection with a VPC of the peer's cloud
// account. ErrorMessage appears only once the connection has failed.
type Peering struct {
	ID             string `json:"id"`
	PeerAccountID  string `json:"peer_account_id"`
	PeerRegionCode string `json:"peer_region_code"`
	PeerVPCID      string `json:"peer_vpc_id"`
	Status         string `json:"status"`
	ProvisionedID  string `json:"provisioned_id"`
	ErrorMessage   string `json:"error_message,omitempty"`
}
