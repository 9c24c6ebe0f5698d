package dbcloud

import (
	"context"
	"strings"
)

// kind is what the code that services and replica sets share (create and
// its recovery, commands and their confirmation, waits and their pollers)
// needs of one kind of resource, so that each rule is written once for
// both. T is the public type. Its two types are services and replicaSets:
// here what tells one resource from another; what each sends and decodes
// (its reads, the wire type of its answers) is in reads.go. The kinds of
// VPCs and peerings (vpcs, peerings) are beside their operations.
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
