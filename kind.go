package dbcloud

import (
	"context"
	"strings"
)

// kind is what the code that the kinds of resource share (create and its
// recovery, changes and their re-read, waits and their pollers) needs of
// one kind of resource, so that each rule is written once for all. T is
// the public type. Its types are services, replicaSets, vpcs and peerings:
// here what tells one resource from another; what each sends and decodes
// (its reads, the wire type of its answers) is in reads.go for services
// and replica sets, and beside their operations for VPCs and peerings.
type kind[T any] interface {
	// resource names the kind, as errors and logs do.
	resource() ResourceKind
	// read returns the resource that at names now, or an error matching
	// ErrNotFound when it is gone.
	read(ctx context.Context, api *caller, at ref) (*T, error)
	// list returns the resources of the parent that at names; a poller's
	// shared read serves the waits whose contexts are serves.
	list(ctx context.Context, api *caller, at ref, serves []context.Context) ([]T, error)
	// id, name and status are what tell one resource from another, and
	// where it stands.
	id(v *T) string
	name(v *T) string
	status(v *T) WaitStatus
	// answer returns a new value to decode an answer of one resource into
	// (its wire type), and the resource it holds once decoded.
	answer() (w any, v *T)
}

// services is the kind of database services.
type services struct{}

func (services) resource() ResourceKind         { return KindService }
func (services) id(svc *Service) string         { return svc.ServiceID }
func (services) name(svc *Service) string       { return svc.Name }
func (services) status(svc *Service) WaitStatus { return svc.Status }

// replicaSets is the kind of read replica sets. There is no GET for one
// set: it is read by finding it in its service's list.
type replicaSets struct{}

func (replicaSets) resource() ResourceKind                { return KindReplicaSet }
func (replicaSets) id(set *ReadReplicaSet) string         { return set.ID }
func (replicaSets) name(set *ReadReplicaSet) string       { return set.Name }
func (replicaSets) status(set *ReadReplicaSet) WaitStatus { return set.Status }

// vpcs is the kind of VPCs. A VPC has no status, and is never waited for;
// create recovery tells one from another by its name, range and region
// (its key, in vpcs.go).
type vpcs struct{}

func (vpcs) resource() ResourceKind { return KindVPC }
func (vpcs) id(v *VPC) string       { return v.ID }
func (vpcs) name(v *VPC) string     { return v.Name }
func (vpcs) status(*VPC) WaitStatus { return nil }

// peerings is the kind of VPC peering connections. A peering has no name:
// its peer's VPC id stands for one in waits and errors; create recovery
// tells one from another by its peer (its key, in peerings.go).
type peerings struct{}

func (peerings) resource() ResourceKind       { return KindPeering }
func (peerings) id(p *Peering) string         { return p.ID }
func (peerings) name(p *Peering) string       { return p.PeerVPCID }
func (peerings) status(p *Peering) WaitStatus { return p.Status }

// gone reports a status of a resource being deleted, or deleted: it no
// longer counts as there.
func gone(s WaitStatus) bool {
	switch s {
	case StatusDeleting, StatusDeleted, ReplicaSetDeleting:
		return true
	}
	if p, ok := s.(PeeringStatus); ok { // a free text: any case
		return strings.EqualFold(string(p), "deleting") || strings.EqualFold(string(p), "deleted")
	}
	return false
}
