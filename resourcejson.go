package dbcloud

import "fmt"

// The answers of the kinds whose wire type is their public type (VPCs,
// peerings): one resource, or a list, decoded as it is and checked for
// the id that every resource of the kind has.

// oneOf is an answer of one resource of kind k.
type oneOf[T any] struct {
	v    T
	kind kind[T]
}

func (o *oneOf[T]) decode(data []byte) error { return decodeJSON(data, &o.v) }

func (o *oneOf[T]) finish() error {
	if o.kind.id(&o.v) == "" {
		return fmt.Errorf("the %s has no id", o.kind.resource())
	}
	return nil
}

// listOf is an answer of a list of resources of kind k.
type listOf[T any] struct {
	items []T
	kind  kind[T]
}

func (l *listOf[T]) decode(data []byte) error { return decodeJSON(data, &l.items) }

func (l *listOf[T]) finish() error {
	for i := range l.items {
		if l.kind.id(&l.items[i]) == "" {
			return fmt.Errorf("element %d: the %s has no id", i, l.kind.resource())
		}
	}
	return nil
}
